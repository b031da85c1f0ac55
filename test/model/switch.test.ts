// One conversation, three providers in turn (Anthropic → OpenAI-compatible → offline → Anthropic),
// tool calls in between: every request is one the real API accepts (both fakes enforce its
// rules), including call ids the other API would refuse, remapped on the way.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { AnthropicModel } from "../../src/model/anthropic.js";
import { OpenAIModel } from "../../src/model/openai.js";
import { OfflineModel } from "../../src/model/offline.js";
import { Conversation } from "../../src/model/conversation.js";
import { runTurn } from "../../src/model/turn.js";
import { FakeAnthropic } from "../helpers/fake-anthropic.js";
import { FakeOpenAI } from "../helpers/fake-openai.js";
import { CANARY, FakeExecutor, tool, USER_PNG } from "./support.js";

let anthropic: FakeAnthropic;
let openai: FakeOpenAI;
before(async () => {
  anthropic = await new FakeAnthropic().start();
  openai = await new FakeOpenAI().start();
});
after(async () => {
  await anthropic.stop();
  await openai.stop();
});

test("Anthropic → OpenAI-compatible → offline → Anthropic in one session keeps a conversation each API accepts", async () => {
  const exec = new FakeExecutor([tool("refresh", { server: "crm" })]);
  const conversation = new Conversation();
  const claude = new AnthropicModel({ apiKey: "sk-test", baseURL: anthropic.url, model: "claude-test", maxRetries: 0 });
  const gpt = new OpenAIModel({
    provider: "openai-compatible",
    model: "fake-large",
    baseURL: openai.baseURL,
    contextWindow: 100_000,
    maxRetries: 0,
  });
  // A 60-character Anthropic id: over the 40 some Chat Completions deployments take.
  const longId = `toolu_${"a".repeat(54)}`;
  anthropic.script(
    {
      kind: "reply",
      blocks: [
        { type: "text", text: "calling" },
        { type: "tool_use", name: "refresh", input: {}, id: longId },
      ],
    },
    { kind: "reply", blocks: [{ type: "text", text: "claude done" }] },
  );
  const t1 = await runTurn({ adapter: claude, executor: exec, conversation, prompt: "one", mode: "chat" });
  assert.equal(t1.ok, true, t1.error?.message);

  // An id with characters Anthropic's pattern refuses.
  openai.script(
    { kind: "reply", calls: [{ name: "refresh", args: {}, id: "fn:call/1.x" }] },
    { kind: "reply", text: "gpt done" },
  );
  const t2 = await runTurn({ adapter: gpt, executor: exec, conversation, prompt: "two", mode: "chat" });
  assert.equal(t2.ok, true, t2.error?.message);
  assert.deepEqual(openai.refused, []);
  const sent = openai.chats()[0].body.messages;
  assert.deepEqual(
    sent.map((m: any) => m.role),
    ["system", "user", "assistant", "tool", "user", "assistant", "user"],
  );
  assert.ok(sent[2].tool_calls[0].id.length <= 40 && sent[3].tool_call_id === sent[2].tool_calls[0].id);

  const t3 = await runTurn({
    adapter: new OfflineModel({ chunkDelayMs: 0 }),
    executor: exec,
    conversation,
    prompt: "three",
    mode: "chat",
  });
  assert.equal(t3.ok, true, t3.error?.message);

  anthropic.script({ kind: "reply", blocks: [{ type: "text", text: "back" }] });
  const t4 = await runTurn({ adapter: claude, executor: exec, conversation, prompt: "four", mode: "chat" });
  assert.equal(t4.ok, true, t4.error?.message);
  assert.deepEqual(anthropic.refused, []);
  const last = anthropic.requests.at(-1)!.body.messages;
  const text = JSON.stringify(last);
  for (const said of ["one", "claude done", "two", "gpt done", "three", "four"]) assert.ok(text.includes(said), said);
  const uses = last
    .flatMap((m: any) => (Array.isArray(m.content) ? m.content : []))
    .filter((b: any) => b.type === "tool_use");
  assert.ok(
    uses.every((u: any) => /^[a-zA-Z0-9_-]+$/.test(u.id)),
    JSON.stringify(uses.map((u: any) => u.id)),
  );
  // The leak canary across both APIs: only the assistant sink went anywhere.
  for (const raw of [anthropic.allBodies(), openai.allBodies()]) {
    assert.ok(raw.includes(CANARY.assistant));
    for (const c of [CANARY.user, CANARY.programmatic, CANARY.app, CANARY.meta, USER_PNG])
      assert.ok(!raw.includes(c), c);
  }
});
