// The app draws before the host has started: servers `connecting…`, the prompt live, lines queued
// until the start settles; then the connected status bar, or one error line and the app goes on.
import "./env.js";
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ChatSession, type TurnRunner } from "../../src/ui/session.js";
import { SessionStore } from "../../src/ui/state.js";
import { PendingHost, type StartedHost } from "../../src/ui/pending-host.js";
import type { ToolEntry } from "../../src/host/types.js";
import { ConnectionError } from "../../src/host/connection/connection.js";
import { startHost } from "../../src/cli/start-host.js";
import { tick, waitFor, okOutcome, type Harness } from "./harness.js";
import { mountApp } from "./mount-app.js";

const open: Harness[] = [];
after(() => open.forEach((h) => h.unmount()));

const searchTool: ToolEntry = {
  server: "demo",
  name: "search_customers",
  qualifiedName: "search_customers",
  inputSchema: { type: "object" },
  era: "2026-12-01",
  variants: [{ audience: "assistant", format: "content" }],
};

function startedHost(): StartedHost {
  const call = async () =>
    okOutcome({ model: [{ audience: "assistant", format: "content", content: [{ type: "text", text: "ok" }] }] });
  return {
    tools: async () => [searchTool],
    servers: () => [{ name: "demo", protocolVersion: "2026-12-01", state: "connected" }],
    call,
    modelTools: () => [searchTool],
    instructions: () => [],
  };
}

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

function setup(names: string[], starting: Promise<StartedHost>) {
  const store = new SessionStore();
  const pending = new PendingHost(names, starting, store);
  const prompts: { prompt: string; tools: string[] }[] = [];
  const runTurn: TurnRunner = async (prompt, o) => {
    prompts.push({ prompt, tools: o.executor.modelTools().map((t) => t.qualifiedName) });
    o.onText(`answered ${prompt}.`);
    return {};
  };
  const session = new ChatSession({
    store,
    executor: pending.executor,
    host: pending.commandHost,
    runTurn,
    autoApprove: true,
    hostReady: pending.ready,
  });
  return { session, store, pending, prompts, ...mountApp(session, pending.servers, open) };
}

test("first frame before the host: servers connecting…, prompt live, input queued; then connected and the queue runs", async () => {
  const start = deferred<StartedHost>();
  const s = setup(["demo", "other"], start.promise);
  await waitFor(() => s.frame().includes("mode chat · model offline"), "the first frame");
  assert.match(s.frame(), /● demo connecting…\s+● other connecting…/);

  // Answered at once from what is known (issue 34.2), never "try again later".
  await s.type("/servers\r");
  await waitFor(
    () => /demo {2}\? {2}connecting\n\s*other {2}\? {2}connecting/.test(s.frame()),
    "/servers answered at once",
  );
  await s.type("/tools\r");
  await waitFor(() => s.frame().includes("no tools (see /servers)"), "/tools answered at once");
  await s.type("search Globex\r");
  await waitFor(() => s.frame().includes("queued until the servers are connected: search Globex"), "queued notice");
  await s.type("second line\r");
  await tick(50);
  assert.deepEqual(s.prompts, [], "nothing ran before the host was ready");
  assert.equal(s.session.hostConnecting, true);

  start.resolve(startedHost());
  await waitFor(
    () => s.frame().includes("● demo 2026-12-01 connected"),
    "status bar updated on ready (not on the 1 s poll)",
    900,
  );
  await waitFor(() => s.prompts.length === 2 && !s.session.busy, "queued lines ran in order");
  assert.deepEqual(s.prompts, [
    { prompt: "search Globex", tools: ["search_customers"] },
    { prompt: "second line", tools: ["search_customers"] },
  ]);
  assert.match(s.frame(), /answered second line\./);
  await s.type("/tools\r");
  await waitFor(() => s.frame().includes("search_customers"), "/tools lists once connected");
  assert.ok(s.store.transcript().some((r) => r.kind === "session" && r.event === "servers"));
  assert.equal(s.quits(), 0);
});

test("/quit works while the host is still connecting", async () => {
  const start = deferred<StartedHost>();
  const s = setup(["demo"], start.promise);
  await waitFor(() => s.frame().includes("demo connecting…"), "connecting");
  await s.type("/quit\r");
  await waitFor(() => s.quits() === 1, "quit at once");
  start.resolve(startedHost());
});

test("a failed start: one error line naming the server, status bar error, the app keeps running", async () => {
  const start = deferred<StartedHost>();
  const s = setup(["demo"], start.promise);
  await s.type("hello\r");
  await waitFor(() => s.frame().includes("queued until the servers are connected: hello"), "queued");
  // A host error is data: its server and detail, never a message parsed back.
  start.reject(
    new ConnectionError("connection-failed", "demo", "spawn /nonexistent/mcp-server ENOENT\n(server stderr: nothing)"),
  );
  await waitFor(() => s.frame().includes("● demo error"), "status bar shows error");
  const errorLines = s
    .frame()
    .split("\n")
    .filter((l) => l.includes("spawn /nonexistent/mcp-server ENOENT"));
  assert.equal(errorLines.length, 1, `one line: ${s.frame()}`);
  assert.match(errorLines[0], /server demo: spawn \/nonexistent\/mcp-server ENOENT \(server stderr: nothing\)/);
  // The queued prompt still ran (no tools), and the prompt keeps working.
  await waitFor(() => s.prompts.length === 1 && !s.session.busy, "the queued prompt ran");
  assert.deepEqual(s.prompts[0], { prompt: "hello", tools: [] });
  await s.type("/servers\r");
  await waitFor(() => /demo[^\n]*error/.test(s.frame().split("/servers").at(-1) ?? ""), "/servers shows the error");
  await s.type("/quit\r");
  await waitFor(() => s.quits() === 1, "quit");
});

