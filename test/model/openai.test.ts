// The real `openai` SDK against the fake Chat Completions API on 127.0.0.1 (test/helpers/fake-openai.ts).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { OpenAIModel } from "../../src/model/openai.js";
import { Conversation } from "../../src/model/conversation.js";
import { runTurn, type TurnEvent } from "../../src/model/turn.js";
import { createModel } from "../../src/model/select.js";
import { callFirstToolThenAnswerOpenAI, FakeOpenAI } from "../helpers/fake-openai.js";
import { ASSISTANT_PNG, CANARY, FakeExecutor, tool, USER_PNG } from "./support.js";

let fake: FakeOpenAI;
before(async () => {
  fake = await new FakeOpenAI().start();
});
after(async () => {
  await fake.stop();
});

function reset(): void {
  fake.requests.length = 0;
  fake.refused.length = 0;
  fake.responder = undefined;
  fake.requiredKey = undefined;
  fake.contextTokens = 100_000;
}

const waits: number[] = [];
function model(opts: { maxRetries?: number; vision?: boolean; model?: string } = {}) {
  return new OpenAIModel({
    provider: "openai-compatible",
    model: opts.model ?? "fake-large",
    baseURL: fake.baseURL,
    maxRetries: opts.maxRetries ?? 2,
    vision: opts.vision,
    contextWindow: 100_000,
    // The waits are observed, not slept: a test never depends on the clock.
    sleep: async (ms) => void waits.push(ms),
  });
}

const entries = [
  tool("search.customers", { server: "crm", qualifiedName: "search.customers" }),
  tool("refresh", { server: "crm" }),
];

test("parallel tool calls assembled from deltas; results as tool messages, the image in the next user message; no other sink reaches the request", async () => {
  reset();
  const exec = new FakeExecutor(entries);
  fake.script(
    {
      kind: "reply",
      text: "Two calls.",
      calls: [
        { name: "search_customers", args: { query: "Globex" } },
        { name: "refresh", args: {} },
      ],
      usage: { prompt_tokens: 120, completion_tokens: 30, cached_tokens: 100 },
    },
    { kind: "reply", text: "done" },
  );
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
  assert.deepEqual(
    exec.calls.map((c) => [c.name, c.args]),
    [
      ["search.customers", { query: "Globex" }],
      ["refresh", {}],
    ],
  );
  assert.deepEqual(fake.refused, []);
  const first = fake.chats()[0].body;
  assert.equal(first.stream, true);
  assert.deepEqual(first.stream_options, { include_usage: true });
  assert.deepEqual(
    first.tools.map((t: any) => t.function.name),
    ["search_customers", "refresh"],
  );
  const msgs = fake.chats()[1].body.messages;
  assert.deepEqual(
    msgs.map((m: any) => m.role),
    ["system", "user", "assistant", "tool", "tool", "user"],
  );
  assert.deepEqual(msgs[3].tool_call_id, msgs[2].tool_calls[0].id);
  assert.deepEqual(msgs[4].tool_call_id, msgs[2].tool_calls[1].id);
  assert.equal(typeof msgs[3].content, "string");
  assert.match(msgs[3].content, new RegExp(CANARY.assistant));
  assert.match(msgs[3].content, /image of this result is in the next user message/);
  const img = msgs[5].content;
  assert.match(img[0].text, new RegExp(`output of tool call ${msgs[3].tool_call_id}`));
  assert.equal(img[1].image_url.url, `data:image/png;base64,${ASSISTANT_PNG}`);
  const raw = fake.allBodies();
  for (const c of [CANARY.user, CANARY.programmatic, CANARY.app, CANARY.meta, USER_PNG]) assert.ok(!raw.includes(c), c);
  // The provider's counts, cached tokens apart.
  assert.deepEqual(r.usage.cacheRead >= 100 && r.usage.input >= 20, true);
  assert.ok(events.filter((e) => e.type === "text").length >= 3, "text streamed in deltas");
});

