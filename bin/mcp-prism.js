#!/usr/bin/env node
// Thin launcher: runs the bundled CLI (dist/bundle/main.js, scripts/bundle.js), so start-up pays
// neither for a TypeScript loader nor for node resolving hundreds of small modules (main() runs
// the chat app from its first-frame bundle, src/cli/tui-loader.ts); the plain compiled tree
// (dist/cli/main.js) is the fallback while only `tsc` has run.
import { existsSync } from "node:fs";
import module from "node:module";
import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";

// Node >= 22.1: V8's compile cache for every module node loads from here on (the ES module chunks;
// the first-frame bundle keeps its own, src/cli/code-cache.ts). Beside it, in the cache directory
// of src/host/config/paths.ts (the same rule: a relative XDG_CACHE_HOME is ignored).
// MCP_PRISM_CODE_CACHE=0 turns both off. Node 20 has no enableCompileCache: nothing happens.
if (typeof module.enableCompileCache === "function" && process.env.MCP_PRISM_CODE_CACHE !== "0") {
  const xdg = process.env.XDG_CACHE_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : join(process.env.HOME ?? homedir(), ".cache");
  try {
    module.enableCompileCache(join(base, "mcp-prism", "compile-cache"));
  } catch {
    // an unusable cache directory only costs compile time
  }
}

// React/Ink run their production builds unless asked otherwise: the development build is slower
// to load, and its performance-timeline measures (kept by node for every render) grow without
// bound over a long session (~60 KB per turn). Set before anything imports React.
process.env.NODE_ENV ??= "production";

// NO_COLOR (no-color.org): chalk, which draws every colour and style of the app (Ink, markdown,
// highlighting, images), reads only FORCE_COLOR, so a non-empty NO_COLOR becomes FORCE_COLOR=0
// before anything loads it. An explicit FORCE_COLOR wins (colour forced, in a pipe too).
if (process.env.NO_COLOR && process.env.FORCE_COLOR === undefined) process.env.FORCE_COLOR = "0";

const entry = ["../dist/bundle/main.js", "../dist/cli/main.js"]
  .map((p) => new URL(p, import.meta.url))
  .find((u) => existsSync(u));
if (!entry) {
  process.stderr.write("mcp-prism: not built yet (dist/ is missing): run `npm run build` first\n");
  process.exitCode = 2;
} else {
  const { main } = await import(entry.href);
  process.exitCode = await main(process.argv.slice(2));
}
