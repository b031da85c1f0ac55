// Token usage: the real Anthropic SDK against the fake Messages API (which reports usage as the
// API does, cache counts included), summed per turn and session, shown in the app's status bar
// and /usage; the offline model's estimates are marked "≈".
import "./env.js";
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { AnthropicModel } from "../../src/model/anthropic.js";
import { OfflineModel } from "../../src/model/offline.js";
import { Conversation } from "../../src/model/conversation.js";
import { runTurn, type TurnEvent } from "../../src/model/turn.js";
import { fromAnthropicUsage, formatTokens, NO_USAGE, usageSummary } from "../../src/model/usage.js";
import type { ModelAdapter } from "../../src/model/adapter.js";
import { ChatSession } from "../../src/ui/session.js";
import { modelTurnRunner } from "../../src/cli/commands/tui-render.js";
import { SessionStore } from "../../src/ui/state.js";
import type { CommandHost } from "../../src/ui/commands/index.js";
import { contextMeter, usageStatus } from "../../src/ui/components/StatusBar.js";
import { FakeAnthropic } from "../helpers/fake-anthropic.js";
import { FakeExecutor, tool } from "../model/support.js";
import { waitFor, type Harness } from "./harness.js";
import { mountApp } from "./mount-app.js";

let fake: FakeAnthropic;
const open: Harness[] = [];
before(async () => {
  fake = await new FakeAnthropic().start();
});
after(async () => {
  open.forEach((h) => h.unmount());
  await fake.stop();
});

const entries = [tool("search", { server: "crm", qualifiedName: "search" })];
const anthropic = () =>
  new AnthropicModel({ apiKey: "sk-test", baseURL: fake.url, model: "claude-test", maxRetries: 0 });

test("the API's usage, cache counts included, is summed over the turn's requests", async () => {
  fake.responder = undefined;
  fake.script(
    {
      kind: "reply",
      blocks: [
        { type: "text", text: "Searching." },
        { type: "tool_use", name: "search", input: {} },
      ],
      usage: { input_tokens: 1200, output_tokens: 40, cache_creation_input_tokens: 300, cache_read_input_tokens: 2000 },
    },
    {
      kind: "reply",
      blocks: [{ type: "text", text: "Found 3." }],
      usage: { input_tokens: 1500, output_tokens: 12, cache_read_input_tokens: 2300 },
    },
  );
  const events: TurnEvent[] = [];
  const r = await runTurn({
    adapter: anthropic(),
    executor: new FakeExecutor(entries),
    conversation: new Conversation(),
    prompt: "find",
    mode: "chat",
    events: (e) => events.push(e),
  });
  assert.equal(r.ok, true, r.error?.message);
  assert.deepEqual(r.usage, { input: 2700, output: 52, cacheRead: 4300, cacheWrite: 300, estimated: false });
  assert.deepEqual(
    events.filter((e) => e.type === "usage").map((e) => (e as { usage: { output: number } }).usage.output),
    [40, 12],
  );
  assert.equal(usageSummary(r.usage), "7.3k in · 52 out");
});

test("a provider's counts are untrusted: negative, fractional, huge or missing ones count as 0", () => {
  assert.deepEqual(
    fromAnthropicUsage({
      input_tokens: -5,
      output_tokens: 2.7,
      cache_read_input_tokens: 1e20,
      cache_creation_input_tokens: "9",
    }),
    { input: 0, output: 2, cacheRead: 0, cacheWrite: 0, estimated: false },
  );
  assert.deepEqual(fromAnthropicUsage(null), { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, estimated: false });
  assert.equal(formatTokens(999), "999");
  assert.equal(formatTokens(12_345), "12k");
  assert.equal(formatTokens(4_100_000), "4.1M");
});

test("the offline model's usage is an estimate, and says so", async () => {
  const r = await runTurn({
    adapter: new OfflineModel({ chunkDelayMs: 0 }),
    executor: new FakeExecutor(entries),
    conversation: new Conversation(),
    prompt: "call search {}",
    mode: "chat",
  });
  assert.equal(r.usage.estimated, true);
  assert.ok(r.usage.input > 0 && r.usage.output > 0);
  assert.match(usageSummary(r.usage), /^≈[\d.]+k? in · ≈\d+ out$/);
});

function appWith(adapter: ModelAdapter) {
  const executor = new FakeExecutor(entries);
  const host: CommandHost = {
    tools: async () => entries,
    servers: () => [{ name: "crm", protocolVersion: "2026-12-01", state: "connected" }],
    call: (n, a, o) => executor.call(n, a, o),
  };
  const conversation = new Conversation();
  const runner = modelTurnRunner(adapter, () => conversation);
  const session = new ChatSession({ store: new SessionStore(), executor, host, runTurn: runner, autoApprove: true });
  return { session, ...mountApp(session, host.servers, open) };
}

