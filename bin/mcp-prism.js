#!/usr/bin/env node
// Thin launcher: runs the compiled CLI so start-up does not pay for a TypeScript loader.
import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { dirname, join } from "node:path";

// React/Ink run their production builds unless asked otherwise: the development build is slower
// to load, and its performance-timeline measures (kept by node for every render) grow without
// bound over a long session (~60 KB per turn).
process.env.NODE_ENV ??= "production";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
// The bundle (scripts/bundle.js) loads several times faster than the module tree; the plain
// compiled tree is the fallback while only `tsc` has run.
const entry = [join(root, "dist", "bundle", "main.js"), join(root, "dist", "cli", "main.js")].find((f) => existsSync(f));
if (!entry) {
  process.stderr.write("mcp-prism: not built yet (dist/ is missing): run `npm run build` first\n");
  process.exit(2);
}
const { main } = await import(pathToFileURL(entry).href);
process.exitCode = await main(process.argv.slice(2));
