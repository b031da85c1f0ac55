// The real Anthropic SDK against the fake Messages API on 127.0.0.1.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:net";
import { AnthropicModel } from "../../src/model/anthropic.js";
import { Conversation } from "../../src/model/conversation.js";
import { runTurn, type TurnEvent } from "../../src/model/turn.js";
import { callFirstToolThenAnswer, FakeAnthropic } from "../helpers/fake-anthropic.js";
import { ASSISTANT_PNG, CANARY, FakeExecutor, tool, USER_PNG } from "./support.js";

let fake: FakeAnthropic;
before(async () => {
  fake = await new FakeAnthropic().start();
});
after(async () => {
  await fake.stop();
});

function reset(): void {
  fake.requests.length = 0;
  fake.responder = undefined;
}

function model(
  opts: { maxRetries?: number; baseURL?: string; sleep?: (ms: number, signal?: AbortSignal) => Promise<void> } = {},
) {
  return new AnthropicModel({
    apiKey: "sk-test",
    baseURL: opts.baseURL ?? fake.url,
    model: "claude-test",
    maxRetries: opts.maxRetries ?? 2,
    sleep: opts.sleep,
  });
}

const entries = [
  tool("search.customers", { server: "crm", qualifiedName: "search.customers", description: "Search customers" }),
  tool("refresh", { server: "crm" }),
  // App-only (MCP Apps visibility): never offered to the model.
  tool("app_only_refresh", { server: "crm", _meta: { ui: { visibility: ["app"] } } }),
];

test("tool_use then text: streamed, mapped back to the tool, only the model sink sent back", async () => {
  reset();
  const exec = new FakeExecutor(entries, undefined, [{ server: "crm", text: "Always be brief." }]);
  fake.responder = callFirstToolThenAnswer({ query: "Globex" });
  const events: TurnEvent[] = [];
  const conversation = new Conversation();
  const r = await runTurn({
    adapter: model(),
    executor: exec,
    conversation,
    prompt: "find Globex",
    mode: "chat",
    events: (e) => events.push(e),
  });
  assert.equal(r.ok, true, r.error?.message);
  assert.equal(r.answer, "done");
  assert.equal(r.modelRequests, 2);
  assert.equal(fake.requests.length, 2);
  // The sanitized name went out and came back to the exact tool.
  const first = fake.requests[0].body;
  assert.equal(first.stream, true);
  assert.equal(first.model, "claude-test");
  assert.deepEqual(
    first.tools.map((t: { name: string }) => t.name),
    ["search_customers", "refresh"],
  );
  assert.match(JSON.stringify(first.system), /Always be brief/);
  assert.deepEqual(
    exec.calls.map((c) => [c.name, c.args]),
    [["search.customers", { query: "Globex" }]],
  );
  // Second request: a tool_result with the assistant text and image only.
  const second = fake.requests[1].body;
  const toolResult = second.messages[2].content[0];
  assert.equal(toolResult.type, "tool_result");
  assert.equal(toolResult.tool_use_id, second.messages[1].content[1].id);
  assert.deepEqual(toolResult.content[1], {
    type: "image",
    source: { type: "base64", media_type: "image/png", data: ASSISTANT_PNG },
  });
  const raw = fake.allBodies();
  assert.ok(raw.includes(CANARY.assistant));
  for (const c of [CANARY.user, CANARY.programmatic, CANARY.app, CANARY.meta, USER_PNG]) assert.ok(!raw.includes(c), c);
  // Text streamed as deltas (the fake splits each text in 3).
  assert.ok(events.filter((e) => e.type === "text").length >= 4);
});

