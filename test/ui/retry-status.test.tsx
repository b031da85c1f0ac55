// A model request that waits to be retried (429 with retry-after) is shown in the status bar with
// its countdown and reason, through the app's real turn runner and the real openai and Anthropic
// SDKs against the fakes; the wait is held open by the test, so what is observed is the waiting
// state itself, then its end. Before, the wait was a line in the conversation (OpenAI) or
// nothing at all (the Anthropic SDK retried silently).
import "./env.js";
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { ChatSession } from "../../src/ui/session.js";
import { SessionStore } from "../../src/ui/state.js";
import { Conversation } from "../../src/model/conversation.js";
import { OpenAIModel } from "../../src/model/openai.js";
import { AnthropicModel } from "../../src/model/anthropic.js";
import type { ModelAdapter } from "../../src/model/adapter.js";
import { modelTurnRunner } from "../../src/cli/commands/tui-render.js";
import { StatusBar } from "../../src/ui/components/StatusBar.js";
import { FakeOpenAI } from "../helpers/fake-openai.js";
import { FakeAnthropic } from "../helpers/fake-anthropic.js";
import { FakeExecutor } from "../model/support.js";
import { renderAt, stripAnsi } from "./harness.js";

let openai: FakeOpenAI;
let anthropic: FakeAnthropic;
before(async () => {
  openai = await new FakeOpenAI().start();
  anthropic = await new FakeAnthropic().start();
});
after(async () => {
  await openai.stop();
  await anthropic.stop();
});

/** A sleep the test ends: resolves `asked` with the wait, and waits for release(). */
function heldSleep() {
  let release!: () => void;
  let asked!: (ms: number) => void;
  const waited = new Promise<number>((r) => (asked = r));
  const sleep = (ms: number) => {
    asked(ms);
    return new Promise<void>((r) => (release = r));
  };
  return { sleep, waited, release: () => release() };
}

async function retriedTurn(adapter: ModelAdapter, held: ReturnType<typeof heldSleep>, answer: RegExp) {
  const store = new SessionStore({ mode: "chat" });
  const executor = new FakeExecutor([]);
  const s = new ChatSession({
    store,
    executor,
    host: { tools: async () => [], servers: () => [], call: executor.call.bind(executor) },
    runTurn: modelTurnRunner(adapter, () => new Conversation()),
    autoApprove: true,
  });
  const turn = s.submit("hello");
  assert.equal(await held.waited, 3000, "the retry-after asked");
  const wait = store.getState().retry;
  assert.ok(wait, "the store knows the request waits");
  assert.deepEqual([wait.attempt, wait.of], [1, 2]);
  const bar = (w = store.getState().retry) =>
    renderAt(<StatusBar servers={[]} mode="chat" model={adapter.id} width={160} busy retry={w} />, 160);
  const h = bar();
  try {
    const shown = stripAnsi(h.lastFrame());
    assert.match(shown, /rate-limited \(429\) · retry 1\/2 in [23]s/);
    assert.doesNotMatch(shown, /working…/, "the wait replaces 'working…'");
  } finally {
    h.unmount();
  }
  // The wait is not a line in the conversation.
  assert.ok(!JSON.stringify(store.getState().live).includes("429"));
  held.release();
  await turn;
  assert.equal(store.getState().retry, undefined, "cleared once the request went through");
  assert.match(JSON.stringify(store.getState().finished), answer);
  assert.ok(store.transcript().some((r) => r.kind === "retry" && r.waitMs === 3000));
}

test("OpenAI-compatible: a 429's wait is in the status bar, counted down, then gone", async () => {
  const held = heldSleep();
  openai.script(
    { kind: "status", status: 429, message: "Rate limit reached", headers: { "retry-after": "3" } },
    { kind: "reply", text: "after the wait" },
  );
  const adapter = new OpenAIModel({
    provider: "openai-compatible",
    model: "fake-large",
    baseURL: openai.baseURL,
    contextWindow: 100_000,
    sleep: held.sleep,
  });
  await retriedTurn(adapter, held, /after the wait/);
});

test("Anthropic: the same, now that retries are the host's and not the SDK's silent ones", async () => {
  const held = heldSleep();
  anthropic.script(
    {
      kind: "status",
      status: 429,
      errorType: "rate_limit_error",
      message: "slow down",
      headers: { "retry-after": "3" },
    },
    { kind: "reply", blocks: [{ type: "text", text: "claude after the wait" }] },
  );
  const adapter = new AnthropicModel({
    apiKey: "sk-test",
    baseURL: anthropic.url,
    model: "claude-test",
    sleep: held.sleep,
  });
  await retriedTurn(adapter, held, /claude after the wait/);
});

test("the countdown: whole seconds left, never below zero", async () => {
  const { retryStatus } = await import("../../src/ui/components/StatusBar.js");
  const r = { text: "the endpoint failed (503: down)", reason: "overloaded (503)", until: 10_000, attempt: 2, of: 3 };
  assert.equal(retryStatus(r, 7_500), "overloaded (503) · retry 2/3 in 3s");
  assert.equal(retryStatus(r, 12_000), "overloaded (503) · retry 2/3 in 0s");
});