test("a model configured without vision: each image becomes one line, no image_url anywhere", async () => {
  reset();
  fake.responder = callFirstToolThenAnswerOpenAI({});
  const notes: TurnEvent[] = [];
  const r = await runTurn({
    adapter: model({ vision: false }),
    executor: new FakeExecutor(entries),
    conversation: new Conversation(),
    prompt: "x",
    mode: "chat",
    events: (e) => void (e.type === "call-note" && notes.push(e)),
  });
  assert.equal(r.ok, true, r.error?.message);
  const msgs = fake.chats()[1].body.messages;
  assert.match(msgs[3].content, /image\/png image omitted: this model cannot take/);
  assert.ok(!fake.allBodies().includes("image_url"));
  // Said on that call's card, never dropped silently.
  assert.deepEqual(notes, [
    {
      type: "call-note",
      callId: r.toolCalls[0].call.id,
      text: "image/png image omitted: this model cannot take image/png images",
    },
  ]);
});

test("429 with retry-after: the wait it asks is taken and shown, then the turn succeeds", async () => {
  reset();
  waits.length = 0;
  fake.script(
    { kind: "status", status: 429, message: "Rate limit reached", headers: { "retry-after": "3" } },
    { kind: "reply", text: "after retry" },
  );
  const retries: TurnEvent[] = [];
  const r = await runTurn({
    adapter: model(),
    executor: new FakeExecutor([]),
    conversation: new Conversation(),
    prompt: "x",
    mode: "chat",
    events: (e) => void (e.type === "retry" && retries.push(e)),
  });
  assert.equal(r.ok, true, r.error?.message);
  assert.equal(r.answer, "after retry");
  assert.deepEqual(waits, [3000]);
  assert.equal(fake.chats().length, 2);
  // One retry event (the status bar's), with the wait asked and the reason.
  assert.equal(retries.length, 1);
  const [ev] = retries as Extract<TurnEvent, { type: "retry" }>[];
  assert.deepEqual([ev.waitMs, ev.attempt, ev.of], [3000, 1, 2]);
  assert.match(ev.text, /rate-limiting requests \(429: Rate limit reached\)/);
});

test("429 past the bound, or asking a longer wait than allowed: one line, the next prompt works", async () => {
  reset();
  waits.length = 0;
  const conversation = new Conversation();
  const busy = { kind: "status" as const, status: 429, message: "slow down", headers: { "retry-after": "0" } };
  fake.script(busy, busy, busy);
  const r = await runTurn({
    adapter: model(),
    executor: new FakeExecutor([]),
    conversation,
    prompt: "x",
    mode: "chat",
  });
  assert.equal(r.error?.kind, "rate-limit");
  assert.equal(fake.chats().length, 3, "maxRetries + 1 attempts");
  fake.script({ kind: "status", status: 503, message: "down", headers: { "retry-after": "3600" } });
  const r2 = await runTurn({
    adapter: model(),
    executor: new FakeExecutor([]),
    conversation,
    prompt: "y",
    mode: "chat",
  });
  assert.equal(r2.error?.kind, "overloaded");
  assert.equal(fake.chats().length, 4, "an hour's retry-after is not waited for");
  fake.script({ kind: "reply", text: "fine" });
  const ok = await runTurn({
    adapter: model(),
    executor: new FakeExecutor([]),
    conversation,
    prompt: "z",
    mode: "chat",
  });
  assert.equal(ok.ok, true, ok.error?.message);
});

test("a context-length error is named as such, with the numbers", async () => {
  reset();
  fake.contextTokens = 50;
  const r = await runTurn({
    adapter: model(),
    executor: new FakeExecutor([]),
    conversation: new Conversation(),
    prompt: "x".repeat(400),
    mode: "chat",
  });
  assert.equal(r.error?.kind, "context-length");
  assert.match(
    r.error!.message,
    /over openai-compatible:fake-large's context window \(50 tokens; the request had \d+\)/,
  );
});

test("a model without tool support: one line, and the chat goes on without tools", async () => {
  reset();
  const adapter = model({ model: "fake-notools" });
  const notices: string[] = [];
  const r = await runTurn({
    adapter,
    executor: new FakeExecutor(entries),
    conversation: new Conversation(),
    prompt: "hi",
    mode: "chat",
    events: (e) => void (e.type === "notice" && notices.push(e.text)),
  });
  assert.equal(r.ok, true, r.error?.message);
  assert.equal(notices.length, 1);
  assert.match(notices[0], /does not support tools .*: the chat goes on without tools/);
  const [withTools, without] = fake.chats();
  assert.ok(withTools.body.tools?.length);
  assert.equal(without.body.tools, undefined);
  await runTurn({
    adapter,
    executor: new FakeExecutor(entries),
    conversation: new Conversation(),
    prompt: "again",
    mode: "chat",
  });
  assert.equal(fake.chats()[2].body.tools, undefined, "not offered again");
});

