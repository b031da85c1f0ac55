import "./env.js";
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { ChatSession, type TurnRunner } from "../../src/ui/session.js";
import { SessionStore } from "../../src/ui/state.js";
import type { CallOptions, CallOutcome, Mode, ToolEntry, ToolExecutor } from "../../src/host/types.js";
import type { CommandHost } from "../../src/ui/commands/index.js";
import { tick, waitFor, okOutcome, plan, type Harness } from "./harness.js";
import { mountApp } from "./mount-app.js";
import { failedOutcome } from "../../src/host/host-error.js";

const open: Harness[] = [];
after(() => open.forEach((h) => h.unmount()));

const tool = (name: string, extra: Partial<ToolEntry> = {}): ToolEntry => ({
  server: "demo",
  name,
  qualifiedName: name,
  inputSchema: { type: "object" },
  era: "2026-12-01",
  variants: [{ audience: "assistant", format: "content" }],
  ...extra,
});

/** A host whose listing depends on the mode, like the real one (app mode lists the UI tools). */
function modalHost() {
  const calls: { name: string; opts?: CallOptions }[] = [];
  const listed: Mode[] = [];
  const call = async (name: string, args: Record<string, unknown>, opts?: CallOptions): Promise<CallOutcome> => {
    calls.push({ name, opts });
    if (name === "wait") {
      // Like Host.call: an aborted signal ends the call as `cancelled`.
      await new Promise<void>((resolve) => {
        if (opts?.signal?.aborted) return resolve();
        opts?.signal?.addEventListener("abort", () => resolve(), { once: true });
      });
      return failedOutcome(
        plan({ tool: "wait", args, mode: opts?.mode ?? "chat" }),
        "cancelled",
        "the call was cancelled",
        5,
      );
    }
    return okOutcome(
      { model: [{ audience: "assistant", format: "content", content: [{ type: "text", text: "ok" }] }] },
      { tool: name, mode: opts?.mode ?? "chat" },
    );
  };
  const host: CommandHost = {
    tools: async (m) => {
      listed.push(m);
      // A task-only tool (execution.taskSupport "required") is listed but never offered to the model.
      const base = [
        tool("search_customers"),
        tool("wait"),
        tool("research", { unavailable: { rule: "task-required", detail: "runs only as a task" } }),
      ];
      if (m === "app")
        return [...base, tool("ui_only_search"), tool("refresh_dashboard", { _meta: { ui: { visibility: ["app"] } } })];
      return base;
    },
    servers: () => [{ name: "demo", protocolVersion: "2026-12-01", state: "connected" }],
    call,
  };
  const executor: ToolExecutor = {
    modelTools: () => [tool("search_customers"), tool("wait")],
    instructions: () => [],
    call,
  };
  return { host, executor, calls, listed };
}

function setup(runTurn: TurnRunner) {
  const { host, executor, calls, listed } = modalHost();
  const store = new SessionStore();
  const session = new ChatSession({ store, executor, host, runTurn, autoApprove: true });
  return { session, store, calls, listed, ...mountApp(session, host.servers, open) };
}

test("/mode changes the whole session: the model's tools, each call's mode, the status bar", async () => {
  const seen: { mode: Mode; tools: string[] }[] = [];
  const s = setup(async (_p, o) => {
    seen.push({ mode: o.mode, tools: o.executor.modelTools().map((t) => t.qualifiedName) });
    await o.executor.call("search_customers", { query: "x" }, {});
    o.onText("done.");
    return {};
  });
  await s.type("search\r");
  await waitFor(() => s.frame().includes("done."), "first turn");
  await s.type("/mode app\r");
  await waitFor(() => s.frame().includes("mode app ·"), "status bar shows app");
  await s.type("search again\r");
  await waitFor(() => seen.length === 2 && !s.store.getState().busy, "second turn");
  assert.deepEqual(seen[0], { mode: "chat", tools: ["search_customers", "wait"] });
  // App mode: the listing made with the UI extension; App-only tools never reach the model.
  assert.deepEqual(seen[1], { mode: "app", tools: ["search_customers", "wait", "ui_only_search"] });
  assert.deepEqual(
    s.calls.map((c) => c.opts?.mode),
    ["chat", "app"],
  );
  assert.ok(s.listed.includes("app"));
  assert.ok(s.store.transcript().some((r) => r.kind === "mode" && r.mode === "app"));
});

