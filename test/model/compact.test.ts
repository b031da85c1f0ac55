// Issue 29: a long session stays inside the model's window. Through the real SDKs against fakes
// that enforce the real APIs' rules (the Messages API's alternation and tool_use/tool_result
// pairing, 200,000-token window; Chat Completions' tool message rules, its context length), a
// 300-turn session with a tool call in every turn never meets a context-length error: near the
// window the older turns become a summary (never between a tool call and its result), the newest
// turns stay whole, and the transcript's records rebuild the same context on resume.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { AnthropicModel } from "../../src/model/anthropic.js";
import { createModel } from "../../src/model/select.js";
import { OfflineModel } from "../../src/model/offline.js";
import { Conversation, type ConversationItem } from "../../src/model/conversation.js";
import { runTurn } from "../../src/model/turn.js";
import { compact, compactionCut, contextTokens, offlineSummary, SUMMARY_LABEL } from "../../src/model/compact.js";
import { contextItemRecord } from "../../src/model/context-record.js";
import { parseContextItem } from "../../src/model/context-parse.js";
import type { ModelSinkEntry } from "../../src/host/types.js";
import { callFirstToolThenAnswer, FakeAnthropic } from "../helpers/fake-anthropic.js";
import { FakeOpenAI } from "../helpers/fake-openai.js";
import { FakeExecutor, tool } from "./support.js";

let anthropicFake: FakeAnthropic;
let openaiFake: FakeOpenAI;
before(async () => {
  anthropicFake = await new FakeAnthropic().start();
  openaiFake = await new FakeOpenAI().start();
});
after(async () => {
  await anthropicFake.stop();
  await openaiFake.stop();
});

/** A tool whose result is ≈1,500 tokens of text for the model. */
function bigResultExecutor(): FakeExecutor {
  const text = (n: number) => `row ${n}: ${"lorem ipsum dolor sit amet ".repeat(220)}`;
  let n = 0;
  return new FakeExecutor(
    [tool("lookup", { inputSchema: { type: "object", properties: { q: { type: "string" } } } })],
    () => ({
      routed: {
        model: [
          { audience: "assistant", format: "content", content: [{ type: "text", text: text(++n) }] } as ModelSinkEntry,
        ],
        user: [],
        programmatic: [],
        app: [],
        appMeta: {},
      },
    }),
  );
}

/** Runs `turns` turns, each with a tool call; returns the conversation, the compaction notices and how many turns failed. */
async function longSession(adapter: AnthropicModel | ReturnType<typeof createModel>, turns: number) {
  const conversation = new Conversation();
  const executor = bigResultExecutor();
  const compactions: string[] = [];
  let failed = 0;
  for (let i = 0; i < turns; i++) {
    const r = await runTurn({
      adapter,
      executor,
      conversation,
      prompt: `turn ${i}: ${"please look this up and tell me what you find. ".repeat(40)}`,
      mode: "chat",
      events: (e) => void (e.type === "notice" && e.text.startsWith("context compacted") && compactions.push(e.text)),
    });
    if (!r.ok) failed++;
  }
  return { conversation, compactions, failed };
}

test("Messages API: 300 turns with a tool call each never meet the 200,000-token window; peak ≤ 0.9 of it", async () => {
  anthropicFake.responder = callFirstToolThenAnswer({ q: "x" });
  anthropicFake.peakTokens = 0;
  const adapter = new AnthropicModel({
    apiKey: "sk-test",
    baseURL: anthropicFake.url,
    model: "claude-test",
    maxRetries: 0,
  });
  const { conversation, compactions, failed } = await longSession(adapter, 300);
  assert.equal(failed, 0);
  assert.deepEqual(anthropicFake.refused, [], "no request was refused (window, alternation, pairing)");
  assert.ok(compactions.length >= 2, `compacted more than once: ${compactions.length}`);
  assert.ok(anthropicFake.peakTokens <= 0.9 * anthropicFake.contextWindow, `peak ${anthropicFake.peakTokens}`);
  assert.ok(
    (conversation.items[0] as { text?: string }).text?.startsWith(SUMMARY_LABEL),
    "the context starts with the summary",
  );
  // The summarising requests went to the same model, without tools.
  assert.ok(
    anthropicFake.requests.some(
      (r) =>
        r.body?.system?.includes?.("You compact a chat") ||
        JSON.stringify(r.body?.system ?? "").includes("You compact a chat"),
    ),
  );
  anthropicFake.responder = undefined;
});