async function expectErrorThenRecovery(opts: {
  script: () => void;
  kind: string;
  message: RegExp;
  maxRetries?: number;
  baseURL?: string;
}) {
  reset();
  const exec = new FakeExecutor(entries);
  const conversation = new Conversation();
  // An earlier good turn the error must not lose.
  fake.script({ kind: "reply", blocks: [{ type: "text", text: "first answer" }] });
  const ok1 = await runTurn({ adapter: model(), executor: exec, conversation, prompt: "hi", mode: "chat" });
  assert.equal(ok1.ok, true);
  opts.script();
  const errors: TurnEvent[] = [];
  const bad = await runTurn({
    adapter: model({ maxRetries: opts.maxRetries, baseURL: opts.baseURL }),
    executor: exec,
    conversation,
    prompt: "second",
    mode: "chat",
    events: (e) => e.type === "error" && errors.push(e),
  });
  assert.equal(bad.ok, false);
  assert.equal(bad.error?.kind, opts.kind, bad.error?.message);
  assert.match(bad.error!.message, opts.message);
  assert.ok(!bad.error!.message.includes("\n"), "one line");
  assert.equal(errors.length, 1);
  // The next prompt works and carries the conversation so far.
  fake.script({ kind: "reply", blocks: [{ type: "text", text: "recovered" }] });
  const ok2 = await runTurn({ adapter: model(), executor: exec, conversation, prompt: "third", mode: "chat" });
  assert.equal(ok2.ok, true, ok2.error?.message);
  assert.equal(ok2.answer, "recovered");
  const last = fake.requests[fake.requests.length - 1].body;
  const text = JSON.stringify(last.messages);
  assert.ok(text.includes("first answer") && text.includes("hi") && text.includes("third"));
  assert.deepEqual(
    last.messages.map((m: { role: string }) => m.role),
    ["user", "assistant", "user"],
  );
}

test("401: one clear message, conversation kept, next prompt works", async () => {
  await expectErrorThenRecovery({
    script: () =>
      fake.script({ kind: "status", status: 401, errorType: "authentication_error", message: "invalid x-api-key" }),
    kind: "auth",
    message: /rejected the API key \(401: invalid x-api-key\); check ANTHROPIC_API_KEY/,
  });
});

test("429 then success: retried after the wait it asks (shown as a retry event), and the turn succeeds", async () => {
  reset();
  fake.script(
    {
      kind: "status",
      status: 429,
      errorType: "rate_limit_error",
      message: "slow down",
      headers: { "retry-after-ms": "10" },
    },
    { kind: "reply", blocks: [{ type: "text", text: "after retry" }] },
  );
  const waits: number[] = [];
  const retries: TurnEvent[] = [];
  const r = await runTurn({
    adapter: model({ maxRetries: 2, sleep: async (ms) => void waits.push(ms) }),
    executor: new FakeExecutor([]),
    conversation: new Conversation(),
    prompt: "x",
    mode: "chat",
    events: (e) => void (e.type === "retry" && retries.push(e)),
  });
  assert.equal(r.ok, true, r.error?.message);
  assert.equal(r.answer, "after retry");
  assert.equal(fake.requests.length, 2, "one retry");
  assert.deepEqual(waits, [10], "retry-after-ms honoured");
  assert.equal(retries.length, 1);
  const [ev] = retries as Extract<TurnEvent, { type: "retry" }>[];
  assert.deepEqual([ev.waitMs, ev.attempt, ev.of], [10, 1, 2]);
  assert.match(ev.text, /rate-limiting requests \(429\); try again shortly/);
});

test("429 past the retry bound: one clear message after exactly maxRetries+1 attempts", async () => {
  const busy = {
    kind: "status" as const,
    status: 429,
    errorType: "rate_limit_error",
    message: "slow down",
    headers: { "retry-after-ms": "5" },
  };
  await expectErrorThenRecovery({
    script: () => fake.script(busy, busy, busy),
    kind: "rate-limit",
    message: /rate-limiting requests \(429\) after 2 retries/,
  });
  // 1 good + 3 attempts + 1 recovery.
  assert.equal(fake.requests.length, 5);
});

test("overloaded (529): one clear message", async () => {
  const busy = {
    kind: "status" as const,
    status: 529,
    errorType: "overloaded_error",
    message: "Overloaded",
    headers: { "retry-after-ms": "5" },
  };
  await expectErrorThenRecovery({
    script: () => fake.script(busy, busy),
    kind: "overloaded",
    message: /overloaded after 1 retry/,
    maxRetries: 1,
  });
});