test("Esc cancels the running turn: the tool call is aborted, the card says cancelled, the next prompt works", async () => {
  let turns = 0;
  const s = setup(async (prompt, o) => {
    turns++;
    if (prompt === "hello") {
      o.onText("hi there.");
      return {};
    }
    o.onText("Waiting… ");
    const out = await o.executor.call("wait", { ms: 20000 }, {});
    return out.ok ? {} : { error: o.signal.aborted ? "cancelled" : out.error.message };
  });
  await s.type("wait a while\r");
  await waitFor(() => s.frame().includes("demo · wait"), "running card");
  assert.equal(s.session.busy, true);
  await s.type("\x1b");
  await waitFor(() => !s.session.busy, "turn ended after Esc");
  assert.equal(s.calls[0].opts?.signal?.aborted, true, "the call's signal was aborted");
  await waitFor(() => /✗ demo · wait failed \[cancelled\]/.test(s.frame()), "cancelled card");
  await s.type("hello\r");
  await waitFor(() => s.frame().includes("hi there."), "next turn");
  assert.equal(turns, 2);
  assert.equal(s.quits(), 0);
});

test("/cancel typed while a turn runs cancels it at once (not queued behind it), as Esc does", async () => {
  const s = setup(async (_p, o) => {
    const out = await o.executor.call("wait", { ms: 20000 }, {});
    return out.ok ? {} : { error: o.signal.aborted ? "cancelled" : out.error.message };
  });
  await s.type("wait a while\r");
  await waitFor(() => s.frame().includes("demo · wait"), "running card");
  await s.type("/cancel\r");
  await waitFor(() => !s.session.busy, "turn ended after /cancel");
  assert.equal(s.calls[0].opts?.signal?.aborted, true, "the call's signal was aborted");
  assert.doesNotMatch(s.frame(), /queued: \/cancel/);
  await s.type("/cancel\r");
  await waitFor(() => s.frame().includes("nothing is running"), "/cancel with nothing running");
  assert.equal(s.quits(), 0);
});

test("Ctrl+C once cancels the running turn; twice quits", async () => {
  const s = setup(async (_p, o) => {
    const out = await o.executor.call("wait", { ms: 20000 }, {});
    return out.ok ? {} : { error: "cancelled" };
  });
  await s.type("wait\r");
  await waitFor(() => s.session.busy && s.calls.length === 1, "running");
  await s.type("\x03");
  await waitFor(() => !s.session.busy, "cancelled by ^C");
  assert.equal(s.quits(), 0, "one ^C does not quit");
  assert.match(s.frame(), /Press \^C again to quit/);
  await s.type("\x03");
  assert.equal(s.quits(), 1, "the second ^C quits");
});

