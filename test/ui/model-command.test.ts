// /model in the chat session: lists the endpoint's models (GET /v1/models of the fake, through the
// real openai SDK) and switches; the next turn goes to the new model with the same conversation.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { ChatSession } from "../../src/ui/session.js";
import { SessionStore } from "../../src/ui/state.js";
import { Conversation } from "../../src/model/conversation.js";
import { createModel } from "../../src/model/select.js";
import type { ModelAdapter } from "../../src/model/adapter.js";
import { modelTurnRunner } from "../../src/cli/commands/tui-render.js";
import { FakeOpenAI } from "../helpers/fake-openai.js";
import { FakeExecutor } from "../model/support.js";

let fake: FakeOpenAI;
before(async () => {
  fake = await new FakeOpenAI().start();
});
after(async () => fake.stop());

test("/model lists the endpoint's models and switches mid-session; the conversation goes on", async () => {
  let adapter: ModelAdapter = createModel({ flag: "openai-compatible:fake-large", baseURL: fake.baseURL, env: {} });
  const conversation = new Conversation();
  const store = new SessionStore({ mode: "chat" });
  const executor = new FakeExecutor([]);
  const session = new ChatSession({
    store,
    executor,
    host: { tools: async () => [], servers: () => [], call: executor.call.bind(executor) },
    runTurn: modelTurnRunner(
      () => adapter,
      () => conversation,
    ),
    autoApprove: true,
    model: {
      current: () => adapter.id,
      list: (signal) => adapter.listModels!(signal),
      use: (spec) => (adapter = createModel({ flag: `openai-compatible:${spec}`, baseURL: fake.baseURL, env: {} })).id,
    },
  });
  const shown = () => JSON.stringify(store.getState());
  fake.script({ kind: "reply", text: "first answer" });
  await session.submit("hello");
  await session.submit("/model");
  assert.match(shown(), /model is openai-compatible:fake-large; the endpoint serves:.*fake-small/);
  await session.submit("/model fake-small");
  assert.match(shown(), /model set to openai-compatible:fake-small/);
  fake.script({ kind: "reply", text: "second answer" });
  await session.submit("again");
  const last = fake.chats().at(-1)!.body;
  assert.equal(last.model, "fake-small");
  assert.match(JSON.stringify(last.messages), /hello.*first answer.*again/);
});

test("after /model the app's capabilities (what /show says the model saw, the context window) are the new model's", async () => {
  let adapter: ModelAdapter = createModel({ flag: "offline" });
  const executor = new FakeExecutor([]);
  const session = new ChatSession({
    store: new SessionStore({ mode: "chat" }),
    executor,
    host: { tools: async () => [], servers: () => [], call: executor.call.bind(executor) },
    runTurn: modelTurnRunner(
      () => adapter,
      () => new Conversation(),
    ),
    modelCapabilities: () => adapter.capabilities,
    model: {
      current: () => adapter.id,
      list: async () => [],
      use: (spec) =>
        (adapter = createModel({
          flag: spec,
          baseURL: fake.baseURL,
          env: {},
          config: { provider: "openai-compatible", model: "fake-small", baseURL: fake.baseURL, contextWindow: 8192 },
        })).id,
    },
  });
  const before = session.commandContext().modelCapabilities;
  await session.submit("/model openai-compatible:fake-small");
  const now = session.commandContext().modelCapabilities;
  assert.equal(now, adapter.capabilities);
  assert.notEqual(now, before);
  assert.equal(session.capabilities()?.contextWindow, 8192);
});
