// Bundles the compiled CLI (dist/cli/main.js) into dist/bundle/ with esbuild: one chunk per
// subcommand, shared code split out. Loading a few large files instead of hundreds of small ESM
// modules is most of the app's start-up (Ink alone pulls in ~300 files, and a whole utility index
// for one function). dist/bundle sits two levels below the root like dist/<layer>/, so the
// import.meta.url-relative paths (bin/, package.json, src/demo/data) resolve the same.
import { build } from "esbuild";

await build({
  entryPoints: ["dist/cli/main.js"],
  outdir: "dist/bundle",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  // Only loaded by Ink's development devtools hook, never in production.
  external: ["react-devtools-core"],
  // CommonJS dependencies inside an ESM bundle still call require().
  banner: { js: "import { createRequire as __prismRequire } from 'node:module'; const require = __prismRequire(import.meta.url);" },
  // The launcher runs React/Ink in production mode; fixing it here drops their development builds.
  define: { "process.env.NODE_ENV": '"production"' },
  logLevel: "warning",
  legalComments: "none",
});
