// The Ink fix in scripts/bundle-patches.js: after a frame taller than the terminal (Ink clears and
// rewrites the screen), the next frame must not erase the line above the live area. A small Ink
// program is bundled with and without the patch and run in a real terminal (tmux, 40×10): static
// lines, a 15-line frame, a 3-line frame, a 2-line frame. Unpatched, Ink 6.8 loses the last
// static line; patched, every static line stays on the screen.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { BUNDLE_PATCHES, patchPlugin, type BundlePatch } from "../../scripts/bundle-patches.js";

const PROGRAM = `
import React from "react";
import { render, Box, Static, Text } from "ink";
const h = React.createElement;
const sleep = (n) => new Promise((r) => setTimeout(r, n));
const items = ["static-1", "static-2", "static-3"];
const frame = (name, n) => h(Box, { flexDirection: "column" },
  h(Static, { items }, (s) => h(Text, { key: s }, s)),
  ...Array.from({ length: n }, (_, i) => h(Text, { key: i }, name + "-" + i)));
const app = render(frame("tall", 15), { patchConsole: false, exitOnCtrlC: false });
await sleep(300);
app.rerender(frame("short", 3));
await sleep(300);
app.rerender(frame("last", 2));
await sleep(300);
process.stdout.write("\\n[done]");
await sleep(60000);
`;

// The app's /clear and resize redraw: screen and scrollback cleared through Ink's own write, then
// <Static> drawn anew (a new key), then a frame as tall as the terminal, which makes Ink write
// every static line it kept.
const CLEARED_PROGRAM = `
import React from "react";
import { render, Box, Static, Text, useStdout } from "ink";
const h = React.createElement;
const sleep = (n) => new Promise((r) => setTimeout(r, n));
let write;
function Grab() { write = useStdout().write; return null; }
const frame = (items, name, n) => h(Box, { flexDirection: "column" }, h(Grab),
  h(Static, { key: items[0], items }, (s) => h(Text, { key: s }, s)),
  ...Array.from({ length: n }, (_, i) => h(Text, { key: i }, name + "-" + i)));
const app = render(frame(["old-1", "old-2"], "first", 2), { patchConsole: false, exitOnCtrlC: false });
await sleep(300);
write("\\x1b[2J\\x1b[3J\\x1b[H");
app.rerender(frame(["new-1"], "after", 2));
await sleep(300);
app.rerender(frame(["new-1"], "tall", 12));
await sleep(300);
app.rerender(frame(["new-1"], "last", 2));
await sleep(300);
process.stdout.write("\\n[done]");
await sleep(60000);
`;

/** Bundles `program` into dir/name/program.js (split: Ink's devtools chunk, never loaded, stays apart). */
async function bundle(
  dir: string,
  name: string,
  patches: BundlePatch[],
  program = PROGRAM,
): Promise<Map<BundlePatch, number>> {
  writeFileSync(join(dir, "program.mjs"), program);
  const applied = new Map<BundlePatch, number>();
  await build({
    entryPoints: [join(dir, "program.mjs")],
    outdir: join(dir, name),
    outExtension: { ".js": ".mjs" },
    splitting: true,
    bundle: true,
    format: "esm",
    platform: "node",
    nodePaths: [join(process.cwd(), "node_modules")],
    external: ["react-devtools-core"],
    define: { "process.env.NODE_ENV": '"production"' },
    banner: { js: "import { createRequire as __r } from 'node:module'; const require = __r(import.meta.url);" },
    plugins: [patchPlugin(patches, applied)],
    logLevel: "silent",
  });
  return applied;
}

/** Runs a bundled program in tmux (40×10) and returns the screen (and `history` lines above it) once it printed [done]. */
async function screenOf(file: string, history = 0): Promise<string> {
  const socket = `prism-ink-${process.pid}-${Date.now().toString(36)}`;
  const tmux = (...a: string[]) => execFileSync("tmux", ["-L", socket, ...a], { encoding: "utf8" });
  const env = { ...process.env };
  delete env.CI;
  tmux(
    "-f",
    "/dev/null",
    "new-session",
    "-d",
    "-s",
    "t",
    "-x",
    "40",
    "-y",
    "10",
    `env -u CI ${JSON.stringify(process.execPath)} ${JSON.stringify(file)}`,
  );
  const socketPath = tmux("display-message", "-p", "#{socket_path}").trim();
  try {
    const end = Date.now() + 20_000;
    for (;;) {
      const screen = tmux("capture-pane", "-p", "-t", "t", ...(history ? ["-S", `-${history}`] : []));
      if (screen.includes("[done]")) return screen;
      if (Date.now() > end) throw new Error(`no [done] within 20 s; screen:\n${screen}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    spawnSync("tmux", ["-L", socket, "kill-server"]);
    rmSync(socketPath, { force: true });
  }
}

test("after a frame taller than the terminal, the next frame erases only what Ink drew", async (t) => {
  assert.equal(spawnSync("tmux", ["-V"]).status, 0, "tmux is needed");
  const dir = mkdtempSync(join(tmpdir(), "mcp-prism-ink-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const patch = BUNDLE_PATCHES.find((p) => p.id === "ink-clear-rewrite") as BundlePatch;
  const applied = await bundle(dir, "patched", [patch]);
  assert.equal(applied.get(patch), 1, "the patch did not apply to Ink");
  await bundle(dir, "unpatched", []);

  const patched = await screenOf(join(dir, "patched", "program.mjs"));
  assert.match(patched, /static-1\nstatic-2\nstatic-3\nlast-0\nlast-1\n/, patched);
  // The bug the patch fixes, as the installed Ink has it (the check above is not vacuous).
  const unpatched = await screenOf(join(dir, "unpatched", "program.mjs"));
  assert.match(unpatched, /last-0/, unpatched);
  assert.doesNotMatch(unpatched, /static-3\nlast-0/, unpatched);
});

test("after the app clears the scrollback, a tall frame does not bring the cleared static lines back", async (t) => {
  assert.equal(spawnSync("tmux", ["-V"]).status, 0, "tmux is needed");
  const dir = mkdtempSync(join(tmpdir(), "mcp-prism-ink-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const patch = BUNDLE_PATCHES.find((p) => p.id === "ink-static-after-clear") as BundlePatch;
  const applied = await bundle(dir, "patched", [patch], CLEARED_PROGRAM);
  assert.equal(applied.get(patch), 1, "the patch did not apply to Ink");
  const patched = await screenOf(join(dir, "patched", "program.mjs"), 100);
  assert.match(patched, /new-1/, patched);
  assert.doesNotMatch(patched, /old-1/, patched);
  await bundle(dir, "unpatched", [], CLEARED_PROGRAM);
  const unpatched = await screenOf(join(dir, "unpatched", "program.mjs"), 100);
  assert.match(unpatched, /old-1\nold-2\nnew-1/, unpatched);
});

test("two patches on one file both apply (esbuild answers one onLoad per file)", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "mcp-prism-ink-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const inkPatches = BUNDLE_PATCHES.filter((p) => p.file.test("/x/node_modules/ink/build/ink.js"));
  assert.ok(inkPatches.length >= 2);
  const applied = await bundle(dir, "both", inkPatches);
  for (const p of inkPatches) assert.equal(applied.get(p), 1, p.id);
});