test("App pane scrolls: Shift+Tab focuses it, PgUp/PgDn move it, the programmatic pane stays put", async () => {
  const s = setup(async () => ({}));
  const rows = Array.from({ length: 60 }, (_, i) => ({ row: `APPROW-${i}` }));
  const id = s.store.toolStart("demo", "refresh_dashboard", {});
  s.store.toolEnd(
    id,
    okOutcome(
      {
        app: [{ audience: "io.modelcontextprotocol/ui", format: "structured", structuredContent: { rows } }],
        appMeta: { "io.modelcontextprotocol/ui": { datasetVersion: 7 } },
      },
      { tool: "refresh_dashboard" },
    ),
  );
  // A new entry is shown from its head with a summary, not from its closing braces (34).
  await waitFor(() => /APPROW-0"/.test(s.frame()), "the App pane drawn from the entry's head");
  assert.match(s.frame(), /\{rows: 60 items\}/, "the header's summary");
  assert.ok(!s.frame().includes("datasetVersion"), "the tail (the _meta) is below");
  assert.match(s.frame(), /↓ \d+ more/);
  await s.type("\x1b[Z"); // Shift+Tab
  assert.match(s.frame(), /▸ App · io\.modelcontextprotocol\/ui \(1\)/);
  await s.type("\x1b[4~"); // End
  await waitFor(() => /datasetVersion/.test(s.frame()), "End: the newest lines");
  for (let i = 0; i < 60; i++) await s.type("\x1b[5~"); // PgUp, well past the top
  assert.equal(s.store.getState().progScroll, 0, "the programmatic pane did not move");
  assert.match(s.frame(), /APPROW-0"/, "the top of the App pane is reachable");
  assert.ok(!s.frame().includes("datasetVersion"));
  assert.ok(!s.frame().includes("↑ "), "nothing above the top");
  await s.type("\x1b[6~"); // PgDn
  assert.ok(s.store.getState().appScroll > 0);
  await s.type("\x1b[Z");
  assert.equal(s.store.getState().paneFocus, "programmatic");
  assert.ok(!s.frame().includes("Programmatic ("), "an empty pane stays hidden");
  assert.match(s.frame(), /▸ App/, "the keys go on scrolling the pane that has lines");
});

test("the side pane scrolls by a page (PgUp/PgDn) and to either end (Home/End on an empty prompt); no line is out of reach", async () => {
  const s = setup(async () => ({}));
  const rows = Array.from({ length: 300 }, (_, i) => ({ row: `R-${i}`, note: "x".repeat(90) }));
  const id = s.store.toolStart("demo", "search_customers", {});
  s.store.toolEnd(
    id,
    okOutcome({ programmatic: [{ audience: "programmatic", format: "structured", structuredContent: { rows } }] }),
  );
  await waitFor(() => /"R-0"/.test(s.frame()), "the new entry from its head");
  assert.match(s.frame(), /\{rows: 300 items\}/, "its summary in the header");
  assert.doesNotMatch(s.frame(), /more lines/, "no cut entry");
  assert.doesNotMatch(s.frame(), /x…/, "long lines wrap, never cut");
  await s.type("\x1b[4~"); // End
  await waitFor(() => s.store.getState().progScroll === 0 && /R-299/.test(s.frame()), "End: the newest lines");
  await s.type("\x1b[5~"); // PgUp
  const page = s.store.getState().progScroll;
  assert.ok(page >= 5, `one PgUp moves a page (${page} lines)`);
  await s.type("\x1b[1~"); // Home
  await waitFor(() => /"R-0"/.test(s.frame()), "Home: the oldest line");
  assert.doesNotMatch(s.frame(), /↑ \d+ more/);
  await s.type("\x1b[4~"); // End
  await waitFor(() => s.store.getState().progScroll === 0 && /R-299/.test(s.frame()), "End: the newest line");
});

test("lines entered while a turn runs are queued and run after it; Esc drops them with the turn", async () => {
  const prompts: string[] = [];
  let release: () => void = () => {};
  const s = setup(async (prompt, o) => {
    prompts.push(prompt);
    if (prompt.startsWith("slow"))
      await new Promise<void>((r) => ((release = r), o.signal.addEventListener("abort", () => r(), { once: true })));
    o.onText(`answered ${prompt}.`);
    return {};
  });
  await s.type("slow one\r");
  await waitFor(() => s.session.busy, "running");
  await s.type("second\r");
  assert.match(s.frame(), /queued: second \(Esc cancels\)/);
  assert.deepEqual(prompts, ["slow one"]);
  release();
  await waitFor(() => s.frame().includes("answered second."), "queued line ran");
  assert.deepEqual(prompts, ["slow one", "second"]);
  await s.type("slow two\r");
  await waitFor(() => s.session.busy, "running again");
  await s.type("dropped\r");
  await s.type("\x1b");
  await waitFor(() => !s.session.busy, "cancelled");
  await tick(50);
  assert.deepEqual(prompts, ["slow one", "second", "slow two"]);
});

test("two ^C in one stdin chunk quit", async () => {
  const s = setup(async () => ({}));
  await s.type("\x03\x03");
  assert.equal(s.quits(), 1);
});
