import { test } from "node:test";
import assert from "node:assert/strict";
import { OfflineModel } from "../../src/model/offline.js";
import { extractArgs, pickTool } from "../../src/model/offline-args.js";
import { Conversation } from "../../src/model/conversation.js";
import { runTurn, type TurnEvent } from "../../src/model/turn.js";
import type { ModelToolSpec } from "../../src/model/adapter.js";
import { CANARY, codeModeRouted, FakeExecutor, tool } from "./support.js";

const specs: ModelToolSpec[] = [
  {
    name: "search_customers",
    description: "Search the customer records by name.",
    inputSchema: { type: "object", properties: { query: { type: "string" }, limit: { type: "integer" } } },
  },
  {
    name: "generate_images",
    description: "Generate pictures from a text prompt.",
    inputSchema: { type: "object", properties: { prompt: { type: "string" }, count: { type: "integer" } } },
  },
  {
    name: "lookup_order",
    description: "Look up an order by its id.",
    inputSchema: { type: "object", properties: { orderId: { type: "string" } } },
  },
  {
    name: "legacy_weather",
    description: "Current weather for a city.",
    inputSchema: { type: "object", properties: { city: { type: "string" } } },
  },
];
const entries = specs.map((s) => tool(s.name, { description: s.description, inputSchema: s.inputSchema }));

test("tool choice from the user's words, with obvious arguments", () => {
  assert.equal(pickTool("search customers for Globex", specs)?.name, "search_customers");
  assert.deepEqual(extractArgs("search customers for Globex", specs[0]), { query: "Globex" });
  assert.deepEqual(extractArgs("find Initech", specs[0]), { query: "Initech" });
  assert.equal(pickTool("draw two images of a sunrise over Puget Sound", specs)?.name, "generate_images");
  assert.deepEqual(extractArgs("draw two images of a sunrise over Puget Sound", specs[1]), {
    prompt: "sunrise over Puget Sound",
    count: 2,
  });
  assert.deepEqual(extractArgs('generate 3 images "a red fox"', specs[1]), { prompt: "a red fox", count: 3 });
  assert.equal(pickTool("where is my order ORD-1234?", specs)?.name, "lookup_order");
  assert.deepEqual(extractArgs("where is my order ORD-1234?", specs[2]), { orderId: "ORD-1234" });
  assert.equal(pickTool("what's the weather in Seattle", specs)?.name, "legacy_weather");
  assert.deepEqual(extractArgs("what's the weather in Seattle", specs[3]), { city: "Seattle" });
  assert.equal(pickTool("hello there", specs), undefined);
});

async function turn(prompt: string, exec: FakeExecutor, mode: "chat" | "code" = "chat") {
  const events: TurnEvent[] = [];
  const conversation = new Conversation();
  const result = await runTurn({
    adapter: new OfflineModel({ chunkDelayMs: 0 }),
    executor: exec,
    conversation,
    prompt,
    mode,
    events: (e) => events.push(e),
  });
  return { result, events, conversation };
}

test("explicit call TOOL {json} calls exactly that tool with those arguments", async () => {
  const exec = new FakeExecutor(entries);
  const { result } = await turn('call lookup_order {"orderId": "X-1", "extra": [1]}', exec);
  assert.equal(result.ok, true);
  assert.deepEqual(
    exec.calls.map((c) => [c.name, c.args]),
    [["lookup_order", { orderId: "X-1", extra: [1] }]],
  );
  assert.equal(exec.calls[0].opts?.mode, "chat");
  assert.equal(result.modelRequests, 2);
});

test("explicit call with bad JSON or an unknown tool says so and calls nothing", async () => {
  const exec = new FakeExecutor(entries);
  const bad = await turn("call lookup_order {nope}", exec);
  assert.match(bad.result.answer, /could not read the arguments for lookup_order/);
  const unknown = await turn("call nosuch {}", exec);
  assert.match(unknown.result.answer, /There is no tool called nosuch/);
  assert.equal(exec.calls.length, 0);
});

test("no matching tool: the reply lists the tools that exist", async () => {
  const exec = new FakeExecutor(entries);
  const { result } = await turn("hello there", exec);
  assert.equal(exec.calls.length, 0);
  for (const s of specs) assert.ok(result.answer.includes(s.name), s.name);
  const none = await turn("hello", new FakeExecutor([]));
  assert.match(none.result.answer, /No tools are available/);
});

test("the answer is built only from the model sink: assistant canary in, every other canary out", async () => {
  const exec = new FakeExecutor(entries);
  const { result, events } = await turn("search customers for Globex", exec);
  assert.equal(result.ok, true);
  assert.deepEqual(exec.calls[0].args, { query: "Globex" });
  assert.ok(result.answer.includes(CANARY.assistant), result.answer);
  for (const c of [CANARY.user, CANARY.programmatic, CANARY.app, CANARY.meta]) assert.ok(!result.answer.includes(c), c);
  assert.match(result.answer, /I received 1 image \(image\/png\)/);
  // It streamed: several text deltas, in order, adding up to the answer.
  const deltas = events.filter((e) => e.type === "text").map((e) => (e as { delta: string }).delta);
  assert.ok(deltas.length > 3);
  assert.ok(deltas.join("").endsWith(result.answer));
  // The UI still gets the full outcome through the events.
  const outcome = events.find((e) => e.type === "tool-outcome");
  assert.ok(outcome && outcome.type === "tool-outcome" && outcome.outcome?.ok);
});

