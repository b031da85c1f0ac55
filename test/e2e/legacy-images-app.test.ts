// A legacy server's image goes to the model (content → model), and the person must be able to
// see it too: /show (Ctrl+O) draws it under "model context". It used to stay "⧗ rendering image…"
// for ever: the expanded card was moved to the scrollback before its image had started rendering.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { startApp, type AppTerminal } from "../helpers/tmux.js";
import { tempDir } from "../helpers/host-fixtures.js";
import { EVERYTHING } from "../helpers/real-servers.js";

const open: AppTerminal[] = [];
after(() => open.forEach((t) => t.close()));

test("server-everything's get-tiny-image: /show and Ctrl+O draw the image the model received (80×24)", async () => {
  const dir = tempDir();
  const cfg = join(dir, "app.json");
  writeFileSync(
    cfg,
    JSON.stringify({
      mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } },
      limits: { discoverTimeoutMs: 15000 },
    }),
  );
  const t = await startApp({
    args: ["--config", cfg, "--yes"],
    columns: 80,
    rows: 24,
    ready: /everything 2025-11-25 connected/,
  });
  open.push(t);
  await t.send("/pane off");
  t.submit("/call get-tiny-image {}");
  await t.waitFor(/✓ everything · get-tiny-image/, "the card");
  const drawn = /model context[^\n]*\n[\s\S]*🖼 image\/png [\d.]+ k?B \d+×\d+/;
  t.submit("/show");
  const s = await t.waitFor(drawn, "the image drawn under model context, with its size", { history: 200 });
  assert.doesNotMatch(s.slice(s.lastIndexOf("model context")), /rendering image/);
  // Ctrl+O, the same card again: drawn a second time, neither left rendering.
  const label = /🖼 image\/png [\d.]+ k?B \d+×\d+/g;
  t.keys("C-o");
  const again = await t.waitFor((x) => (x.match(label) ?? []).length >= 2, "Ctrl+O draws it too", { history: 400 });
  assert.doesNotMatch(again, /rendering image/);
  t.submit("/quit");
  assert.equal(await t.exitCode(), 0);
});
