import "./env.js";
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { App, layoutFor } from "../../src/ui/App.js";
import { ChatSession, type TurnRunner } from "../../src/ui/session.js";
import { SessionStore } from "../../src/ui/state.js";
import type { ToolEntry, ToolExecutor } from "../../src/host/types.js";
import { renderAt, tick, waitFor, stripAnsi, okOutcome, assertNeutralized, HOSTILE, type Harness } from "./harness.js";

const open: Harness[] = [];
after(() => open.forEach((h) => h.unmount()));

const entry: ToolEntry = {
  server: "demo",
  name: "refresh_dashboard",
  qualifiedName: "refresh_dashboard",
  inputSchema: { type: "object" },
  era: "2026-12-01",
  variants: [],
};

function setup(columns: number, opts: { autoApprove?: boolean; text?: string } = {}) {
  const executor: ToolExecutor = {
    modelTools: () => [entry],
    instructions: () => [],
    call: async (_name, _args, o) => {
      o?.onProgress?.({ progress: 1, total: 2, message: "working" });
      await tick(10);
      return okOutcome(
        {
          model: [{ audience: "assistant", format: "content", content: [{ type: "text", text: "MODEL-ONLY" }] }],
          user: [{ audience: "user", format: "content", content: [{ type: "text", text: "USER-VISIBLE" }] }],
          programmatic: [{ audience: "programmatic", format: "structured", structuredContent: { p: "PROG-CANARY" } }],
          app: [
            { audience: "io.modelcontextprotocol/ui", format: "structured", structuredContent: { a: "APP-CANARY" } },
          ],
        },
        { tool: "refresh_dashboard" },
      );
    },
  };
  const runTurn: TurnRunner = async (_prompt, o) => {
    o.onText("Looking… ");
    await o.executor.call("refresh_dashboard", { range: "7d" }, { mode: o.mode, signal: o.signal });
    o.onText(opts.text ?? "Dashboard refreshed.");
    return {};
  };
  const store = new SessionStore();
  const session = new ChatSession({
    store,
    executor,
    host: { tools: async () => [entry], servers: () => [], call: executor.call },
    runTurn,
    autoApprove: opts.autoApprove ?? true,
  });
  const h = renderAt(
    <App
      session={session}
      servers={() => [{ name: "demo", protocolVersion: "2026-12-01", state: "connected" }]}
      modelName="offline"
    />,
    columns,
    40,
  );
  open.push(h);
  const type = async (s: string) => {
    h.stdin.write(s);
    await tick(20);
  };
  return { h, session, store, type, frame: () => stripAnsi(h.lastFrame()) };
}

function lineIndex(frame: string, re: RegExp): number {
  return frame.split("\n").findIndex((l) => re.test(l));
}

test("layout: side pane beside the conversation at 120 and 80 columns, folded below under 60", async () => {
  assert.deepEqual(layoutFor(56, true), { narrow: true, main: 56, side: 56 });
  assert.equal(layoutFor(80, true).narrow, false);
  assert.equal(layoutFor(120, true).narrow, false);
  const wide = setup(120);
  await wide.type("hi");
  await wide.type("\r");
  await waitFor(() => wide.frame().includes("Dashboard refreshed."), "turn end");
  const f = wide.frame();
  const promptRow = lineIndex(f, /› $|› \s/);
  const progRow = lineIndex(f, /Programmatic \(1\)/);
  assert.ok(progRow >= 0 && promptRow >= 0);
  assert.ok(f.split("\n").some((l) => /PROG-CANARY/.test(l)));
  // Beside: the pane title shares rows with the main column, right of it.
  assert.ok(f.split("\n")[progRow].indexOf("Programmatic") > 60, "pane is on the right");

  const narrow = setup(56);
  await narrow.type("hi");
  await narrow.type("\r");
  await waitFor(() => narrow.frame().includes("Dashboard refreshed."), "turn end");
  const g = narrow.frame();
  const titleRow = lineIndex(g, /Programmatic \(1\)/);
  assert.ok(g.split("\n")[titleRow].indexOf("Programmatic") < 5, "pane starts at the left edge");
  assert.ok(titleRow > lineIndex(g, /^› /), "pane is below the prompt");
  for (const l of g.split("\n")) assert.ok([...l].length <= 56, `line wider than 56: ${l}`);
});

