// Runs a CommonJS bundle with a V8 code cache: the compiled bytecode of what ran during the first
// start is saved and handed to V8 on the next, which then neither parses nor compiles those
// functions again (node 20 has no module.enableCompileCache, and ES modules take no cache; hence
// the app's first-frame code ships as dist/bundle/tui.cjs besides the ES module chunks).
// The cache lives in $XDG_CACHE_HOME/mcp-prism (default ~/.cache/mcp-prism), one file per node
// version and architecture, keyed by the bundle's content hash (scripts/bundle.js writes it on
// the bundle's last line: V8 itself only checks the source's length). MCP_PRISM_CODE_CACHE=0
// turns it off. Any failure to read or write it just means compiling as without it.
import { cacheDir } from "../host/config/paths.js";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Script } from "node:vm";

/** The bundle's stand-in for `import()` (scripts/bundle.js rewrites its dynamic imports to it). */
export type EsmImport = (specifier: string) => Promise<unknown>;

export interface CachedRun<T> {
  exports: T;
  /** The cache was there, matched and was accepted by V8. */
  hit: boolean;
  /** Writes the cache from what has been compiled so far; a no-op after a hit. */
  save(): void;
}

const BUILD_LINE = /\n\/\/ mcp-prism-build ([0-9a-f]{16,})\n?$/;

export function codeCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return cacheDir(env);
}

export function runWithCodeCache<T>(
  file: string,
  esmImport: EsmImport,
  env: NodeJS.ProcessEnv = process.env,
): CachedRun<T> {
  const source = readFileSync(file, "utf8");
  const build = BUILD_LINE.exec(source.slice(-200))?.[1];
  const cacheFile =
    build && env.MCP_PRISM_CODE_CACHE !== "0"
      ? join(codeCacheDir(env), `app-${process.version}-${process.arch}.v8cache`)
      : undefined;
  let cachedData: Buffer | undefined;
  if (cacheFile) {
    try {
      const stored = readFileSync(cacheFile);
      const nl = stored.indexOf(10);
      if (nl > 0 && stored.toString("latin1", 0, nl) === build) cachedData = stored.subarray(nl + 1);
    } catch {
      // no cache yet
    }
  }
  // The CommonJS wrapper, plus the import() stand-in; on the source's first line, so line numbers hold.
  const script = new Script(`(function (exports, require, module, __filename, __dirname, esmImp) {${source}\n})`, {
    filename: file,
    cachedData,
  });
  const module = { exports: {} as T };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file), esmImport);
  const hit = cachedData !== undefined && !script.cachedDataRejected;
  let saved = hit;
  return {
    exports: module.exports,
    hit,
    save() {
      if (saved || !cacheFile || !build) return;
      saved = true;
      try {
        mkdirSync(dirname(cacheFile), { recursive: true });
        const tmp = `${cacheFile}.${process.pid}.tmp`;
        writeFileSync(tmp, Buffer.concat([Buffer.from(`${build}\n`, "latin1"), script.createCachedData()]));
        renameSync(tmp, cacheFile); // atomic: a concurrent start reads the old file or the new one
      } catch {
        // an unwritable cache directory only costs the next start its compile time
      }
    },
  };
}
