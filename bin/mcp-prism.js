#!/usr/bin/env node
// Thin launcher: runs the bundled CLI (dist/bundle/main.js, scripts/bundle.js), so start-up pays
// neither for a TypeScript loader nor for node resolving hundreds of small modules (main() turns
// on node's compile cache first, src/cli/compile-cache.ts); the plain compiled tree
// (dist/cli/main.js) is the fallback while only `tsc` has run.
import { existsSync } from "node:fs";

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
