// host/call: the one gate (read-only, --yes, one "always" per server and tool for every caller,
// one question at a time), the call pinned to the approved tool, and the lifecycle's events.
import { test } from "node:test";
import assert from "node:assert/strict";
import { CallGate, type ApprovalAnswer, type ApprovalRequest } from "../../src/host/call/gate.js";
import { CallLifecycle, type CallPath } from "../../src/host/call/lifecycle.js";
import type { CallOptions, CallOutcome, ToolEntry } from "../../src/host/types.js";

function tool(server: string, name: string, readOnly = false): ToolEntry {
  return {
    server,
    name,
    qualifiedName: name,
    inputSchema: { type: "object" },
    era: "2026-07-28",
    variants: [],
    ...(readOnly ? { annotations: { readOnlyHint: true } } : {}),
  } as ToolEntry;
}

/** An asker the test answers by hand, question by question. */
function manualAsker() {
  const open: { req: ApprovalRequest; answer: (a: ApprovalAnswer) => void }[] = [];
  const asked: ApprovalRequest[] = [];
  let wake: (() => void) | undefined;
  return {
    asked,
    open,
    ask: (req: ApprovalRequest) =>
      new Promise<ApprovalAnswer>((answer) => (asked.push(req), open.push({ req, answer }), wake?.())),
    /** Resolves once `n` questions have been asked. */
    until: (n: number) =>
      asked.length >= n ? Promise.resolve() : new Promise<void>((r) => (wake = () => asked.length >= n && r())),
  };
}

test("read-only runs unasked; --yes runs everything; nobody to ask refuses", async () => {
  const asker = manualAsker();
  const gate = new CallGate({ ask: asker.ask });
  assert.deepEqual(await gate.approve(tool("s", "read", true), { name: "read", args: {}, source: "model" }), {
    ok: true,
  });
  assert.equal(asker.asked.length, 0);
  assert.deepEqual(
    await new CallGate({ yes: true }).approve(tool("s", "wipe"), { name: "wipe", args: {}, source: "view" }),
    { ok: true },
  );
  const refused = await new CallGate().approve(tool("s", "wipe"), { name: "wipe", args: {}, source: "script" });
  assert.deepEqual(refused, {
    ok: false,
    rule: "not-approved",
    detail: "not marked read-only; the user did not approve it (pass --yes to allow)",
  });
});

test("one question at a time: a View's approval asked while a turn's is open waits, then both settle", async () => {
  const asker = manualAsker();
  const gate = new CallGate({ ask: asker.ask });
  const turn = gate.approve(tool("s", "wipe"), { name: "wipe", args: { path: "/a" }, source: "model" });
  const view = gate.approve(tool("s", "drop"), { name: "drop", args: { table: "t" }, source: "view" });
  await asker.until(1);
  await Promise.resolve();
  assert.equal(asker.asked.length, 1, "the second question waits for the first");
  asker.open[0].answer("yes");
  assert.deepEqual(await turn, { ok: true });
  await asker.until(2);
  assert.deepEqual(asker.asked[1], { server: "s", tool: "drop", args: { table: "t" }, source: "view" });
  asker.open[1].answer("no");
  assert.deepEqual(await view, { ok: false, rule: "not-approved", detail: "the user declined this call" });
});

test("'always' is one memory per server and tool, shared by every caller; it never covers another server's tool", async () => {
  const asker = manualAsker();
  const gate = new CallGate({ ask: asker.ask });
  const first = gate.approve(tool("s", "wipe"), { name: "wipe", args: {}, source: "model" });
  // Asked while the first waits: decided again in turn, so the "always" applies and it is not asked.
  const queued = gate.approve(tool("s", "wipe"), { name: "wipe", args: {}, source: "view" });
  await asker.until(1);
  asker.open[0].answer("always");
  assert.deepEqual(await first, { ok: true });
  assert.deepEqual(await queued, { ok: true });
  assert.deepEqual(await gate.approve(tool("s", "wipe"), { name: "wipe", args: {}, source: "script" }), { ok: true });
  assert.equal(asker.asked.length, 1);
  const other = gate.approve(tool("t", "wipe"), { name: "t__wipe", args: {}, source: "model" });
  await asker.until(2);
  asker.open[1].answer("no");
  assert.equal((await other).ok, false);
});

test("an aborted call is not asked", async () => {
  const asker = manualAsker();
  const gate = new CallGate({ ask: asker.ask });
  const ac = new AbortController();
  const first = gate.approve(tool("s", "a"), { name: "a", args: {}, source: "model" });
  const second = gate.approve(tool("s", "b"), { name: "b", args: {}, source: "model" }, ac.signal);
  await asker.until(1);
  ac.abort();
  asker.open[0].answer("yes");
  await first;
  assert.equal((await second).ok, false);
  assert.equal(asker.asked.length, 1);
});

test("the lifecycle pins the approved tool, reports started/progress/ended, and a refusal never reaches the call path", async () => {
  const seen: CallOptions[] = [];
  const path: CallPath = async (name, args, o) => {
    seen.push(o);
    o.onProgress?.({ progress: 1, total: 2 });
    return {
      ok: true,
      plan: {
        server: "s",
        tool: name,
        args,
        requested: undefined,
        era: "2026-07-28",
        protocolVersion: "",
        mode: "chat",
      },
      isError: false,
      durationMs: 1,
    } as unknown as CallOutcome;
  };
  const asker = manualAsker();
  const calls = new CallLifecycle(new CallGate({ ask: asker.ask }), path);
  const events: string[] = [];
  calls.observe({
    started: (e) => events.push(`started ${e.id} ${e.source} ${e.server}/${e.tool}`),
    progress: (id, p) => events.push(`progress ${id} ${p.progress}`),
    ended: (id, o) => events.push(`ended ${id} ${o.ok ? "ok" : o.error.rule}`),
  });
  const entry = { ...tool("srv", "wipe"), qualifiedName: "srv__wipe" };
  const refused = calls.run({ source: "model", name: "srv__wipe", args: { path: "/" }, entry });
  await asker.until(1);
  asker.open[0].answer("no");
  const r = await refused;
  assert.equal(r.ok ? "" : r.error.rule, "not-approved");
  assert.equal(seen.length, 0, "a declined call is never sent");
  const ok = calls.run({ source: "model", name: "srv__wipe", args: { path: "/" }, entry, opts: { mode: "app" } });
  await asker.until(2);
  asker.open[1].answer("yes");
  assert.equal((await ok).ok, true);
  assert.deepEqual(
    seen[0].target,
    { server: "srv", tool: "wipe" },
    "the host runs exactly the tool approved, or refuses",
  );
  assert.equal(seen[0].mode, "app");
  const thrown = await new CallLifecycle(new CallGate({ yes: true }), async () =>
    Promise.reject(new Error("boom\nstack")),
  ).run({ source: "script", name: "srv__wipe", args: {}, entry });
  assert.deepEqual(thrown.ok ? undefined : [thrown.error.rule, thrown.error.detail], [
    "host-error",
    "the host failed running the call (boom)",
  ]);
  assert.deepEqual(events, [
    "started 1 model srv/wipe",
    "ended 1 not-approved",
    "started 2 model srv/wipe",
    "progress 2 1",
    "ended 2 ok",
  ]);
});