for (const [name, scripted] of [
  [
    "socket destroyed mid-tool-call",
    { kind: "cut" as const, text: "PARTIAL-REPLY", call: { name: "refresh", args: { a: 1 } } },
  ],
  [
    "stream ended mid-tool-call",
    { kind: "cut" as const, text: "PARTIAL-REPLY", call: { name: "refresh", args: { a: 1 } }, clean: true },
  ],
  ["a malformed chunk", { kind: "garbage" as const }],
] as const) {
  test(`${name}: one line, the partial reply not kept, the next request valid`, async () => {
    reset();
    const conversation = new Conversation();
    const exec = new FakeExecutor(entries);
    fake.script(scripted);
    const bad = await runTurn({
      adapter: model({ maxRetries: 0 }),
      executor: exec,
      conversation,
      prompt: "go",
      mode: "chat",
    });
    assert.equal(bad.error?.kind, "stream", bad.error?.message);
    assert.ok(!bad.error!.message.includes("\n"));
    assert.equal(exec.calls.length, 0, "a half-streamed call is never run");
    fake.script({ kind: "reply", text: "recovered" });
    const ok = await runTurn({ adapter: model(), executor: exec, conversation, prompt: "again", mode: "chat" });
    assert.equal(ok.ok, true, ok.error?.message);
    assert.ok(!JSON.stringify(fake.chats().at(-1)!.body.messages).includes("PARTIAL"));
    assert.deepEqual(fake.refused, []);
  });
}

test("a sampling request goes to the active provider: maxTokens, temperature, stop; no tools", async () => {
  reset();
  const { sampleWith } = await import("../../src/model/sampling.js");
  fake.script({ kind: "reply", text: "sampled answer" });
  const text = await sampleWith(model(), {
    server: "crm",
    messages: [{ role: "user", text: "hi" }],
    systemPrompt: "Be brief",
    maxTokens: 20,
    temperature: 0.5,
    stopSequences: ["STOP"],
  });
  assert.equal(text, "sampled answer");
  const body = fake.chats()[0].body;
  assert.equal(body.max_completion_tokens, 20);
  assert.equal(body.temperature, 0.5);
  assert.deepEqual(body.stop, ["STOP"]);
  assert.equal(body.tools, undefined);
  assert.deepEqual(body.messages[0], { role: "system", content: "Be brief" });
});

test("listModels: GET /v1/models", async () => {
  reset();
  assert.deepEqual(await model().listModels(), fake.models);
  assert.equal(fake.requests[0].method, "GET");
});

test("keys: a local preset sends none of the environment's; a configured apiKeyEnv goes only to its endpoint; no error line carries a key", async () => {
  reset();
  const env = { OPENAI_API_KEY: "sk-openai-SECRET-1", OPENAI_ORG_ID: "org-SECRET-2", ROUTER_KEY: "sk-router-SECRET-3" };
  const local = createModel({ flag: "ollama:fake-large", baseURL: fake.baseURL, env });
  fake.script({ kind: "reply", text: "hi" });
  const r = await runTurn({
    adapter: local,
    executor: new FakeExecutor([]),
    conversation: new Conversation(),
    prompt: "x",
    mode: "chat",
  });
  assert.equal(r.ok, true, r.error?.message);
  const headers = JSON.stringify(fake.requests[0].headers);
  assert.ok(!headers.includes("SECRET"), headers);
  // openai with a config endpoint elsewhere: OPENAI_API_KEY does not go there.
  const elsewhere = createModel({ config: { provider: "openai", model: "fake-large", baseURL: fake.baseURL }, env });
  await runTurn({
    adapter: elsewhere,
    executor: new FakeExecutor([]),
    conversation: new Conversation(),
    prompt: "x",
    mode: "chat",
  });
  assert.ok(!JSON.stringify(fake.requests[1].headers).includes("SECRET"));
  fake.requiredKey = env.ROUTER_KEY;
  const routed = createModel({
    config: { provider: "openai-compatible", model: "fake-large", baseURL: fake.baseURL, apiKeyEnv: "ROUTER_KEY" },
    env,
  });
  const ok = await runTurn({
    adapter: routed,
    executor: new FakeExecutor([]),
    conversation: new Conversation(),
    prompt: "x",
    mode: "chat",
  });
  assert.equal(ok.ok, true, ok.error?.message);
  fake.requiredKey = "another";
  const denied = await runTurn({
    adapter: routed,
    executor: new FakeExecutor([]),
    conversation: new Conversation(),
    prompt: "x",
    mode: "chat",
  });
  assert.equal(denied.error?.kind, "auth");
  assert.match(denied.error!.message, /rejected the API key \(401: Incorrect API key provided\.\); check ROUTER_KEY/);
  assert.ok(!denied.error!.message.includes("SECRET"));
});

