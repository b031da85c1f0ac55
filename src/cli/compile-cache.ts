// Node >= 22.1: V8's compile cache for every module node loads from here on (everything but the
// launcher and main.js's few kB), in $XDG_CACHE_HOME/mcp-prism/compile-cache (paths.ts).
// MCP_PRISM_CODE_CACHE=0 turns it off; Node 20 has no enableCompileCache: nothing happens.
// Decision D3 (docs/decisions.md) measured it.
import module from "node:module";
import { join } from "node:path";
import { cacheDir } from "../host/config/paths.js";

export function turnOnCompileCache(env: NodeJS.ProcessEnv = process.env): void {
  const enable = (module as { enableCompileCache?: (dir: string) => unknown }).enableCompileCache;
  if (typeof enable !== "function" || env.MCP_PRISM_CODE_CACHE === "0") return;
  try {
    enable(join(cacheDir(env), "compile-cache"));
  } catch {
    // an unusable cache directory only costs compile time
  }
}
