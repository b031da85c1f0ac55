// Code mode in the app, below the terminal: the real ChatSession, runTurn and offline model on the
// REAL demo server (in process). A fenced js block in the prompt runs through run_code: the
// conversation shows the script, each inner call's card (requested programmatic/structured) and
// what the model received; the inner calls' outputs are in the Programmatic pane, never in the
// model's requests. /run runs a script for the user alone.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createDemoServer } from "../../src/demo/server.js";
import { Host } from "../../src/host/host.js";
import { loadDataset, searchCustomers } from "../../src/demo/customers.js";
import type { ModelAdapter, ModelRequest } from "../../src/model/adapter.js";
import { ANTHROPIC_CAPABILITIES } from "../../src/model/context.js";
import { Conversation } from "../../src/model/conversation.js";
import { OfflineModel } from "../../src/model/offline.js";
import { runTurn } from "../../src/model/turn.js";
import { dispatch } from "../../src/ui/commands/index.js";
import { ChatSession, type TurnRunner } from "../../src/ui/session.js";
import { SessionStore, type TurnItem } from "../../src/ui/state.js";
import { config } from "../helpers/host-fixtures.js";
import { memoryServers } from "../helpers/in-memory.js";

const memory = memoryServers({ demo: createDemoServer() });
const offline = new OfflineModel({ chunkDelayMs: 0 });
const seen: string[] = [];
const adapter: ModelAdapter = {
  id: "recording",
  capabilities: ANTHROPIC_CAPABILITIES,
  respond: (req: ModelRequest) => (seen.push(JSON.stringify(req)), offline.respond(req)),
};
let host: Host;
let store: SessionStore;
let session: ChatSession;
before(async () => {
  host = await Host.start({
    config: config(memory.servers),
    mode: "code",
    transport: memory.transport,
    eraCache: false,
  });
  const conversation = new Conversation();
  const runner: TurnRunner = async (prompt, opts) => {
    const r = await runTurn({
      adapter,
      executor: opts.executor,
      conversation,
      prompt,
      hostTools: opts.hostTools,
      mode: opts.mode,
      signal: opts.signal,
      events: (e) => e.type === "text" && opts.onText(e.delta),
    });
    return r.error ? { error: r.error.message } : {};
  };
  store = new SessionStore({ mode: "code" });
  session = new ChatSession({ store, executor: host, host, runTurn: runner, autoApprove: true });
});
after(() => host.close());

const items = (): TurnItem[] => [
  ...store.getState().finished.flatMap((t) => t.items),
  ...(store.getState().live?.items ?? []),
];

const SCRIPT = `let cursor; const counts = {};
do {
  const page = await tools.search_customers({ query: "enterprise", limit: 100, ...(cursor ? { cursor } : {}) });
  for (const c of page.items) counts[c.region] = (counts[c.region] ?? 0) + 1;
  cursor = page.nextCursor;
} while (cursor);
return counts;`;

test("a fenced block through run_code: script card, inner call cards, what the model received; data only in the pane", async () => {
  const paneBefore = store.getState().programmatic.length;
  await session.submit(`count per region\n\`\`\`js\n${SCRIPT}\n\`\`\``);
  const all = items();
  const kinds = all.map((i) => i.kind);
  const script = kinds.indexOf("code");
  const result = kinds.indexOf("code-result");
  assert.ok(script >= 0 && result > script, kinds.join(","));
  const inner = all.slice(script, result).filter((i): i is Extract<TurnItem, { kind: "tool" }> => i.kind === "tool");
  assert.ok(inner.length >= 2, "several pages, each its own card");
  for (const c of inner)
    assert.deepEqual(c.call.outcome?.plan.requested, [{ audience: "programmatic", format: "structured" }]);
  const received = all[result] as Extract<TurnItem, { kind: "code-result" }>;
  assert.equal(received.forModel, true);
  assert.deepEqual(Object.keys(JSON.parse(received.text).value).sort(), ["APAC", "EMEA", "LATAM", "NA"]);
  // The pages went to the Programmatic pane; the model's requests hold the counts, not the pages.
  assert.equal(store.getState().programmatic.length - paneBefore, inner.length);
  const last = seen.at(-1)!;
  assert.ok(last.includes(received.text.slice(0, 40).replace(/"/g, '\\"')));
  // A value every page carries (its provenance) and a customer on the last page: never in a request.
  const sent = seen.join("");
  assert.ok(!sent.includes(loadDataset().datasetVersion), "no page reached the model");
  assert.ok(!sent.includes(searchCustomers("enterprise", 0, 100_000).all.at(-1)!.customerId));
});

test("/run runs a script for the user: its value shown, the model not asked", async () => {
  const before = seen.length;
  await dispatch(
    "/run ```js\nconst p = await tools.search_customers({ query: 'Globex', limit: 2 });\nconsole.log('total', p.total);\nreturn p.items.map((c) => c.customerId);\n```",
    session.commandContext(),
  );
  assert.equal(seen.length, before);
  const result = items()
    .filter((i): i is Extract<TurnItem, { kind: "code-result" }> => i.kind === "code-result")
    .at(-1)!;
  assert.equal(result.forModel, false);
  assert.match(result.text, /^\[\n {2}"cust_\d+",\n {2}"cust_\d+"\n\]\ntotal \d+$/);
  await dispatch("/run while (true) {}", session.commandContext());
  const failed = items()
    .filter((i): i is Extract<TurnItem, { kind: "code-result" }> => i.kind === "code-result")
    .at(-1)!;
  assert.equal(failed.isError, true);
  assert.match(failed.text, /^cpu-time: /);
});