test("OPENAI_CUSTOM_HEADERS (read by the SDK from the environment, meant for OpenAI) reach no endpoint", async () => {
  reset();
  const before = process.env.OPENAI_CUSTOM_HEADERS;
  process.env.OPENAI_CUSTOM_HEADERS = "X-Org-Secret: HEADER-SECRET-4\nAuthorization-Extra: HEADER-SECRET-5";
  try {
    const local = createModel({ flag: "ollama:fake-large", baseURL: fake.baseURL, env: {} });
    fake.script({ kind: "reply", text: "hi" });
    const r = await runTurn({
      adapter: local,
      executor: new FakeExecutor([]),
      conversation: new Conversation(),
      prompt: "x",
      mode: "chat",
    });
    assert.equal(r.ok, true, r.error?.message);
    const headers = JSON.stringify(fake.requests[0].headers);
    assert.ok(!headers.includes("HEADER-SECRET"), headers);
    assert.ok(!/x-org-secret/i.test(headers), headers);
  } finally {
    if (before === undefined) delete process.env.OPENAI_CUSTOM_HEADERS;
    else process.env.OPENAI_CUSTOM_HEADERS = before;
  }
});

test("configuration: presets, flags and the config block", () => {
  const env = { OPENAI_API_KEY: "k" };
  assert.equal(createModel({ flag: "openai:gpt-5.1", env }).id, "openai:gpt-5.1");
  assert.equal(createModel({ flag: "ollama:qwen3:8b", env }).id, "ollama:qwen3:8b");
  assert.equal(createModel({ flag: "ollama:qwen3", env }).capabilities.contextWindow, 32_768);
  assert.equal(
    createModel({ config: { provider: "ollama", model: "q", contextWindow: 8192 }, env }).capabilities.contextWindow,
    8192,
  );
  assert.equal(createModel({ flag: "anthropic", env: { ANTHROPIC_API_KEY: "a" } }).capabilities.contextWindow, 200_000);
  assert.throws(() => createModel({ flag: "openai-compatible:x", env }), /needs an endpoint: --base-url URL/);
  assert.throws(() => createModel({ flag: "openai:gpt", env: {} }), /needs OPENAI_API_KEY/);
  assert.throws(
    () => createModel({ flag: "anthropic", baseURL: "http://x", env: { ANTHROPIC_API_KEY: "a" } }),
    /--base-url goes with an OpenAI-compatible --model/,
  );
  assert.throws(
    () => createModel({ config: { provider: "openai-compatible", model: "m", baseURL: "file:///etc/passwd" }, env }),
    /must be http: or https:/,
  );
  assert.throws(
    () => createModel({ config: { provider: "openai-compatible", model: "m", baseURL: "http://u:p@h/" }, env }),
    /must not carry credentials/,
  );
  assert.throws(
    () => createModel({ config: { provider: "ollama", model: "m", apiKeyEnv: "NOT A NAME" }, env }),
    /apiKeyEnv must be an environment variable's name/,
  );
  assert.throws(() => createModel({ flag: "gemini:x", env }), /--model must be offline or PROVIDER\[:MODEL\]/);
});