test("Chat Completions: the same session through the openai SDK stays inside its context length", async () => {
  openaiFake.contextTokens = 60_000;
  // Each turn calls the tool once, then answers (the last message says which step this is).
  openaiFake.responder = (body) => {
    const msgs: { role: string }[] = body?.messages ?? [];
    const name = body?.tools?.[0]?.function?.name;
    return msgs[msgs.length - 1]?.role === "tool" || !name
      ? { kind: "reply", text: "done" }
      : { kind: "reply", text: "Let me call it.", calls: [{ name, args: { q: "x" } }] };
  };
  const adapter = createModel({
    config: { provider: "openai-compatible", model: "fake-large", baseURL: openaiFake.baseURL, contextWindow: 60_000 },
    env: {},
  });
  const { compactions, failed } = await longSession(adapter, 80);
  assert.equal(failed, 0);
  assert.ok(compactions.length >= 1, "compacted");
  assert.deepEqual(openaiFake.refused, [], "no request refused (context length, tool message rules)");
  assert.ok(
    openaiFake.chats().filter((r) => JSON.stringify(r.body).includes('"role":"tool"')).length >= 80,
    "a tool call in every turn",
  );
  openaiFake.responder = undefined;
});

/** A conversation of `turns` turns, each: user, assistant with a call, its result, assistant's answer. */
function turnsOf(turns: number): ConversationItem[] {
  const items: ConversationItem[] = [];
  for (let i = 0; i < turns; i++) {
    items.push({ role: "user", text: `question ${i} ${"x".repeat(400)}` });
    items.push({
      role: "assistant",
      text: "",
      toolCalls: [{ id: `c${i}`, name: "lookup", server: "s", tool: "lookup", args: {} }],
    });
    items.push({
      role: "tool",
      callId: `c${i}`,
      isError: false,
      result: [
        {
          audience: "assistant",
          format: "content",
          content: [{ type: "text", text: "y".repeat(800) }],
        } as ModelSinkEntry,
      ],
    });
    items.push({ role: "assistant", text: `answer ${i}`, toolCalls: [] });
  }
  return items;
}

test("the cut is always at a user turn: a tool call and its result stay together; the newest turn is kept", () => {
  const caps = new OfflineModel().capabilities;
  const items = turnsOf(40);
  for (const keep of [0, 300, 2000, 8000, 1e9]) {
    const cut = compactionCut(items, caps, keep);
    if (cut === 0) continue;
    assert.equal(items[cut].role, "user", `keep ${keep}`);
    const kept = items.slice(cut);
    const calls = new Set(kept.flatMap((i) => (i.role === "assistant" ? i.toolCalls.map((c) => c.id) : [])));
    for (const i of kept)
      if (i.role === "tool") assert.ok(calls.has(i.callId), `result ${i.callId} kept without its call`);
    assert.ok(cut <= items.length - 4, "the newest turn is never compacted");
  }
  assert.equal(compactionCut(turnsOf(1), caps, 0), 0, "one turn: nothing to compact");
});

test("the offline model's summary is deterministic; /compact's numbers; the transcript records rebuild the same context", async () => {
  const conversation = Conversation.from(turnsOf(30));
  const model = new OfflineModel({ chunkDelayMs: 0 });
  const recorded: unknown[] = conversation.items.map((i) => contextItemRecord(i));
  conversation.observe((c) => {
    if (c.type === "compacted")
      recorded.push({
        compacted: { removed: c.removed, items: c.items.map((i) => (contextItemRecord(i) as { item: unknown }).item) },
      });
  });
  const before = contextTokens(conversation.items, model.capabilities);
  const c = await compact(conversation, model);
  assert.ok(c, "compacted");
  assert.equal(c.before, before);
  assert.ok(c.after < c.before / 2, `${c.before} → ${c.after}`);
  assert.equal(c.summary, `${SUMMARY_LABEL}\n${offlineSummary(turnsOf(30).slice(0, c.replaced))}`);
  assert.match(c.summary, /earlier prompts: "question 0 x+"; .*Tools called: lookup ×\d+\./);
  // Replaying the records (as a resume does) gives the same items.
  const replay: ConversationItem[] = [];
  for (const r of recorded as ({ item: unknown } | { compacted: { removed: number; items: unknown[] } })[]) {
    if ("item" in r) {
      const p = parseContextItem(r.item);
      assert.ok(p.ok);
      replay.push(p.value);
    } else
      replay.splice(
        0,
        r.compacted.removed,
        ...r.compacted.items.map((i) => (parseContextItem(i) as { ok: true; value: ConversationItem }).value),
      );
  }
  assert.deepEqual(JSON.parse(JSON.stringify(replay)), JSON.parse(JSON.stringify(conversation.items)));
});
