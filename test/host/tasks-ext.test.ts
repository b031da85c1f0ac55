// The 2026-07-28 Tasks extension (io.modelcontextprotocol/tasks, SEP-2663) through the Host,
// against a raw server speaking its shape (test/fixtures/tasks-ext-server.mjs, which logs every
// request): the extension is declared in each request's client capabilities and no `task`
// parameter is sent (the server decides); a flat CreateTaskResult is followed by tasks/get to the
// result inline (there is no tasks/result); input_required is answered on the host's input path
// and sent with tasks/update, once per key; a failed task's JSON-RPC error is named; a cancelled
// call sends tasks/cancel. Before, the flat handle was not recognised (the call "succeeded" with
// an empty result) and the extension was never declared, so such a server refused every call.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { Host } from "../../src/host/host.js";
import type { InputProvider } from "../../src/host/input/input-provider.js";
import { config, ROOT, tempDir } from "../helpers/host-fixtures.js";
import { taskLog } from "../helpers/task-log.js";

const SERVER = join(ROOT, "test", "fixtures", "tasks-ext-server.mjs");
const dir = tempDir();
const hosts: Host[] = [];
after(async () => Promise.all(hosts.map((h) => h.close())));

async function start(name: string, input?: InputProvider) {
  const log = join(dir, `${name}.log`);
  const host = await Host.start({
    config: config({ ext: { kind: "stdio", command: process.execPath, args: [SERVER], env: { TASK_LOG: log } } }),
    eraCache: false,
    ...(input ? { input } : {}),
  });
  hosts.push(host);
  assert.equal(host.servers()[0].protocolVersion, "2026-07-28");
  return { host, log };
}

const text = (o: Awaited<ReturnType<Host["call"]>>) =>
  o.ok
    ? o.routed.model
        .flatMap((m) => (m.format === "content" ? m.content : []))
        .map((b) => (b as { text: string }).text)
        .join("")
    : "";

test("a flat task handle is polled to its inline result; the extension declared, no task parameter, no tasks/result", async () => {
  const { host, log } = await start("slow");
  const statuses: string[] = [];
  const o = await host.call("slow", {}, { onProgress: (p) => void statuses.push(p.message ?? "") });
  assert.ok(o.ok, JSON.stringify(!o.ok && o.error));
  assert.equal(text(o), "slow done after 2 polls");
  const sent = taskLog(log);
  const call = sent.find((m) => m.method === "tools/call")!;
  assert.equal(call.params.task, undefined, "the server decides; no task parameter");
  assert.deepEqual(
    call.params._meta["io.modelcontextprotocol/clientCapabilities"].extensions["io.modelcontextprotocol/tasks"],
    {},
  );
  assert.ok(sent.filter((m) => m.method === "tasks/get").length >= 2);
  assert.equal(sent.filter((m) => m.method === "tasks/result").length, 0, "no tasks/result in the extension");
  assert.ok(statuses.includes("task working: step 1"), statuses.join(" | "));
});

test("input_required: the elicitation is answered on the input path and sent once with tasks/update", async () => {
  const asked: string[] = [];
  const input: InputProvider = {
    elicitation: { form: true, url: false },
    sampling: false,
    elicit: async (req) => {
      asked.push((req as { message: string }).message);
      return { action: "accept", content: { name: "Ada" } };
    },
    sample: async () => ({ action: "decline", detail: "no" }),
  };
  const { host, log } = await start("ask", input);
  const o = await host.call("ask", {});
  assert.ok(o.ok, JSON.stringify(!o.ok && o.error));
  assert.equal(text(o), "hello Ada");
  assert.deepEqual(asked, ["Who is asking? CANARY-TASK-ELICIT"], "asked once");
  const updates = taskLog(log).filter((m) => m.method === "tasks/update");
  assert.equal(updates.length, 1);
  assert.deepEqual(updates[0].params.inputResponses.who, { action: "accept", content: { name: "Ada" } });
});

test("a failed task names its JSON-RPC error; a cancelled call sends tasks/cancel", async () => {
  const { host, log } = await start("fail");
  const failed = await host.call("broken", {});
  assert.equal(failed.ok, false);
  assert.equal(!failed.ok && failed.error.rule, "task-failed");
  assert.match(!failed.ok ? failed.error.message : "", /the job crashed/);

  const ac = new AbortController();
  const running = host.call("forever", {}, { signal: ac.signal });
  const until = Date.now() + 30_000;
  while (!taskLog(log).some((m) => m.method === "tasks/get" && m.params.taskId === "ext-task-2")) {
    assert.ok(Date.now() < until, "the forever task was polled");
    await new Promise((r) => setTimeout(r, 20));
  }
  ac.abort();
  const cancelled = await running;
  assert.equal(!cancelled.ok && cancelled.error.rule, "cancelled");
  assert.equal(taskLog(log).find((m) => m.method === "tasks/cancel")?.params.taskId, "ext-task-2");
});
