// The app's first frame loads only what it draws with: the ES module chunks main.js and the app
// (commands/tui.js) import statically hold no zod, Ajv, MCP SDK or Anthropic SDK (those load
// after the first frame, with the host). Read from the esbuild metafiles `npm run build` writes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { isBuiltin } from "node:module";

interface Meta {
  outputs: Record<
    string,
    {
      entryPoint?: string;
      bytes: number;
      imports: { path: string; kind: string; external?: boolean }[];
      inputs: Record<string, unknown>;
    }
  >;
}
const META = "dist/bundle-meta.json";

function loadMetas(): { esm: Meta; worker: Meta } {
  assert.ok(existsSync(META), `${META} is missing: run npm run build`);
  return JSON.parse(readFileSync(META, "utf8")) as { esm: Meta; worker: Meta };
}
const loadMeta = () => loadMetas().esm;

/** The output chunk of an entry point and every chunk it imports statically, transitively. */
function staticClosure(meta: Meta, entryPoint: string): string[] {
  const start = Object.keys(meta.outputs).find((o) => meta.outputs[o].entryPoint === entryPoint);
  assert.ok(start, `no chunk for ${entryPoint}`);
  const seen = new Set<string>([start]);
  for (const o of seen)
    for (const i of meta.outputs[o].imports)
      if (i.kind === "import-statement" && meta.outputs[i.path]) seen.add(i.path);
  return [...seen];
}

const HEAVY =
  /^node_modules\/(zod|ajv|@modelcontextprotocol|@anthropic-ai|openai|terminal-image|jpeg-js)\/|^dist\/protocol\/(schemas|json-schema)\.js$|^dist\/host\/host\.js$/;

test("the ES module chunks before the first frame hold none of them", () => {
  const meta = loadMeta();
  for (const entry of ["dist/cli/main.js", "dist/cli/commands/tui.js", "dist/cli/commands/tui-render.js"]) {
    const inputs = staticClosure(meta, entry).flatMap((o) => Object.keys(meta.outputs[o].inputs));
    assert.ok(inputs.length > 0);
    assert.deepEqual(
      inputs.filter((i) => HEAVY.test(i)),
      [],
      `${entry} loads these before the first frame`,
    );
  }
});

test("the launcher's own chunk stays small (subcommands load on demand)", () => {
  const meta = loadMeta();
  const bytes = staticClosure(meta, "dist/cli/main.js").reduce((n, o) => n + meta.outputs[o].bytes, 0);
  // What every subcommand needs before its own chunk loads: routing, the one output sanitizer,
  // the process-group signal handling, the quiet exit on a closed stdout, and the word wrap of
  // text on a terminal (ui/format.ts wrapText, ~1 kB), and moving common options typed before the
  // subcommand after it (subcommandFirst, ~0.6 kB), and the XDG paths module that places node's
  // compile cache before anything else loads (~1.4 kB) (~14.9 kB minified).
  assert.ok(bytes < 15_500, `main.js and its static imports are ${bytes} bytes`);
});

test("the host chunk, loaded after the first frame, does hold the SDK and zod (the split is where it should be)", () => {
  const meta = loadMeta();
  const host = staticClosure(meta, "dist/cli/start-host.js").flatMap((o) => Object.keys(meta.outputs[o].inputs));
  assert.ok(host.some((i) => i.startsWith("node_modules/@modelcontextprotocol/sdk/")));
  assert.ok(host.some((i) => i.startsWith("node_modules/zod/")));
});

test("image-worker.cjs, the drawing worker, holds every decoder and needs nothing outside itself", () => {
  const { worker, esm } = loadMetas();
  const [out] = Object.keys(worker.outputs).filter((o) => o.endsWith("image-worker.cjs"));
  assert.ok(out, "no image-worker.cjs in the metafile");
  const inputs = Object.keys(worker.outputs[out].inputs);
  for (const m of [
    "dist/ui/image-decode.js",
    "dist/ui/image-gif.js",
    "dist/ui/image-jpeg.js",
    "dist/protocol/image-header.js",
  ])
    assert.ok(inputs.includes(m), m);
  assert.ok(inputs.some((i) => i.startsWith("node_modules/jpeg-js/")));
  assert.deepEqual(
    worker.outputs[out].imports.filter((i) => !isBuiltin(i.path)),
    [],
  );
  // No decoder (and no terminal-image/jimp) on the app's side: they run only in the worker (the
  // ES module side keeps jpeg-js's encoder for the demo server's JPEGs).
  for (const [meta, banned] of [
    [esm, /^node_modules\/(jimp|@jimp|terminal-image)\/|^dist\/ui\/image-(decode|gif|jpeg)\.js$/],
  ] as const) {
    const all = Object.values(meta.outputs).flatMap((o) => Object.keys(o.inputs));
    assert.deepEqual(
      all.filter((i) => banned.test(i)),
      [],
    );
  }
});
