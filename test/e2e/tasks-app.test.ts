// Tasks in the real app under tmux (issue 30), on a server whose task never ends and which logs
// every request it gets (test/fixtures/endless-task-server.mjs): the card shows the task's status
// while it runs; /cancel ends it and the server gets tasks/cancel for that task; a task still
// running when the app quits is cancelled on the server too, and the terminal is told so.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { startApp, type AppTerminal } from "../helpers/tmux.js";
import { tempDir } from "../helpers/host-fixtures.js";
import { ENDLESS_TASK_SERVER, taskLog } from "../helpers/task-log.js";

const open: AppTerminal[] = [];
after(() => open.forEach((t) => t.close()));

const ENDLESS = ENDLESS_TASK_SERVER;

test("a running task on its card, /cancel sends tasks/cancel, and quitting cancels the one still running", async () => {
  const dir = tempDir();
  const log = join(dir, "task.log");
  const cfg = join(dir, "app.json");
  writeFileSync(
    cfg,
    JSON.stringify({ mcpServers: { endless: { command: process.execPath, args: [ENDLESS], env: { TASK_LOG: log } } } }),
  );
  const t = await startApp({
    args: ["--config", cfg, "--model", "offline"],
    columns: 140,
    rows: 40,
    ready: /endless 2025-11-25 connected/,
  });
  open.push(t);
  await t.send("/pane off");

  t.submit("/call forever {}");
  await t.waitFor(/endless · forever[\s\S]*task working: still going/, "the task's status on its card");
  assert.deepEqual(taskLog(log).find((m) => m.method === "tools/call")?.params.task, {}, "called as a task");
  t.submit("/cancel");
  await t.idle(/forever failed \[cancelled\]/, "the card says cancelled");
  assert.deepEqual(
    taskLog(log)
      .filter((m) => m.method === "tasks/cancel")
      .map((m) => m.params),
    [{ taskId: "task-1" }],
    "the server was told",
  );

  t.submit("/call forever {}");
  await t.waitFor(
    (s) =>
      (s.match(/task working: still going/g) ?? []).length >= 1 &&
      taskLog(log).filter((m) => m.method === "tools/call").length === 2,
    "the second task running",
  );
  t.submit("/quit");
  assert.equal(await t.exitCode(), 0);
  await t.waitFor(/task task-1 of endless\/forever cancelled on exit/, "the terminal is told", { history: 100 });
  assert.equal(
    taskLog(log).filter((m) => m.method === "tasks/cancel").length,
    2,
    "the running one cancelled on the server",
  );
});