test("code mode: the offline model reports the host's receipt and no data", async () => {
  const { routed, receipt } = codeModeRouted();
  const exec = new FakeExecutor(entries, () => ({ routed, receipt }));
  const { result } = await turn("search customers for Globex", exec, "code");
  assert.ok(result.answer.includes(`The host's receipt says: ${receipt.text}`));
  assert.match(result.answer, /None of search_customers's output reached me/);
  assert.ok(!/image/i.test(result.answer), "nothing claimed about images it was never going to get");
  for (const c of Object.values(CANARY)) assert.ok(!result.answer.includes(c), c);
  assert.equal(exec.calls[0].opts?.mode, "code");
});

test("a failed call reaches the model as an error receipt written from its rule, never the host's message", async () => {
  const exec = new FakeExecutor(entries, () => ({
    error: { rule: "schema-violation", detail: "bad output HOST-LINE-ONLY" },
  }));
  const { result, conversation } = await turn("lookup order ORD-77", exec);
  assert.match(
    result.answer,
    /reported an error to me: The call failed \(schema-violation\): server test, tool lookup_order: the server's result broke the protocol rules/,
  );
  assert.ok(!result.answer.includes("HOST-LINE-ONLY"), "the user's line (CallError.message) never reaches the model");
  const toolItem = conversation.items.find((i) => i.role === "tool");
  assert.equal(toolItem?.role === "tool" && toolItem.isError, true);
});

test("cancellation: an aborted signal ends the turn with one clear error, conversation well-formed", async () => {
  const exec = new FakeExecutor(entries);
  const ac = new AbortController();
  ac.abort();
  const conversation = new Conversation();
  const result = await runTurn({
    adapter: new OfflineModel(),
    executor: exec,
    conversation,
    prompt: "search customers for X",
    mode: "chat",
    signal: ac.signal,
  });
  assert.equal(result.ok, false);
  assert.equal(result.error?.kind, "aborted");
  assert.equal(exec.calls.length, 0);
  const again = await runTurn({
    adapter: new OfflineModel({ chunkDelayMs: 0 }),
    executor: exec,
    conversation,
    prompt: "search customers for Y",
    mode: "chat",
  });
  assert.equal(again.ok, true);
  assert.deepEqual(exec.calls[0].args, { query: "Y" });
});

test("paths and URIs are taken from the prompt; a required argument it cannot find is asked for, not sent as {}", async () => {
  const read: ModelToolSpec = {
    name: "read_media_file",
    description: "Read an image or audio file.",
    inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
  };
  assert.deepEqual(extractArgs("read the file files/notes.md", read), { path: "files/notes.md" });
  assert.deepEqual(extractArgs("open /tmp/ctx/server.log please", read), { path: "/tmp/ctx/server.log" });
  assert.deepEqual(extractArgs("show me notes.md.", read), { path: "notes.md" });
  const fetchSpec: ModelToolSpec = {
    name: "fetch",
    description: "Fetch a URL.",
    inputSchema: { type: "object", properties: { url: { type: "string" } }, required: ["url"] },
  };
  assert.deepEqual(extractArgs("fetch https://example.com/docs?a=1.", fetchSpec), {
    url: "https://example.com/docs?a=1",
  });
  const model = new OfflineModel({ chunkDelayMs: 0 });
  const executor = new FakeExecutor([
    tool("read_media_file", { description: read.description, inputSchema: read.inputSchema }),
  ]);
  const r = await runTurn({
    adapter: model,
    executor,
    conversation: new Conversation(),
    prompt: "read the media file",
    mode: "chat",
  });
  assert.equal(executor.calls.length, 0, "no call with {}");
  assert.match(r.answer, /read_media_file needs `path`, which I \(the offline model\) could not find in your prompt/);
});

test("after a cancelled call, a new prompt is answered, not the old result", async () => {
  const model = new OfflineModel({ chunkDelayMs: 0 });
  const conversation = new Conversation();
  // What a cancelled call leaves: the call and its error result, with no reply after it.
  conversation.append({ role: "user", text: "search customers for Globex" });
  conversation.append({
    role: "assistant",
    text: "",
    toolCalls: [
      { id: "c1", name: "search_customers", server: "test", tool: "search_customers", args: { query: "Globex" } },
    ],
  });
  conversation.append({
    role: "tool",
    callId: "c1",
    isError: true,
    result: { kind: "receipt", text: "the call was cancelled (cancelled)" },
  });
  const r = await runTurn({
    adapter: model,
    executor: new FakeExecutor(entries),
    conversation,
    prompt: "hello",
    mode: "chat",
  });
  assert.doesNotMatch(r.answer, /cancelled/, r.answer);
});