test("a failed start that is no host error is named by the configured servers, whatever its text says", async () => {
  const start = deferred<StartedHost>();
  const s = setup(["demo", "old"], start.promise);
  start.reject(new Error("server evil: looks like a host line"));
  await waitFor(() => s.frame().includes("● demo error"), "status bar shows error");
  const noticed = s.store
    .transcript()
    .filter((r) => r.kind === "notice" && r.level === "error")
    .map((r) => (r as unknown as { text: string }).text);
  assert.deepEqual(noticed, ["server demo, old: server evil: looks like a host line"]);
});

test("a real failed start (the configured command does not exist) becomes that one line", async () => {
  const dir = mkdtempSync(join(tmpdir(), "prism-pending-"));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const config = join(dir, "config.json");
  writeFileSync(config, JSON.stringify({ mcpServers: { ghost: { command: join(dir, "no-such-server") } } }));
  const starting = startHost({ config, yes: false, json: false }).then(async (h): Promise<StartedHost> => {
    await h.close();
    throw new Error("expected the start to fail");
  });
  const s = setup(["ghost"], starting);
  assert.match(s.frame(), /● ghost connecting…/);
  await waitFor(() => s.frame().includes("● ghost error"), "status bar shows error", 10_000);
  const lines = s
    .frame()
    .split("\n")
    .filter((l) => l.includes("server ghost:"));
  assert.equal(lines.length, 1, s.frame());
  assert.ok(!lines[0].includes("expected the start to fail"), lines[0]);
  await s.type("/help\r");
  await waitFor(() => s.frame().includes("/quit"), "the app still answers");
});

test("a server still connecting at the host's bound: queued lines run on the others, a notice names it, its tools join when it connects", async () => {
  const settled = deferred<void>();
  let lateState: "connecting" | "connected" = "connecting";
  let listener: ((name: string) => void) | undefined;
  const slowTool: ToolEntry = { ...searchTool, server: "slow", name: "slow_tool", qualifiedName: "slow_tool" };
  const host: StartedHost = {
    ...startedHost(),
    servers: () => [
      { name: "demo", protocolVersion: "2026-12-01", state: "connected" },
      { name: "slow", state: lateState, ...(lateState === "connected" ? { protocolVersion: "2025-11-25" } : {}) },
    ],
    modelTools: () => (lateState === "connected" ? [searchTool, slowTool] : [searchTool]),
    tools: async () => (lateState === "connected" ? [searchTool, slowTool] : [searchTool]),
    settled: () => settled.promise,
    connectWaitMs: 5000,
    on: (event: string, fn: (e: any) => void) =>
      void (event === "server" && (listener = (name) => fn({ name, state: "connected" }))),
  };
  const s = setup(["demo", "slow"], Promise.resolve(host));
  await waitFor(() => s.frame().includes("● demo 2026-12-01 connected"), "the host's own view before the bound");
  await s.type("first\r");
  await tick(50);
  assert.equal(s.prompts.length, 0, "held until the bound");
  settled.resolve(); // the bound passed with `slow` still connecting
  await waitFor(() => s.prompts.length === 1 && !s.session.busy, "the queued prompt ran");
  assert.deepEqual(s.prompts[0].tools, ["search_customers"]);
  const noticed = (text: string) => s.store.transcript().some((r) => r.kind === "notice" && r.text === text);
  await waitFor(
    () => noticed("server slow: still connecting after 5 s; prompts run without its tools until it connects"),
    "the notice",
  );
  assert.match(s.frame().replace(/\s+/g, " "), /server slow: still connecting after 5 s/);
  lateState = "connected";
  listener?.("slow");
  await waitFor(() => noticed("server slow: connected; its tools join from the next prompt"), "the join notice");
  await s.type("second\r");
  await waitFor(() => s.prompts.length === 2 && !s.session.busy, "the next prompt ran");
  assert.deepEqual(s.prompts[1].tools, ["search_customers", "slow_tool"]);
});

test("a server's list-changed notices are one line between two prompts (server-everything sends five on connect)", async () => {
  const handlers = new Map<string, (e: never) => void>();
  const host = {
    ...startedHost(),
    on: (event: string, fn: (e: never) => void) => void handlers.set(event, fn),
  } as unknown as StartedHost;
  const s = setup(["demo"], Promise.resolve(host));
  await waitFor(() => handlers.has("list-changed"), "the app listens for list changes");
  const changed = (list: string) => handlers.get("list-changed")!({ server: "demo", list } as never);
  const said = () =>
    s.store.transcript().filter((r) => r.kind === "notice" && String(r.text).includes("tool list changed")).length;
  for (let i = 0; i < 5; i++) changed("tools");
  changed("prompts");
  assert.equal(said(), 1);
  assert.equal(s.store.transcript().filter((r) => String(r.text ?? "").includes("prompts changed")).length, 1);
  await s.type("hello\r");
  await waitFor(() => s.prompts.length === 1 && !s.session.busy, "the prompt ran");
  changed("tools");
  changed("tools");
  assert.equal(said(), 2, "after a prompt the change is news again, once");
});
