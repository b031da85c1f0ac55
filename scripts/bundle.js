// Bundles the compiled CLI (dist/cli/) into dist/bundle/ with esbuild:
// - ES modules (main.js): one chunk per subcommand, shared code split out.
//   Loading a few large files instead of hundreds of small modules is most of a start-up (Ink
//   alone pulls in ~300 files).
// - tui.cjs: the chat app's first-frame code (src/cli/commands/tui.ts, tui-render.ts and what they
//   import statically) as one CommonJS file, which src/cli/cached-tui.ts runs with a V8 code
//   cache (ES modules take none on node 20). Its dynamic imports of what loads after the first
//   frame (the host, the Anthropic SDK, -p) stay in the ES module chunks: they
//   are rewritten to `esmImp(...)`, the loader's stand-in for import() (src/cli/esm-imports.ts).
// dist/bundle sits two levels below the root like dist/<layer>/, so the import.meta.url-relative
// paths (bin/, package.json, src/demo/data) resolve the same.
// For bench/startup.ts, which measures each start-up piece with and without it:
// PRISM_BUNDLE_OUT=DIR writes the bundle there (a directory two levels below a root that links
// bin/, package.json and src/), and PRISM_BUNDLE_WITHOUT=a,b leaves pieces out: "tui-cjs" (the
// first-frame CommonJS bundle: main() then runs the app's ES module chunks) or a patch's id
// (scripts/bundle-patches.js).
import { build } from "esbuild";
import { createHash } from "node:crypto";
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
const WITHOUT = new Set((process.env.PRISM_BUNDLE_WITHOUT ?? "").split(",").filter(Boolean));
const PATCHES = BUNDLE_PATCHES.filter((p) => !WITHOUT.has(p.id));
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
  plugins: [patchPlugin(PATCHES, applied)],
});

/** What tui.cjs leaves to the ES module chunks: exactly the keys of ESM_IMPORTS in src/cli/esm-imports.ts. */
const ESM_SIDE = [
  "../start-host.js",
  "./oneshot.js",
  "@anthropic-ai/sdk",
  "openai",
  "../view/session.js",
  "../../ui/session-restore.js",
];
const COMMANDS_DIR = /[\\/]dist[\\/]cli[\\/]commands$/;
const UI_DIR = /[\\/]dist[\\/]ui$/;
const esmSide = {
  name: "mcp-prism-esm-side",
  setup(b) {
    b.onResolve({ filter: /^(\.\.\/start-host|\.\/oneshot)\.js$/ }, (a) =>
      COMMANDS_DIR.test(a.resolveDir) ? { path: a.path, external: true } : undefined,
    );
    b.onResolve({ filter: /^@anthropic-ai\/sdk$/ }, (a) => ({ path: a.path, external: true }));
    b.onResolve({ filter: /^openai$/ }, (a) => ({ path: a.path, external: true }));
    // A saved session read back (--continue, --resume, /resume): its checks use zod.
    b.onResolve({ filter: /^\.\.\/\.\.\/ui\/session-restore\.js$/ }, (a) =>
      COMMANDS_DIR.test(a.resolveDir) ? { path: a.path, external: true } : undefined,
    );
    // The App View host (src/ui/view-link.ts loads it on /view), off the first frame.
    b.onResolve({ filter: /^\.\.\/view\/session\.js$/ }, (a) =>
      UI_DIR.test(a.resolveDir) ? { path: a.path, external: true } : undefined,
    );
  },
};
const withAppCjs = !WITHOUT.has("tui-cjs");
const cjs = !withAppCjs
  ? { outputFiles: [], metafile: { inputs: {}, outputs: {} } }
  : await build({
      ...COMMON,
      entryPoints: ["dist/cli/commands/tui.js"],
      outfile: join(OUT, "tui.cjs"),
      format: "cjs",
      write: false,
      define: { ...COMMON.define, "import.meta.url": "__prismImportMetaUrl" },
      banner: { js: "var __prismImportMetaUrl=require('node:url').pathToFileURL(__filename).href;" },
      plugins: [esmSide, patchPlugin(PATCHES, applied)],
    });
for (const out of cjs.outputFiles) {
  let text = out.text;
  if (out.path.endsWith(".cjs")) {
    if (text.includes("esmImp")) throw new Error("tui.cjs already uses the name esmImp");
    // Same length as `import`, so the source map's columns still hold.
    for (const s of ESM_SIDE) text = text.replaceAll(`import(${JSON.stringify(s)})`, `esmImp(${JSON.stringify(s)})`);
    const left = text.match(/\bimport\s*\(/g);
    if (left)
      throw new Error(
        `tui.cjs keeps ${left.length} dynamic import(s) no loader can serve: add them to ESM_SIDE and ESM_IMPORTS`,
      );
    // The code cache's key (src/cli/code-cache.ts): V8 itself only compares the source's length.
    text += `\n// mcp-prism-build ${createHash("sha256").update(text).digest("hex").slice(0, 32)}\n`;
  }
  writeFileSync(out.path, text);
}

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

const unused = PATCHES.filter((p) => !applied.get(p)).map((p) => p.name);
if (unused.length)
  throw new Error(`bundle patches found nothing to patch (a dependency changed?): ${unused.join("; ")}`);
// Chunk names carry content hashes: drop the previous builds' chunks once the new ones are written.
const current = new Set(
  [esm, cjs, worker, sandbox].flatMap((r) => Object.keys(r.metafile.outputs)).map((f) => basename(f)),
);
current.add("quickjs.wasm");
for (const f of readdirSync(OUT)) if (!current.has(f)) rmSync(join(OUT, f), { force: true });
// Which modules each output holds and imports: test/build/bundle.test.ts checks the app's
// first-frame code from it (https://esbuild.github.io/api/#metafile).
writeFileSync(
  join(OUT, "..", "bundle-meta.json"),
  JSON.stringify({ esm: esm.metafile, cjs: cjs.metafile, worker: worker.metafile, sandbox: sandbox.metafile }),
);
