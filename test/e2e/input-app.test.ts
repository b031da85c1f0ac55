// The real app in tmux on a legacy server that asks: a form drawn from its requested schema is
// filled by keys (text, integer, enum, boolean) and accepted, the server gets exactly that answer
// with the defaults it named; a sampling request is shown (server, system prompt, messages, max
// tokens) and approved, answered by the offline model to the server only.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { startApp, type AppTerminal } from "../helpers/tmux.js";
import { ROOT, tempDir } from "../helpers/host-fixtures.js";
import { inputLegacyEntry } from "../fixtures/input-legacy-server.js";

const open: AppTerminal[] = [];
after(() => open.forEach((t) => t.close()));

test("a form filled by keys and a sampling approval", async () => {
  const cfg = join(tempDir(), "app.json");
  writeFileSync(
    cfg,
    JSON.stringify({
      mcpServers: {
        legacy: inputLegacyEntry(ROOT),
      },
      limits: { discoverTimeoutMs: 15000, connectWaitMs: 60000 },
    }),
  );
  const t = await startApp({
    args: ["--config", cfg, "--model", "offline"],
    columns: 140,
    rows: 50,
    ready: /legacy 2025-11-25 connected/,
  });
  open.push(t);
  t.submit("/pane off");
  t.submit("call ask {}");
  await t.waitFor("Server legacy asks: Who are you? CANARY-ELICIT-6b1f3d", "the form");
  await t.waitFor(/› Name\*: ▏/, "the name field focused, empty");
  await t.waitFor(/ size: 3/, "the integer default shown");
  t.keys("-l", "Ada");
  await t.waitFor(/› Name\*: Ada▏/, "the name typed");
  t.keys("Down", "BSpace", "7", "Down", "Right", "Down", "Space");
  await t.waitFor(/color: ‹ red ›[\s\S]*› agree: \[x\]/, "the choice and the box");
  t.keys("Up", "Up", "BSpace");
  t.keys("-l", "99");
  await t.waitFor(/› size: 99▏/, "the size retyped");
  t.keys("Enter");
  await t.waitFor("size: at most 10", "an answer that does not fit is refused in the form");
  t.keys("BSpace", "BSpace", "8", "Enter");
  await t.idle(
    /ask returned to me: action=accept size=8 color="red" name="Ada" agree=true/,
    "the server got the form's answer",
  );

  t.submit("call sample {}");
  const shown = await t.waitFor("asks the model for a sample (at most 50 tokens)", "the sampling approval");
  assert.match(shown, /system: Be brief CANARY-SAMPLE-SYSTEM-4c77d1/);
  assert.match(shown, /user: Summarise CANARY-SAMPLE-92e0aa/);
  t.keys("y");
  await t.idle(
    /sample returned to me: sampled \d+ chars from offline \(it saw the messages\)/,
    "the sampled text went to the server",
  );
  await t.waitFor(/sampled \d+ characters for server legacy \(sent to the server only\)/, "the notice");
});
