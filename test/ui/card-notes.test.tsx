// What the model did not get of a result as sent is said on that call's card (issue 28: "never
// dropped silently"): driven through the app's real turn runner and the real openai SDK against the
// fake endpoint, with a model configured without vision. Before, the card said nothing and the
// image's fate was only in /show.
import "./env.js";
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { ChatSession } from "../../src/ui/session.js";
import { SessionStore } from "../../src/ui/state.js";
import { Conversation } from "../../src/model/conversation.js";
import { OpenAIModel } from "../../src/model/openai.js";
import { modelTurnRunner } from "../../src/cli/commands/tui-render.js";
import { ToolCard } from "../../src/ui/components/ToolCard.js";
import { cardDetail } from "../../src/ui/card-detail.js";
import { callFirstToolThenAnswerOpenAI, FakeOpenAI } from "../helpers/fake-openai.js";
import { FakeExecutor, tool } from "../model/support.js";
import { renderAt, stripAnsi } from "./harness.js";

let fake: FakeOpenAI;
before(async () => {
  fake = await new FakeOpenAI().start();
});
after(async () => fake.stop());

function session(vision: boolean) {
  const adapter = new OpenAIModel({
    provider: "openai-compatible",
    model: "fake-large",
    baseURL: fake.baseURL,
    maxRetries: 0,
    vision,
    contextWindow: 100_000,
  });
  const store = new SessionStore({ mode: "chat" });
  const executor = new FakeExecutor([tool("refresh", { server: "crm" })]);
  const s = new ChatSession({
    store,
    executor,
    host: { tools: async () => executor.modelTools(), servers: () => [], call: executor.call.bind(executor) },
    runTurn: modelTurnRunner(adapter, () => new Conversation()),
    modelCapabilities: adapter.capabilities,
    autoApprove: true,
  });
  return { s, store, adapter };
}

test("a model without vision: the card says the image was omitted for the model; the transcript keeps it", async () => {
  fake.responder = callFirstToolThenAnswerOpenAI({});
  const { s, store, adapter } = session(false);
  await s.submit("refresh it");
  const card = store.card(store.lastCard);
  assert.ok(card?.outcome?.ok, "the call ran");
  assert.deepEqual(card.modelNotes, ["image/png image omitted: this model cannot take image/png images"]);
  const h = renderAt(<ToolCard call={card} width={100} />, 100);
  try {
    assert.match(
      stripAnsi(h.lastFrame()),
      /⚠ for the model: image\/png image omitted: this model cannot take image\/png images/,
    );
  } finally {
    h.unmount();
  }
  assert.ok(
    store.transcript().some((r) => r.kind === "model-note" && /image\/png image omitted/.test(String(r.text))),
    "recorded",
  );
  const detail = cardDetail(card, undefined, adapter.capabilities);
  assert.ok(detail.some((d) => d.label === "what the model did not get as sent" && d.lines.length === 1));
});

test("a model with vision takes the image: no note on the card", async () => {
  fake.responder = callFirstToolThenAnswerOpenAI({});
  const { s, store } = session(true);
  await s.submit("refresh it");
  const card = store.card(store.lastCard);
  assert.ok(card?.outcome?.ok);
  assert.equal(card.modelNotes, undefined);
  assert.ok(JSON.stringify(fake.chats().at(-1)!.body).includes("image_url"), "the image went, in a user message");
});
