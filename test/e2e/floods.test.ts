// Floods through the real app in tmux: a tool that sends 50,000 progress notifications before it
// answers, and a model that streams a 100 KB reply in thousands of deltas. The call completes and
// the reply is drawn whole, in order, while keystrokes typed meanwhile echo in the prompt.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, startApp, type AppTerminal } from "../helpers/tmux.js";
import { FakeAnthropic } from "../helpers/fake-anthropic.js";

const open: AppTerminal[] = [];
const dirs: string[] = [];
const fakes: FakeAnthropic[] = [];
after(async () => {
  open.forEach((t) => t.close());
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
  for (const f of fakes) await f.stop();
});

function hostileConfig(): string {
  const dir = mkdtempSync(join(tmpdir(), "prism-floods-"));
  dirs.push(dir);
  const config = join(dir, "config.json");
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: {
        hostile: {
          command: process.execPath,
          args: ["--import", "tsx", join(ROOT, "test/fixtures/hostile-render-server.ts")],
          cwd: ROOT,
        },
      },
    }),
  );
  return config;
}

test("50,000 progress notifications: the call completes and typed keys echo meanwhile", async () => {
  const t = await startApp({
    args: ["--config", hostileConfig()],
    columns: 120,
    rows: 40,
    ready: /hostile 2026-12-01 connected/,
  });
  open.push(t);
  t.submit('/call flood_progress {"count": 50000, "ms": 4000}');
  await t.waitFor(/\d+\/50000 step \d+/, "the flood's progress on the card");
  t.keys("-l", "typed-during-the-flood");
  const during = await t.waitFor(/typed-during-the-flood/, "the keys echoed in the prompt");
  assert.match(during, /\d+\/50000 step \d+/, "echoed while the call was still running");
  const done = await t.idle(
    /✓ hostile · flood_progress[\s\S]*model sees: flooded 50000 progress notifications/,
    "the call's card, done",
    { timeoutMs: 60_000 },
  );
  assert.match(done, /typed-during-the-flood/, "the typed text is still in the prompt");
  t.keys("C-u");
  t.submit("/quit");
  assert.equal(await t.exitCode(), 0);
});

test("a 100 KB reply streamed in thousands of deltas is drawn whole and in order; keys echo meanwhile", async () => {
  const lines = Array.from(
    { length: 1300 },
    (_, i) => `line ${String(i + 1).padStart(4, "0")} of the flood ${"·".repeat(60)}`,
  );
  const text = lines.join("\n");
  assert.ok(text.length >= 100_000);
  const fake = await new FakeAnthropic().start();
  fakes.push(fake);
  fake.script({ kind: "reply", blocks: [{ type: "text", text }], deltaChars: 25, paceMs: 2 });
  const t = await startApp({
    args: ["--config", hostileConfig(), "--model", "anthropic:fake-model"],
    env: { ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: fake.url },
    columns: 200, // a 135-column conversation: one screen row per line, so 1,300 lines fit the 2,000 rows of scrollback
    rows: 40,
    ready: /hostile 2026-12-01 connected/,
  });
  open.push(t);
  t.submit("stream me a flood");
  await t.waitFor(/line 0\d\d\d of the flood/, "the reply streaming");
  t.keys("-l", "typed-during-the-stream");
  await t.waitFor(/typed-during-the-stream/, "the keys echoed in the prompt");
  const end = await t.idle(/line 1300 of the flood/, "the whole reply", { timeoutMs: 90_000, history: 1900 });
  // Every line drawn once, in order (the scrollback holds what left the screen).
  const drawn = end
    .split("\n")
    .map((l) => l.match(/line (\d{4}) of the flood/)?.[1])
    .filter((n): n is string => n !== undefined)
    .map(Number);
  const lastSeen = drawn.slice(-1300);
  const seen = new Set(drawn);
  const missing = lines.map((_, i) => i + 1).filter((n) => !seen.has(n));
  if (process.env.SHOW_SCREEN && missing.length) console.log(end);
  assert.equal(
    lastSeen.length,
    1300,
    `1300 lines drawn (saw ${drawn.length}; missing ${missing.slice(0, 10).join(", ")})`,
  );
  lastSeen.forEach((n, i) => assert.equal(n, i + 1, `line ${i + 1} in its place`));
  t.keys("C-u");
  t.submit("/quit");
  assert.equal(await t.exitCode(), 0);
});
