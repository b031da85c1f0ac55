// The host's roots: the directories a server may treat as the user's workspace. From the
// config's `"roots": ["dir", …]` (resolved against the config file's directory, each an existing
// directory) or `--root DIR`, else none: no roots capability at all. Never a default such as the
// current directory: server-filesystem replaces the directories it was started with by the
// client's roots, so a default would silently widen them. They are fixed for a run: there is no config reload,
// so `notifications/roots/list_changed` is sent only when Host.setRoots changes them.
import { statSync } from "node:fs";
import { basename, isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";

/** At most this many roots (a server gets them all on every roots/list). */
export const MAX_ROOTS = 64;
const MAX_ROOT_CHARS = 4096;

export interface Root {
  uri: string;
  name: string;
}

/** The config's `roots` value as absolute directories, or what was expected instead. */
export function parseRoots(raw: unknown, configDir: string): { dirs: string[] } | { error: string } {
  if (!Array.isArray(raw) || raw.some((d) => typeof d !== "string" || d === "" || d.length > MAX_ROOT_CHARS)) {
    return { error: `an array of directory paths (each 1-${MAX_ROOT_CHARS} characters)` };
  }
  if (raw.length > MAX_ROOTS) return { error: `at most ${MAX_ROOTS} roots (got ${raw.length})` };
  const dirs: string[] = [];
  for (const d of raw as string[]) {
    const dir = isAbsolute(d) ? d : resolve(configDir, d);
    if (!isDirectory(dir)) return { error: `an existing directory (${dir} is not one)` };
    if (!dirs.includes(dir)) dirs.push(dir);
  }
  return { dirs };
}

/** An existing directory (not a file, not a dangling link). */
export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Directories as MCP roots (`file://` URIs named by their last segment). */
export function rootsOf(dirs: readonly string[]): Root[] {
  return dirs.map((dir) => ({ uri: pathToFileURL(dir).href, name: basename(dir) || dir }));
}
