// Every place mcp-prism keeps a file, from one rule (XDG Base Directory): `$XDG_STATE_HOME`,
// `$XDG_CONFIG_HOME`, `$XDG_CACHE_HOME`, each ignored when empty or relative, as the spec says,
// else under $HOME. Imports only node builtins: the chat app's first-frame code reads it.
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join } from "node:path";
import { fileURLToPath } from "node:url";

type Kind = "XDG_STATE_HOME" | "XDG_CONFIG_HOME" | "XDG_CACHE_HOME";
const FALLBACK: Record<Kind, string[]> = {
  XDG_STATE_HOME: [".local", "state"],
  XDG_CONFIG_HOME: [".config"],
  XDG_CACHE_HOME: [".cache"],
};

/** `$KIND/mcp-prism`, or its default under $HOME when the variable is unset, empty or relative. */
function xdgDir(kind: Kind, env: NodeJS.ProcessEnv): string {
  const xdg = env[kind];
  const base = xdg && isAbsolute(xdg) ? xdg : join(env.HOME ?? homedir(), ...FALLBACK[kind]);
  return join(base, "mcp-prism");
}

/** Transcripts, the era cache, trusted config files, sign-in records (`auth/`), prompt history. */
export function stateDir(env: NodeJS.ProcessEnv = process.env): string {
  return xdgDir("XDG_STATE_HOME", env);
}

/** The user's own config: `$XDG_CONFIG_HOME/mcp-prism/config.json`. */
export function userConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(xdgDir("XDG_CONFIG_HOME", env), "config.json");
}

/** What may be thrown away and made again (the start-up code cache). */
export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return xdgDir("XDG_CACHE_HOME", env);
}

let root: string | undefined;
/**
 * The installed package's root (where package.json and bin/ are): found upwards from this code,
 * which runs from src/host/config, dist/host/config or a bundle in dist/bundle.
 */
export function packageRoot(): string {
  if (root !== undefined) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    const pkg = join(dir, "package.json");
    try {
      if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, "utf8")) as { name?: string }).name === "mcp-prism")
        return (root = dir);
    } catch {
      // not ours: go on up
    }
    dir = dirname(dir);
  }
  return (root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", ".."));
}
