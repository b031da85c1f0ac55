// Task-augmented tool calls: server-everything's simulate-research-query (taskSupport "required")
// runs to completion through the BUILT CLI's `call` (its input_required round answered by
// --answer, the elicitation path) and `run`; a call cancelled through its
// signal sends tasks/cancel; a task that never ends (test/fixtures/endless-task-server.mjs) is
// cancelled when mcp-prism exits on a signal, and the person is told. Needs a build.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { once } from "node:events";
import { BIN, config, tempDir } from "../helpers/host-fixtures.js";
import { EVERYTHING } from "../helpers/real-servers.js";
import { Host } from "../../src/host/host.js";
import { DEFAULT_LIMITS } from "../../src/host/config/config.js";
import { ENDLESS_TASK_SERVER, taskLog } from "../helpers/task-log.js";

const dir = tempDir();
after(() => rmSync(dir, { recursive: true, force: true }));

const ENDLESS = ENDLESS_TASK_SERVER;
const endless = (log: string) => ({ command: process.execPath, args: [ENDLESS], env: { TASK_LOG: log } });

/** Resolves once `check` holds, re-checking whenever the file changes (or every 50 ms as it is written). */
async function until(check: () => boolean, what: string, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function cli(args: string[], stdin = "") {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: dir,
    env: { ...process.env, XDG_STATE_HOME: join(dir, "state") },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  child.stdin.end(stdin);
  const done = once(child, "close").then(([code]) => ({ code: code as number | null, stdout, stderr }));
  return { child, done };
}

const everythingConfig = join(dir, "everything.json");
writeFileSync(
  everythingConfig,
  JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } } }),
);

test("call: simulate-research-query (taskSupport required) runs as a task to its report", async () => {
  const r = await cli([
    "call",
    "simulate-research-query",
    "--args",
    '{"topic":"tides"}',
    "--config",
    everythingConfig,
    "--json",
  ]).done;
  assert.equal(r.code, 0, r.stderr + r.stdout);
  const doc = JSON.parse(r.stdout);
  assert.equal(doc.isError, false, r.stdout);
  assert.equal(doc.resultMeta["io.modelcontextprotocol/related-task"].taskId.length > 0, true);
  assert.match(JSON.stringify(doc), /Research Report: tides/);
});

test("call: a task that needs input (input_required) gets its elicitation answered on the usual path (--answer)", async () => {
  const r = await cli([
    "call",
    "simulate-research-query",
    "--args",
    '{"topic":"python","ambiguous":true}',
    "--answer",
    '{"interpretation":"snake"}',
    "--config",
    everythingConfig,
    "--json",
  ]).done;
  assert.equal(r.code, 0, r.stderr + r.stdout);
  assert.match(JSON.parse(r.stdout).routed.model[0].content[0].text, /^# Research Report: python \(snake\)/);
});

test("run: a script awaits the task tool like any other and gets {text, content}", async () => {
  const r = await cli(
    ["run", "-", "--config", everythingConfig, "--json", "--yes"],
    'const r = await tools["simulate-research-query"]({ topic: "moons" }); return r.text.split("\\n")[0];',
  ).done;
  assert.equal(r.code, 0, r.stderr + r.stdout);
  assert.equal(JSON.parse(r.stdout).value, "# Research Report: moons");
});

test("a cancelled task call sends tasks/cancel for its task; the outcome says cancelled", async () => {
  const log = join(dir, "cancel.log");
  const host = await Host.start({ config: config({ endless: { kind: "stdio", ...endless(log) } }), eraCache: false });
  try {
    const ac = new AbortController();
    const statuses: string[] = [];
    const call = host.call(
      "forever",
      {},
      { signal: ac.signal, onProgress: (p) => void statuses.push(p.message ?? "") },
    );
    await until(() => taskLog(log).some((m) => m.method === "tasks/get"), "the first tasks/get");
    ac.abort();
    const outcome = await call;
    assert.equal(outcome.ok, false);
    assert.equal(!outcome.ok && outcome.error.rule, "cancelled");
    const sent = taskLog(log);
    assert.deepEqual(sent.find((m) => m.method === "tools/call")?.params.task, {});
    assert.deepEqual(sent.find((m) => m.method === "tasks/cancel")?.params, { taskId: "task-1" });
    assert.ok(statuses.includes("task working: still going"), statuses.join(" | "));
    assert.equal(host.tasks.list().length, 0);
  } finally {
    await host.close();
  }
});

test("a task outlives a slow call: it runs past the call timeout (callTimeoutMs) to its result", async () => {
  const log = join(dir, "slow.log");
  const host = await Host.start({
    config: {
      ...config({ endless: { kind: "stdio", ...endless(log), env: { TASK_LOG: log, TASK_DONE_AFTER_MS: "2500" } } }),
      limits: { ...DEFAULT_LIMITS, callTimeoutMs: 800 },
    },
    eraCache: false,
  });
  try {
    const outcome = await host.call("forever", {});
    assert.ok(outcome.ok, JSON.stringify(!outcome.ok && outcome.error));
    const text = JSON.stringify(outcome.routed.model);
    const ms = Number(/done after (\d+) ms/.exec(text)?.[1]);
    assert.ok(ms >= 2500 && ms > 800, `the task ran ${ms} ms, past the 800 ms call timeout`);
    assert.equal(taskLog(log).filter((m) => m.method === "tasks/cancel").length, 0);
  } finally {
    await host.close();
  }
});

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  test(`a task that never ends is cancelled on the server when mcp-prism exits (${signal}), and said so`, async () => {
    const log = join(dir, `exit-${signal}.log`);
    const file = join(dir, `endless-${signal}.json`);
    writeFileSync(file, JSON.stringify({ mcpServers: { endless: endless(log) } }));
    const { child, done } = cli(["call", "forever", "--config", file]);
    await until(() => taskLog(log).some((m) => m.method === "tasks/get"), "the task to be polled");
    child.kill(signal);
    const r = await done;
    assert.notEqual(r.code, 0);
    assert.deepEqual(taskLog(log).find((m) => m.method === "tasks/cancel")?.params, { taskId: "task-1" });
    assert.match(r.stderr, /task task-1 of endless\/forever cancelled on exit/);
  });
}
