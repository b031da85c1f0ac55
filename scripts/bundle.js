// Bundles the compiled CLI (dist/cli/) into dist/bundle/ with esbuild: ES modules (main.js), one
// chunk per subcommand, shared code split out. Loading a few large files instead of hundreds of
// small modules is most of a start-up (Ink alone pulls in ~300 files); node's compile cache
// (bin/mcp-prism.js, Node >= 22.1) then spares their compilation on the next start.
// dist/bundle sits two levels below the root like dist/<layer>/, so the import.meta.url-relative
// paths (bin/, package.json, src/demo/data) resolve the same.
// For bench/startup.ts: PRISM_BUNDLE_OUT=DIR writes the bundle there (a directory two levels below
// a root that links bin/, package.json and src/).
import { build } from "esbuild";
import { copyFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, join } from "node:path";
import { BUNDLE_PATCHES, patchPlugin } from "./bundle-patches.js";

const COMMON = {
  bundle: true,
  platform: "node",
  target: "node20",
  // Only loaded by Ink's development devtools hook, never in production.
  external: ["react-devtools-core"],
  // The launcher runs React/Ink in production mode; fixing it here drops their development builds.
  define: { "process.env.NODE_ENV": '"production"' },
  // Less source for node to read and pre-parse on every start (~10 ms off the UI's load); the
  // source maps let `node --enable-source-maps` name the original lines in a stack trace.
  // PRISM_NO_MINIFY=1 keeps names and lines readable for a CPU profile of the start-up.
  minify: !process.env.PRISM_NO_MINIFY,
  sourcemap: true,
  logLevel: "warning",
  legalComments: "none",
  metafile: true,
};

const OUT = process.env.PRISM_BUNDLE_OUT || "dist/bundle";
const applied = new Map();
const esm = await build({
  ...COMMON,
  entryPoints: ["dist/cli/main.js"],
  outdir: OUT,
  splitting: true,
  format: "esm",
  // CommonJS dependencies inside an ESM bundle still call require().
  banner: {
    js: "import { createRequire as __prismRequire } from 'node:module'; const require = __prismRequire(import.meta.url);",
  },
  plugins: [patchPlugin(BUNDLE_PATCHES, applied)],
});

// The image decoding worker (src/ui/image-pool.ts starts it from ./image-worker.cjs next to the
// chunk that asks): its own CommonJS file with its decoders (jpeg-js included), off the app's path.
const worker = await build({
  ...COMMON,
  entryPoints: ["dist/ui/image-worker.js"],
  outfile: join(OUT, "image-worker.cjs"),
  format: "cjs",
});

// The code sandbox's worker (src/code/runner.ts starts ./sandbox-worker.cjs next to the chunk that
// asks) with QuickJS's loader, and the QuickJS .wasm beside it as quickjs.wasm (runner.ts looks
// there first): the worker reads it by path, so the bundle needs node_modules for neither.
const sandbox = await build({
  ...COMMON,
  entryPoints: ["dist/code/sandbox-worker.js"],
  outfile: join(OUT, "sandbox-worker.cjs"),
  format: "cjs",
  // QuickJS's ES module loader asks import.meta.url for its own place (createRequire).
  define: { ...COMMON.define, "import.meta.url": "__prismImportMetaUrl" },
  banner: { js: "var __prismImportMetaUrl=require('node:url').pathToFileURL(__filename).href;" },
});
copyFileSync(
  createRequire(import.meta.url).resolve("@jitl/quickjs-wasmfile-release-sync/wasm"),
  join(OUT, "quickjs.wasm"),
);
// The App View's browser code (src/view/page: the host page with the real MCP Apps AppBridge) and
// the demo dashboard App (src/demo/app: the App SDK), from their TypeScript sources, into
// dist/view-assets/ (its own folder: the chunk cleanup below does not see it). Browser-only
// packages are devDependencies: nothing here is loaded by node.
await build({
  entryPoints: { "host-page": "src/view/page/host-page.ts", "dashboard-app": "src/demo/app/dashboard-app.ts" },
  outdir: process.env.PRISM_VIEW_ASSETS_OUT || "dist/view-assets",
  bundle: true,
  platform: "browser",
  format: "esm",
  target: "es2022",
  minify: true,
  legalComments: "none",
  logLevel: "warning",
});

const unused = BUNDLE_PATCHES.filter((p) => !applied.get(p)).map((p) => p.name);
if (unused.length)
  throw new Error(`bundle patches found nothing to patch (a dependency changed?): ${unused.join("; ")}`);
// Chunk names carry content hashes: drop the previous builds' chunks once the new ones are written.
const current = new Set([esm, worker, sandbox].flatMap((r) => Object.keys(r.metafile.outputs)).map((f) => basename(f)));
current.add("quickjs.wasm");
for (const f of readdirSync(OUT)) if (!current.has(f)) rmSync(join(OUT, f), { force: true });
// Which modules each output holds and imports: test/build/bundle.test.ts checks the app's
// chunks from it (https://esbuild.github.io/api/#metafile).
writeFileSync(
  join(OUT, "..", "bundle-meta.json"),
  JSON.stringify({ esm: esm.metafile, worker: worker.metafile, sandbox: sandbox.metafile }),
);