test("connection refused: one clear message naming the endpoint", async () => {
  const port = await new Promise<number>((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
  const dead = `http://127.0.0.1:${port}`;
  await expectErrorThenRecovery({
    script: () => {},
    kind: "network",
    message: new RegExp(
      `cannot reach the Anthropic API at ${dead.replace(/[.:/]/g, "\\$&")} \\(ECONNREFUSED\\) after 1 retry`,
    ),
    baseURL: dead,
    maxRetries: 1,
  });
});

test("stream cut mid-message (socket destroyed): one clear message, partial reply not kept", async () => {
  await expectErrorThenRecovery({
    script: () => fake.script({ kind: "cut", textBeforeCut: "PARTIAL-REPLY that never ends" }),
    kind: "stream",
    message: /cut off mid-stream|stream failed/,
    maxRetries: 0,
  });
  assert.ok(!JSON.stringify(fake.requests[fake.requests.length - 1].body.messages).includes("PARTIAL"));
});

test("stream ended cleanly but early (no message_stop): one clear message", async () => {
  await expectErrorThenRecovery({
    script: () => fake.script({ kind: "cut", textBeforeCut: "PARTIAL-REPLY again", clean: true }),
    kind: "stream",
    message: /cut off mid-stream/,
    maxRetries: 0,
  });
  assert.ok(!JSON.stringify(fake.requests[fake.requests.length - 1].body.messages).includes("PARTIAL"));
});

test("cancellation aborts the stream and reaches the executor's call", async () => {
  reset();
  const ac = new AbortController();
  const exec = new FakeExecutor(entries, () => {
    ac.abort();
    return {};
  });
  fake.responder = callFirstToolThenAnswer({ query: "x" });
  const conversation = new Conversation();
  const r = await runTurn({
    adapter: model(),
    executor: exec,
    conversation,
    prompt: "go",
    mode: "chat",
    signal: ac.signal,
  });
  assert.equal(r.ok, false);
  assert.equal(r.error?.kind, "aborted");
  assert.equal(exec.calls[0].opts?.signal, ac.signal);
  assert.equal(fake.requests.length, 1, "no further model request after cancel");
  // Every tool_use still has a result: the next turn's request is valid.
  fake.responder = undefined;
  fake.script({ kind: "reply", blocks: [{ type: "text", text: "fine" }] });
  const next = await runTurn({ adapter: model(), executor: exec, conversation, prompt: "again", mode: "chat" });
  assert.equal(next.ok, true);
  const msgs = fake.requests[1].body.messages;
  assert.equal(msgs[2].content[0].type, "tool_result");
});

test("an error event mid-stream (overloaded): one clear message", async () => {
  await expectErrorThenRecovery({
    script: () => fake.script({ kind: "sse-error", errorType: "overloaded_error", message: "Overloaded" }),
    kind: "overloaded",
    message: /overloaded/,
    maxRetries: 0,
  });
});

test("a malformed event in the stream: one clear message", async () => {
  await expectErrorThenRecovery({
    script: () => fake.script({ kind: "garbage" }),
    kind: "stream",
    message: /cut off mid-stream|stream failed/,
    maxRetries: 0,
  });
});

test("the tool-use loop is bounded: a model that never stops calling tools ends after maxRounds", async () => {
  reset();
  fake.responder = () => ({ kind: "reply", blocks: [{ type: "tool_use", name: "refresh", input: {} }] });
  const exec = new FakeExecutor(entries);
  const r = await runTurn({
    adapter: model(),
    executor: exec,
    conversation: new Conversation(),
    prompt: "loop",
    mode: "chat",
    maxRounds: 3,
  });
  assert.equal(r.ok, true);
  assert.equal(r.roundLimitHit, true);
  assert.equal(r.modelRequests, 3);
  assert.equal(fake.requests.length, 3);
  assert.equal(exec.calls.length, 3);
  assert.match(r.answer, /Stopped after 3 tool rounds/);
});

test("a sampling request's maxTokens, temperature and stopSequences go to the Messages API; no tools", async () => {
  reset();
  const { sampleWith } = await import("../../src/model/sampling.js");
  const text = await sampleWith(model(), {
    server: "crm",
    messages: [{ role: "user", text: "hi" }],
    systemPrompt: "Be brief",
    maxTokens: 20,
    temperature: 0.5,
    stopSequences: ["STOP"],
  });
  assert.equal(typeof text, "string");
  const body = fake.requests[0].body;
  assert.equal(body.max_tokens, 20);
  assert.equal(body.temperature, 0.5);
  assert.deepEqual(body.stop_sequences, ["STOP"]);
  assert.equal(body.tools, undefined);
  assert.match(JSON.stringify(body.system), /Be brief/);
});

test("a context-length error is named as such, with the numbers (the Messages API's 'prompt is too long')", async () => {
  reset();
  const window = fake.contextWindow;
  fake.contextWindow = 50;
  try {
    const conversation = new Conversation();
    const r = await runTurn({
      adapter: model(),
      executor: new FakeExecutor([]),
      conversation,
      prompt: "x".repeat(400),
      mode: "chat",
    });
    assert.equal(r.error?.kind, "context-length");
    assert.match(r.error!.message, /over anthropic:claude-test's context window \(50 tokens; the request had \d+\)/);
  } finally {
    fake.contextWindow = window;
  }
});
