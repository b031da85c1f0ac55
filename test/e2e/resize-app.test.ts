// Resizing the terminal under the real app (tmux, 24 rows): while a call runs, the window goes
// 90 → 80 → 86 → 80 columns. Afterwards the scrollback holds each line once (no prompt line or
// half frame repeated by a redraw that erased too little) and everything, the turns finished
// before the resize included, is laid out for 80 columns (capture-pane -J joins what tmux wrapped).
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { displayWidth as stringWidth } from "../../src/ui/format.js";
import { startApp, type AppTerminal } from "../helpers/tmux.js";

const open: AppTerminal[] = [];
after(() => open.forEach((t) => t.close()));

test("resizing during a running call: nothing repeated, every line laid out for the new width", async () => {
  const t = await startApp({ columns: 90, rows: 24 });
  open.push(t);
  t.submit('/call search_customers {"query":"Hotels"}');
  await t.idle(/search_customers/, "the first call's card", { history: 300 });
  t.submit('/call wait {"ms":4000}');
  await t.waitFor(/working…/, "the call running");
  const widthIs = (n: number) => t.waitFor(() => t.format("#{window_width}") === String(n), `${n} columns`);
  for (const w of [80, 86, 80]) {
    t.tmux("resize-window", "-t", "e2e", "-x", String(w));
    await widthIs(w);
    // Each size is drawn before the next resize (the status bar at that width, on one line).
    await t.waitFor((s) => s.split("\n").some((l) => l.includes("mode chat") && stringWidth(l) <= w), `drawn at ${w}`);
  }
  await t.idle(/› \/call wait/, "the call finished", { timeoutMs: 30_000, history: 300 });
  const all = t.tmux("capture-pane", "-p", "-J", "-t", "e2e", "-S", "-500");
  const lines = all.split("\n");
  const wide = lines.filter((l) => stringWidth(l.trimEnd()) > 80);
  assert.deepEqual(wide, [], "every line fits 80 columns (none laid out for 90 or 86)");
  const count = (re: RegExp) => lines.filter((l) => re.test(l)).length;
  assert.equal(count(/^› \/call search_customers/), 1, `the first prompt once:\n${all}`);
  assert.equal(count(/^› \/call wait/), 1, `the running call's prompt once:\n${all}`);
  t.submit("/quit");
  assert.equal(await t.exitCode(), 0);
});