test("app: the status bar shows the session's and the last turn's tokens; /usage lists each turn", async () => {
  fake.script(
    {
      kind: "reply",
      blocks: [{ type: "text", text: "Hello." }],
      usage: { input_tokens: 1000, output_tokens: 20, cache_read_input_tokens: 234 },
    },
    { kind: "reply", blocks: [{ type: "text", text: "Again." }], usage: { input_tokens: 500, output_tokens: 7 } },
  );
  const { session, frame, type } = appWith(anthropic());
  assert.doesNotMatch(frame(), /tokens/, "nothing is shown before the first turn");
  await type("hi\r");
  await waitFor(
    () => /tokens 1\.2k in \/ 20 out · turn 1\.2k \/ 20/.test(frame()),
    "the first turn's tokens in the status bar",
  );
  await type("again\r");
  await waitFor(
    () => /tokens 1\.7k in \/ 27 out · turn 500 \/ 7/.test(frame()),
    "the session's sum and the second turn's",
  );
  assert.equal(usageStatus(session.usage.snapshot()), "tokens 1.7k in / 27 out · turn 500 / 7");
  await type("/usage\r");
  await waitFor(
    () => /session  1\.7k in · 27 out \(cache read 234 · written 0\)/.test(frame()),
    "/usage's session line",
  );
  const f = frame();
  assert.match(f, /turn 1  1\.2k in · 20 out \(cache read 234 · written 0\) · 1 request · hi/);
  assert.match(f, /turn 2  500 in · 7 out · 1 request · again/);
  assert.doesNotMatch(f, /≈/);
});

test("app: the offline model's tokens carry ≈ in the status bar and /usage", async () => {
  const { frame, type } = appWith(new OfflineModel({ chunkDelayMs: 0 }));
  await type("/usage\r");
  await waitFor(() => /no model turn yet/.test(frame()), "/usage before any turn");
  await type("hello\r");
  await waitFor(
    () => /tokens ≈[\d.]+k? in \/ ≈\d+ out · turn ≈[\d.]+k? \/ ≈\d+/.test(frame()),
    "estimated tokens in the status bar",
  );
  await type("/usage\r");
  await waitFor(
    () => /session  ≈[\d.]+k? in · ≈\d+ out/.test(frame()) && /the offline model's estimate/.test(frame()),
    "/usage with estimates",
  );
});

test("app: the context meter shows what the last request filled of the active model's window", async () => {
  fake.script(
    {
      kind: "reply",
      blocks: [{ type: "text", text: "Hello." }],
      usage: { input_tokens: 1000, output_tokens: 20, cache_read_input_tokens: 234 },
    },
    { kind: "reply", blocks: [{ type: "text", text: "Again." }], usage: { input_tokens: 150_000, output_tokens: 7 } },
  );
  const adapter = anthropic();
  const executor = new FakeExecutor(entries);
  const host: CommandHost = {
    tools: async () => entries,
    servers: () => [{ name: "crm", protocolVersion: "2026-12-01", state: "connected" }],
    call: (n, a, o) => executor.call(n, a, o),
  };
  const conversation = new Conversation();
  const session = new ChatSession({
    store: new SessionStore(),
    executor,
    host,
    runTurn: modelTurnRunner(adapter, () => conversation),
    autoApprove: true,
    modelCapabilities: () => adapter.capabilities,
  });
  const { frame, type } = mountApp(session, host.servers, open);
  assert.doesNotMatch(frame(), /ctx /, "nothing before the first request");
  await type("hi\r");
  const window = formatTokens(adapter.capabilities.contextWindow);
  await waitFor(
    () => new RegExp(`ctx 1\\.2k/${window.replace(".", "\\.")} 1%`).test(frame()),
    "the meter after the first turn",
  );
  await type("again\r");
  // Not the session's sum: the last request's input is what the context holds now.
  await waitFor(
    () => new RegExp(`ctx 150k/${window.replace(".", "\\.")} 75%`).test(frame()),
    "the meter follows the last request",
  );
  assert.equal(contextMeter(session.usage.snapshot(), 200_000), "ctx 150k/200k 75%");
  assert.equal(
    contextMeter({ session: NO_USAGE, turns: [], lastRequest: { ...NO_USAGE, input: 3000, estimated: true } }, 32_768),
    "ctx ≈3.0k/33k 9%",
  );
  assert.equal(contextMeter(session.usage.snapshot(), undefined), "", "no window known: no meter");
});
