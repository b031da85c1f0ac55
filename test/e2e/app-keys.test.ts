// The real app at 80×24 in tmux: Tab completes a command and its argument, the side pane appears
// with its first output beside the conversation and leaves the prompt and the status bar whole,
// ^O expands the last card (what the model saw), /mcp reconnects the real demo server.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { startApp, type AppTerminal } from "../helpers/tmux.js";

const open: AppTerminal[] = [];
after(() => open.forEach((t) => t.close()));

test("80×24: completion, the pane beside the conversation with prompt and status bar whole, ^O, /mcp reconnect", async () => {
  const t = await startApp({ columns: 80, rows: 24 });
  open.push(t);
  // Each Tab waits for the typed text to be drawn: tmux may hand text and Tab to the app as one
  // chunk, which reads as pasted text, not a key.
  t.keys("-l", "/mo");
  await t.waitFor(/› \/mo\s*\n/, "typed /mo");
  t.keys("Tab");
  // /mode and /model agree as far as /mode: completed that far, both offered.
  await t.waitFor(/› \/mode\s*\n\s*\/mode {2}\/model/, "/mo completed as far as /mode and /model agree");
  t.keys("-l", " ");
  await t.waitFor(/› \/mode\s*\n\s*chat {2}structured {2}code/, "the modes offered");
  t.keys("-l", "co");
  await t.waitFor(/› \/mode co\s*\n/, "typed co");
  t.keys("Tab");
  await t.waitFor(/› \/mode code\s*\n/, "the mode completed");
  t.keys("Enter");
  await t.idle(/mode code · model offline/, "code mode");
  assert.doesNotMatch(t.screen(), /Programmatic \(/, "hidden while empty");

  t.submit('/call search_customers {"query":"Globex"}');
  const s = await t.idle(/Programmatic \(1\)/, "the pane with its first output");
  const lines = s.split("\n");
  const pane = lines.findIndex((l) => l.includes("Programmatic (1)"));
  assert.ok(lines[pane].indexOf("Programmatic") > 30, "beside the conversation");
  assert.match(s, /programmatic output goes to the side pane/, "announced in one line");
  assert.ok(
    lines.some((l) => /^›/.test(l)),
    "the prompt is whole",
  );
  const bar = lines.findIndex((l) => l.startsWith("● demo"));
  assert.ok(bar >= 0 && /mode code · model offline │/.test(lines[bar]), `the status bar is whole:\n${s}`);
  assert.ok(pane + 2 < bar, "the pane ends above the status bar");

  t.keys("C-o");
  await t.idle(/model context[^\n]*: what the model saw/, "^O expanded the last card");
  const d = t.screen(200);
  assert.match(d, /card 1 · demo · search_customers · done/);
  assert.match(d, /arguments\s*\n\s*\{\s*\n\s*"query": "Globex"/);

  t.submit("/mcp reconnect demo");
  await t.idle(/server demo: reconnected \(2026-12-01\)/, "the real server reconnected", { timeoutMs: 30_000 });
  t.submit("/mcp");
  await t.idle(/demo {2}2026-12-01 {2}connected {2}\d+ tools/, "listed connected");
  t.submit("/mcp disable demo");
  await t.idle(/● demo 2026-12-01 disabled/, "disabled in the status bar");
  t.submit("/mcp enable demo");
  await t.idle(/server demo: enabled and connected/, "enabled again", { timeoutMs: 30_000 });
  t.submit("/nosuch");
  await t.idle(/› \/nosuch\s*\n\s*unknown command \/nosuch/, "an unknown command echoed like a prompt");
});

test("80×24: ^C clears typed text (nothing armed), ^D quits on an empty prompt", async () => {
  const t = await startApp({ columns: 80, rows: 24 });
  open.push(t);
  t.keys("-l", "half a prompt");
  await t.waitFor(/› half a prompt\s*\n/, "typed");
  t.keys("C-c");
  const s = await t.waitFor((x) => /^›\s*$/m.test(x) && !x.includes("half a prompt"), "the prompt cleared");
  assert.doesNotMatch(s, /Press \^C again to quit/, "clearing text does not arm quitting");
  t.keys("C-d");
  assert.equal(await t.exitCode(), 0);
});
