// Bundles the compiled CLI (dist/cli/main.js) into dist/bundle/ with esbuild: one chunk per
// subcommand, shared code split out. Loading a few large files instead of hundreds of small ESM
// modules is most of the app's start-up (Ink alone pulls in ~300 files, and a whole utility index
// for one function). dist/bundle sits two levels below the root like dist/<layer>/, so the
// import.meta.url-relative paths (bin/, package.json, src/demo/data) resolve the same.
import { build } from "esbuild";
import { readdirSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { BUNDLE_PATCHES, patchPlugin } from "./bundle-patches.js";

const applied = new Map();
const result = await build({
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
  plugins: [patchPlugin(BUNDLE_PATCHES, applied)],
  // Less source for node to read and pre-parse on every start (~10 ms off the UI chunk's load);
  // the source maps let `node --enable-source-maps` name the original lines in a stack trace.
  minify: true,
  sourcemap: true,
  logLevel: "warning",
  legalComments: "none",
  metafile: true,
});
const unused = BUNDLE_PATCHES.filter((p) => !applied.get(p)).map((p) => p.name);
if (unused.length) throw new Error(`bundle patches found nothing to patch (a dependency changed?): ${unused.join("; ")}`);
// Chunk names carry content hashes: drop the previous builds' chunks once the new ones are written.
const current = new Set(Object.keys(result.metafile.outputs).map((f) => basename(f)));
for (const f of readdirSync("dist/bundle")) if (!current.has(f)) rmSync(join("dist/bundle", f), { force: true });
// Which modules each chunk holds and imports: test/build/bundle.test.ts checks the app's
// first-frame chunks from it (https://esbuild.github.io/api/#metafile).
writeFileSync("dist/bundle-meta.json", JSON.stringify(result.metafile));
