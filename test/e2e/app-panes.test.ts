// The real app in tmux: app mode fills the App pane (never the conversation), Esc cancels a
// running call and the next prompt works, Ctrl+C once cancels and twice quits with the terminal restored.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { layoutFor } from "../../src/ui/App.js";
import { leftColumn, rightColumn, startApp, type AppTerminal } from "../helpers/tmux.js";

const COLS = 120;
const { main } = layoutFor(COLS, true);
const open: AppTerminal[] = [];
after(() => open.forEach((t) => t.close()));

test("app mode fills the App pane; Esc cancels a running call; ^C cancels, ^C^C quits", async () => {
  const t = await startApp({ columns: COLS, rows: 50 });
  open.push(t);

  t.submit("/mode app");
  await t.waitFor("mode app · model offline", "app mode in the status bar");
  t.submit("/call refresh_dashboard {}");
  let s = await t.idle(/App · io\.modelcontextprotocol\/ui \(1\)/, "the App pane");
  const side = rightColumn(s, main + 1);
  assert.match(side, /"datasetVersion": "v\d+"/);
  // The line wraps at a space, its continuation indented (the elapsed time and the selection are
  // never cut): read it joined.
  assert.match(
    leftColumn(s, main).replace(/ *\n */g, " "),
    /requested: assistant\/content, io\.modelcontextprotocol\/ui\/structured/,
  );
  assert.ok(!leftColumn(t.screen(500), main).includes('datasetVersion"'), "App data never in the conversation");
  assert.doesNotMatch(side, /Programmatic \(/, "the empty programmatic pane is hidden");

  // Esc cancels the running call (wire cancellation), the card says so, the next prompt works.
  t.submit('/call wait {"ms":20000}');
  await t.waitFor(/⠋|⠙|⠹|⠸|⠼|⠴|⠦|⠧|⠇|⠏/, "the spinner of the running call");
  await t.waitFor("working…", "busy status");
  t.keys("Escape");
  s = await t.idle(/✗ demo · wait failed \[cancelled\]/, "the cancelled card", { timeoutMs: 10_000 });
  t.submit("/servers");
  await t.idle(/demo {2}2026-12-01 {2}connected/, "the next command ran");

  // ^C once while a call runs cancels it (no quit); ^C twice quits with exit code 0.
  t.submit('/call wait {"ms":20000}');
  await t.waitFor("working…", "busy again");
  t.keys("C-c");
  await t.idle(/wait failed \[cancelled\][\s\S]*wait failed \[cancelled\]/, "cancelled by one ^C", {
    timeoutMs: 10_000,
    history: 200,
  });
  assert.equal(t.screen().includes("● demo"), true, "one ^C does not quit");
  await t.waitFor((x) => !x.includes("Press ^C again to quit"), "the quit window to pass");
  assert.equal(t.screen().includes("● demo"), true, "still running after the quit window");
  t.keys("C-c");
  t.keys("C-c");
  assert.equal(await t.exitCode(), 0);
  assert.equal(t.format("#{cursor_flag}"), "1", "the cursor is shown after exit");
});