test("a turn streams text, shows the card and user content in place; sinks stay in their panes", async () => {
  const s = setup(140);
  await s.type("refresh");
  await s.type("\r");
  await waitFor(() => s.frame().includes("Dashboard refreshed."), "turn end");
  const lines = s.frame().split("\n");
  const convLines = lines.map((l) => l.slice(0, layoutFor(140, true).main));
  const conv = convLines.join("\n");
  assert.match(conv, /› refresh/);
  assert.match(conv, /Looking…/);
  assert.match(conv, /✓ demo · refresh_dashboard/);
  assert.match(conv, /USER-VISIBLE/);
  assert.ok(!conv.includes("PROG-CANARY") && !conv.includes("APP-CANARY"), "side sinks never in the conversation");
  const sideText = lines.map((l) => l.slice(layoutFor(140, true).main)).join("\n");
  assert.match(sideText, /App · io\.modelcontextprotocol\/ui/);
  assert.ok(!sideText.includes("USER-VISIBLE"));
  assert.match(s.frame(), /● demo 2026-12-01 connected/);
  assert.match(s.frame(), /mode chat · model offline/);
});

test("the side pane: hidden while empty, announced once, ^T toggles it (Tab does not); resize refolds it", async () => {
  const s = setup(120);
  assert.ok(!s.frame().includes("Programmatic"), "hidden while empty");
  await s.type("\x14"); // ^T
  await waitFor(() => s.frame().includes("the side pane is empty"), "^T on an empty pane says when it appears");
  await s.type("go");
  await s.type("\r");
  await waitFor(() => s.frame().includes("Dashboard refreshed."), "turn end");
  assert.match(s.frame(), /Programmatic \(1\)/);
  assert.equal(
    s.frame().match(/programmatic output goes to the side pane/g)?.length,
    1,
    "its first output announced in one line",
  );
  await s.type("\t");
  assert.match(s.frame(), /Programmatic \(1\)/, "Tab leaves the pane alone");
  await s.type("\x14");
  await waitFor(() => !s.frame().includes("Programmatic ("), "^T hides the pane");
  await s.type("\x14");
  await waitFor(() => s.frame().includes("Programmatic (1)"), "^T shows it again");
  const wideCol = s.frame().split("\n")[lineIndex(s.frame(), /Programmatic/)].indexOf("Programmatic");
  assert.ok(wideCol > 40);
  s.h.resize(56);
  const folded = () => {
    const f = s.frame();
    const at = lineIndex(f, /Programmatic/);
    return at >= 0 && f.split("\n")[at].indexOf("Programmatic") < 5;
  };
  await waitFor(folded, "the side pane folded below after resize");
});

test("approval: the prompt names tool and server; n declines with a failed card", async () => {
  const s = setup(120, { autoApprove: false });
  await s.type("go");
  await s.type("\r");
  await waitFor(() => s.frame().includes("[y]es / [n]o / [a]lways"), "approval prompt");
  assert.match(s.frame(), /Run tool refresh_dashboard on server demo with \{"range":"7d"\}\?/);
  await s.type("n");
  await waitFor(() => s.frame().includes("Dashboard refreshed."), "turn end");
  assert.match(s.frame(), /✗ demo · refresh_dashboard failed \[not-approved\]: the user declined/);
  assert.ok(!s.frame().includes("PROG-CANARY"));
});

test("hostile model text through the whole app is neutralized", async () => {
  const s = setup(120, { text: HOSTILE });
  await s.type("x");
  await s.type("\r");
  await waitFor(() => s.frame().includes("␛]0;pwned"), "turn end");
  assertNeutralized(s.h.lastFrame());
});
