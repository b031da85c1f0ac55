// Decoders and big media in the real built app (dist/bundle, under tmux): every image the bundle
// could not draw before (16-bit, interlaced, 2-bit palette PNG, GIF, a JPEG whose frame header
// lies 400 KB in) is drawn as half blocks; each untrustworthy one (two IHDRs, a GIF frame of
// 400 MP behind a 16×16 screen, a JPEG hiding 1.2 GP) gets one line naming the rule; a 3.6 MB
// screenshot is drawn; the chat goes on after all of them.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, startApp, type AppTerminal } from "../helpers/tmux.js";

const open: AppTerminal[] = [];
const dirs: string[] = [];
after(() => {
  open.forEach((t) => t.close());
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});

test("the bundled app draws every image format, refuses untrustworthy headers with one line, and draws a 3.6 MB screenshot", async () => {
  const dir = mkdtempSync(join(tmpdir(), "prism-images-"));
  dirs.push(dir);
  const config = join(dir, "config.json");
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: {
        images: {
          command: process.execPath,
          args: ["--import", "tsx", join(ROOT, "test/fixtures/hostile-image-server.ts")],
          cwd: ROOT,
        },
      },
      limits: { callTimeoutMs: 60_000 },
    }),
  );
  const t = await startApp({
    args: ["--config", config, "--yes"],
    columns: 200,
    rows: 60,
    ready: /images 2026-12-01 connected/,
  });
  open.push(t);
  t.submit("/pane off"); // the side pane off: the conversation gets the full width for the one-line refusals

  // Drawn: half-block rows (a row of ▄ cells the width of the picture), then its labelled line.
  for (const [tool, label] of [
    ["png16", /🖼 image\/png .* 480×240/],
    ["png_interlaced", /🖼 image\/png .* 480×240/],
    ["png_palette_2bit", /🖼 image\/png .* 480×240/],
    ["gif", /🖼 image\/gif .* 480×240/],
    ["jpeg_big_app", /🖼 image\/jpeg .* 64×48/],
    ["screenshot", /🖼 image\/png 3\.4 MB 1096×1096/],
  ] as const) {
    t.submit("/clear");
    t.submit(`/call ${tool} {}`);
    const s = await t.idle(new RegExp(`${tool}[\\s\\S]*▄{20}[\\s\\S]*${label.source}`), `${tool} drawn`, {
      timeoutMs: 60_000,
    });
    assert.doesNotMatch(s.slice(s.lastIndexOf(`› /call ${tool}`)), /could not be decoded|__dirname/, tool);
  }
  // Refused, one line each, with the rule; nothing drawn.
  for (const [tool, rule, why] of [
    ["double_ihdr", "malformed-content", /PNG has two IHDR chunks/],
    ["gif_huge_frame", "image-too-large", /GIF header claims 20000×20000 pixels/],
    ["jpeg_hidden_huge", "image-too-large", /JPEG header claims 40000×30000 pixels/],
  ] as const) {
    t.submit("/clear");
    t.submit(`/call ${tool} {}`);
    const s = await t.idle(new RegExp(`✗ images · ${tool} failed \\[${rule}\\]`), `${tool} refused`, {
      timeoutMs: 60_000,
    });
    const own = s.slice(s.lastIndexOf(`› /call ${tool}`));
    assert.match(own, why);
    assert.doesNotMatch(own, /▄{20}/, `${tool}: nothing drawn`);
  }
  // The chat goes on.
  t.submit("/clear");
  t.submit("call gif {}");
  await t.idle(/gif returned to me: gif: an image was shown to the user/, "the model's answer after all of them", {
    timeoutMs: 60_000,
  });
  t.submit("/quit");
  assert.equal(await t.exitCode(), 0);
});
