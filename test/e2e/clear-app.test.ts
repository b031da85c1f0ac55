// /clear in the real app under tmux: the screen and scrollback go, the /clear line and its notice
// stay on screen (the clear escape once came after them and wiped them), and the side pane's
// entries go with the conversation they belonged to.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { startApp, type AppTerminal } from "../helpers/tmux.js";

const open: AppTerminal[] = [];
after(() => open.forEach((t) => t.close()));

test("a hint on the first screen; /clear shows its own line and notice, and empties the side pane (80×24)", async () => {
  const t = await startApp({ columns: 80, rows: 24 });
  open.push(t);
  await t.waitFor(/Ask anything, or try \/help · \/tools · \/servers · \/mode/, "the first screen says what to try");
  t.submit('/call lookup_order {"orderId":"ord_5001"} --select programmatic/structured');
  const first = await t.idle(/Programmatic \(1\)/, "the programmatic pane with the order");
  assert.doesNotMatch(first, /Ask anything/, "the hint goes with the first turn");
  t.submit("/clear");
  const s = await t.idle(/cleared the screen and the conversation/, "the notice", { history: 100 });
  assert.match(s, /\/clear\n/, "the /clear line is on screen");
  assert.doesNotMatch(s, /lookup_order/, "the old card went with the screen and scrollback");
  assert.doesNotMatch(s, /Programmatic \(/, "the pane's old entries went too (an empty pane is hidden)");
  t.submit("/quit");
  assert.equal(await t.exitCode(), 0);
});
