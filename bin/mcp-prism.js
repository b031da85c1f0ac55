#!/usr/bin/env node
// Thin launcher: runs the compiled CLI so start-up does not pay for a TypeScript loader. It is
// CommonJS (bin/package.json): for the chat app it runs the first-frame bundle at once
// (dist/bundle/app-launch.cjs → app.cjs with its code cache), without waiting for node's ES module
// loader, which the rest of the CLI (dist/bundle/main.js) and the app's later imports use.
"use strict";
const { existsSync } = require("node:fs");
const { join } = require("node:path");
const { pathToFileURL } = require("node:url");

// React/Ink run their production builds unless asked otherwise: the development build is slower
// to load, and its performance-timeline measures (kept by node for every render) grow without
// bound over a long session (~60 KB per turn).
process.env.NODE_ENV ??= "production";

const root = join(__dirname, "..");
const bundle = join(root, "dist", "bundle");
const argv = process.argv.slice(2);

async function start() {
  // The same routing as main() (src/cli/dispatch.ts): no subcommand, no --help, no -p.
  if (existsSync(join(bundle, "app-launch.cjs"))) {
    const launch = require(join(bundle, "app-launch.cjs"));
    if (launch.runsApp(argv)) return launch.launchApp(bundle, argv);
  }
  // The bundle (scripts/bundle.js) loads several times faster than the module tree; the plain
  // compiled tree is the fallback while only `tsc` has run.
  const entry = [join(bundle, "main.js"), join(root, "dist", "cli", "main.js")].find((f) => existsSync(f));
  if (!entry) {
    process.stderr.write("mcp-prism: not built yet (dist/ is missing): run `npm run build` first\n");
    return 2;
  }
  const { main } = await import(pathToFileURL(entry).href);
  return main(argv);
}

start().then((code) => {
  process.exitCode = code;
});
