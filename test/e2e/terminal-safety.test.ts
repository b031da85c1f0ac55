// Terminal safety, end to end: a server whose tool names, descriptions, text outputs, table cells,
// programmatic JSON, progress and error messages all carry escape sequences. After calling every
// tool in the real app in tmux, the pane title is unchanged, the screen was never cleared (earlier
// text still on it), and the hostile text is drawn visibly neutralized (␛, ⟨U+202E⟩).
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

test("hostile server strings never act on the terminal and are shown neutralized", async () => {
  const dir = mkdtempSync(join(tmpdir(), "prism-hostile-"));
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
  const t = await startApp({
    args: ["--config", config],
    columns: 140,
    rows: 100,
    ready: /hostile 2026-12-01 connected/,
  });
  open.push(t);
  const title = t.format("#{pane_title}");

  t.submit("/marker-before-hostile");
  await t.idle(/unknown command \/marker-before-hostile/, "the marker line");

  t.submit("/tools");
  await t.idle(/evil␛\]0;PWNED-NAME/, "the hostile tool name, neutralized");
  t.submit(
    "/call hostile_render {} --select assistant/content --select user/content --select user/structured --select programmatic/structured",
  );
  await t.idle(/end-user-text[\s\S]*Programmatic \(1\)/, "the hostile render call");
  t.submit("/call hostile_fail {}");
  await t.idle(/end-error-user/, "the isError call");
  t.submit("/call hostile_crash {}");
  await t.idle(/✗ hostile · hostile_crash failed \[server-error\]/, "the protocol error");
  t.submit("call hostile_render {}");
  const s = await t.idle(/hostile_render returned to me: assistant-text/, "the model's answer");

  if (process.env.SHOW_SCREEN) console.log(s);
  assert.equal(t.format("#{pane_title}"), title, "the pane title never changed");
  assert.match(s, /unknown command \/marker-before-hostile/, "the screen was never cleared or reset");
  // Every path drew the payload, visibly neutralized.
  for (const label of ["named-description", "user-text", "json-value", "error-user", "end-assistant-text"]) {
    const at = s.indexOf(label);
    assert.ok(at >= 0, `${label} drawn`);
  }
  const neutral = s.match(/␛\]0;PWNED-TITLE-0/g) ?? [];
  assert.ok(neutral.length >= 5, `the title payload shown neutralized in every path (${neutral.length})`);
  assert.match(s, /␛\]52;c;cHduZWQ=/);
  assert.match(s, /␛c/);
  assert.match(s, /␛\[2J/);
  assert.match(s, /␛\[6n/);
  assert.match(s, /⟨U\+009B⟩2J/);
  assert.match(s, /⟨U\+202E⟩LIVE/);
  assert.ok(!s.includes("\u202e") && !s.includes("\u009b"), "no raw BiDi override or C1 on screen");
  assert.ok(
    !/PWNED-TITLE-0(?!␇)/.test(s.replace(/␛\]0;PWNED-TITLE-0/g, "")),
    "every title payload is the neutralized one",
  );

  t.submit("/quit");
  assert.equal(await t.exitCode(), 0);
});
