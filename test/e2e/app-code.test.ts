// Code mode in the real app under tmux: a fenced ```js block PASTED (bracketed paste, as a terminal
// sends it) after a typed `/run ` runs for the person; pasted alone as the prompt in code mode, the
// offline model runs it through run_code. Each inner call appears in the Programmatic pane; the
// run_code card shows what the model received, and the pages the script read stay out of it.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { layoutFor } from "../../src/ui/App.js";
import { leftColumn, startApp, type AppTerminal } from "../helpers/tmux.js";

const open: AppTerminal[] = [];
after(() => open.forEach((t) => t.close()));

const SCRIPT = [
  "```js",
  "let cursor; const counts = {}; let pages = 0;",
  "do {",
  '  const p = await tools.search_customers({ query: "enterprise", limit: 50, ...(cursor ? { cursor } : {}) });',
  "  pages++; for (const c of p.items) counts[c.region] = (counts[c.region] ?? 0) + 1;",
  "  cursor = p.nextCursor;",
  "} while (cursor);",
  'console.log("pages", pages);',
  "return counts;",
  "```",
].join("\n");

function paste(t: AppTerminal, text: string): void {
  t.tmux("set-buffer", "-b", "script", "--", text);
  // -p: bracketed paste (the app turns it on), as a terminal sends a paste.
  t.tmux("paste-buffer", "-p", "-d", "-b", "script", "-t", "e2e");
}

test("a pasted fenced block runs: after /run for the person, as the prompt in code mode through run_code", async () => {
  const t = await startApp({ columns: 120, rows: 50 });
  open.push(t);
  t.keys("-l", "/run ");
  await t.waitFor(/› \/run\s*\n/, "typed /run");
  paste(t, SCRIPT);
  await t.waitFor(/return counts;[^\n]*\n\s*```/, "the pasted block in the prompt");
  t.keys("Enter");
  let s = await t.idle(/pages 4/, "the /run value and its console output", { timeoutMs: 60_000 });
  assert.match(s, /"NA": \d+/);
  assert.match(s, /Programmatic \(4\)/, "each inner call's output in the Programmatic pane");

  t.submit("/mode code");
  await t.idle(/mode code · model offline/, "code mode");
  paste(t, `count enterprise customers per region\n${SCRIPT}`);
  await t.waitFor(/return counts;[^\n]*\n\s*```/, "the pasted prompt");
  t.keys("Enter");
  s = await t.idle(/run_code returned to me/, "the offline model's answer from run_code", { timeoutMs: 60_000 });
  assert.match(s, /Programmatic \(8\)/, "the script's inner calls in the pane too");
  const history = t.screen(3000);
  const main = layoutFor(120, true).main;
  const turn = leftColumn(history.slice(history.lastIndexOf("count enterprise customers per region")), main);
  // The card: the script, each inner call with its requestedOutputs and where each output went,
  // then what the model received; the offline model's answer repeats only that.
  assert.match(turn, /▸ script\n\s+let cursor;/);
  assert.match(
    turn,
    /requested: programmatic\/structured · #\d+\n\s+→ model receipt · user — · programmatic [\d.]+ k?B · app —/,
  );
  assert.match(turn, /◂ the model received \(\d+ characters\)\n\s+\{"value":\{"APAC":\d+/);
  assert.match(turn, /run_code returned to me:\s*\{"value":\{"APAC":\d+/);
  // (The script itself names nextCursor; the records it read never reach the conversation.)
  for (const leak of ["customerId", "cust_", "displayName", "provenance"])
    assert.ok(!turn.includes(leak), `${leak} reached the conversation`);
  t.submit("/quit");
  assert.equal(await t.exitCode(), 0);
});
