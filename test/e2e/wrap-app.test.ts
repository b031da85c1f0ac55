// Wrapping in the real built app and CLI under tmux. At 80×24: /help's continuation rows under
// its description column, /tools with every variant (no …), no row starting with a stray space;
// the CLI's text wrapped to the terminal. At 80×40 in app mode: the pane leaves the prompt and
// the status bar whole, and the card's elapsed time is whole.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { startApp, type AppTerminal } from "../helpers/tmux.js";

const open: AppTerminal[] = [];
after(() => open.forEach((t) => t.close()));

const lead = (row: string) => row.match(/^ */)![0].length;

test("80×24: /help wraps under its description column, /tools shows every variant", async () => {
  const t = await startApp({ columns: 80, rows: 24 });
  open.push(t);
  t.submit("/help");
  const help = await t.idle(/\/quit\s+leave mcp-prism/, "/help", { history: 300 });
  const rows = help.split("\n");
  const first = rows.findIndex((r) => r.startsWith("/help "));
  const col = rows[first].search(/ {2}\S/) + 2;
  let continued = 0;
  for (const r of rows.slice(
    first,
    rows.findIndex((x, i) => i > first && x === ""),
  )) {
    if (!r.startsWith(" ")) continue;
    assert.equal(lead(r), col, `a continuation row under the description column (${col}): ${JSON.stringify(r)}`);
    continued++;
  }
  assert.ok(continued > 3, "descriptions wrap at 80 columns");
  t.submit("/clear");
  t.submit("/tools");
  const tools = await t.idle(/toggle_extras[\s\S]*the lists change\./, "/tools", { history: 300 });
  const block = tools.slice(tools.indexOf("› /tools"));
  const joined = block
    .split("\n")
    .map((r) => r.trim())
    .join(" ");
  assert.match(
    joined,
    /search_customers \(demo, 2026-12-01\) → assistant\/content, assistant\/structured, programmatic\/structured, user\/structured Search/,
  );
  assert.doesNotMatch(block, /…\s*$/m, "no row cut with …");
  for (const r of block.split("\n"))
    assert.doesNotMatch(r, /^ (?! )/, `no row starts with a single stray space: ${JSON.stringify(r)}`);
  t.submit("/quit");
  assert.equal(await t.exitCode(), 0);
});

test("80×24: the CLI's text is wrapped to the terminal, rows indented under their text", async () => {
  const t = await startApp({ args: ["help", "call"], columns: 80, rows: 24, ready: /mcp-prism call TOOL/ });
  open.push(t);
  assert.equal(await t.exitCode(), 0);
  const s = t.screen(300);
  for (const r of s.split("\n")) {
    assert.ok(r.length <= 80, r);
    assert.doesNotMatch(r, /^ (?! )/, `no row starts with a single stray space: ${JSON.stringify(r)}`);
  }
  // Lines longer than 80 columns in a pipe, wrapped here at spaces, continuation rows indented.
  assert.match(
    s,
    /^Usage: mcp-prism call TOOL \[--args JSON\] \[--select audience\/format\]\.\.\. \[--rows\nN\] \[--profile P\]/m,
  );
  assert.match(
    s,
    /^Common options:\n {2}--config FILE {2}--server NAME {2}--mode chat\|structured\|code\|app\|minimal\n/m,
  );
  assert.match(
    s
      .split("\n")
      .map((r) => r.trim())
      .join(" "),
    /One call; shows what the model, the user, program logic and the App view each received \(--rows N: table rows shown\)\./,
  );
});

test("80×40 app mode: the pane leaves the prompt and the status bar whole, the elapsed time is whole", async () => {
  const t = await startApp({ columns: 80, rows: 40 });
  open.push(t);
  t.submit("/mode app");
  t.submit("search customers Globex");
  const s = await t.idle(/only its text reached\s+me\./, "the reply", { timeoutMs: 60_000 });
  const rows = s.replace(/\n+$/, "").split("\n");
  assert.match(
    rows.at(-2)!,
    /^● demo 2026-12-01 connected {2}│ mode app · model offline/,
    "the status bar's first row",
  );
  assert.match(rows.at(-1)!, /│ \/help\s*$/, "the status bar's last row, with its hints");
  assert.ok(
    rows.some((r) => /^›/.test(r)),
    "the prompt",
  );
  // The pane's title: at this width the extension id alone, whole (never "io.modelcontextprot…").
  assert.ok(
    rows.some((r) => /│(▸ )?io\.modelcontextprotocol\/ui( \(\d+\))?\s*│/.test(r)),
    "the side pane, its extension id whole",
  );
  assert.match(s, /^ {2}\d+\.\d+s · requested: /m, "the elapsed time, whole");
  assert.match(
    s.replace(/\n {4}/g, " "),
    /→ model \d+ B · user — · programmatic — · app [\d.]+ kB/,
    "the sink summary wrapped at spaces",
  );
  t.submit("/quit");
  assert.equal(await t.exitCode(), 0);
});
