// A failure never bricks the conversation: the REAL Anthropic SDK against the fake Messages API
// (which enforces the real API's rules on every request), the REAL Host and the brick fixture
// server over stdio. After each kind of failed turn, the NEXT turn succeeds.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { Host } from "../../src/host/host.js";
import type { CallOptions, CallOutcome, ToolExecutor } from "../../src/host/types.js";
import { AnthropicModel } from "../../src/model/anthropic.js";
import { buildContext, ANTHROPIC_CAPABILITIES } from "../../src/model/context.js";
import { Conversation, WHOLE_RESULT } from "../../src/model/conversation.js";
import { runTurn, type TurnEvent } from "../../src/model/turn.js";
import { toAnthropicMessages } from "../../src/model/anthropic.js";
import { apiRuleViolation, FakeAnthropic, type Responder } from "../helpers/fake-anthropic.js";
import { config } from "../helpers/host-fixtures.js";
import { brickStdio, CORRUPT_PNG, freshState, NOT_A_PNG, SERVER_MESSAGE, STDERR_CANARY } from "../helpers/brick.js";

let fake: FakeAnthropic;
let host: Host;
before(async () => {
  fake = await new FakeAnthropic().start();
  host = await Host.start({
    config: config({ brick: brickStdio({ state: freshState() }) }, { callTimeoutMs: 20_000 }),
    eraCache: false,
  });
});
after(async () => {
  await host.close();
  await fake.stop();
});

const model = () => new AnthropicModel({ apiKey: "sk-test", baseURL: fake.url, model: "claude-test", maxRetries: 0 });

/** Calls `tools` (all in one assistant message) when the last message is the user's prompt, then answers. */
function calling(...tools: string[]): Responder {
  return (body) => {
    const last = body.messages.at(-1);
    const hasResult =
      Array.isArray(last.content) && last.content.some((b: { type: string }) => b.type === "tool_result");
    if (hasResult) return { kind: "reply", blocks: [{ type: "text", text: "answered after the tools" }] };
    return {
      kind: "reply",
      blocks: [
        { type: "text", text: "Calling." },
        ...tools.map((name) => ({ type: "tool_use" as const, name, input: {} })),
      ],
    };
  };
}

async function turn(
  conversation: Conversation,
  prompt: string,
  opts: { executor?: ToolExecutor; signal?: AbortSignal } = {},
) {
  const events: TurnEvent[] = [];
  const r = await runTurn({
    adapter: model(),
    executor: opts.executor ?? host,
    conversation,
    prompt,
    mode: "chat",
    signal: opts.signal,
    events: (e) => events.push(e),
  });
  return {
    r,
    events,
    notices: events.filter((e) => e.type === "notice").map((e) => (e as { text: string }).text),
    // What goes on each call's card (the app) or under its line (-p): by tool name.
    cardNotes: events.flatMap((e) =>
      e.type === "call-note" ? [`${r.toolCalls.find((c) => c.call.id === e.callId)?.call.tool ?? "?"}: ${e.text}`] : [],
    ),
  };
}

/** The next turn works: a plain answer, the request valid for the real API (the fake checks). */
async function nextTurnWorks(conversation: Conversation): Promise<any> {
  fake.responder = () => ({ kind: "reply", blocks: [{ type: "text", text: "next turn fine" }] });
  const refusedBefore = fake.refused.length;
  const { r } = await turn(conversation, "and now?");
  assert.equal(r.ok, true, r.error?.message);
  assert.equal(r.answer, "next turn fine");
  assert.equal(fake.refused.length, refusedBefore, `refused: ${JSON.stringify(fake.refused.slice(refusedBefore))}`);
  return fake.requests.at(-1)!.body;
}

test("the fake enforces the real API's rules (tool_use answered, ids matching, images decodable, roles alternating)", () => {
  const use = { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "t", input: {} }] };
  const result = (id: string, content: unknown[] = [{ type: "text", text: "r" }]) => ({
    type: "tool_result",
    tool_use_id: id,
    content,
  });
  const img = (media_type: string, data: string) => ({ type: "image", source: { type: "base64", media_type, data } });
  const v = (messages: unknown[]) => apiRuleViolation({ messages });
  assert.match(
    v([{ role: "user", content: "hi" }, use, { role: "user", content: [{ type: "text", text: "next" }] }])!,
    /^messages\.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_1\. Each `tool_use` block/,
  );
  assert.match(
    v([{ role: "user", content: "hi" }, use, { role: "user", content: [result("toolu_2")] }])!,
    /unexpected `tool_use_id` found in `tool_result` blocks: toolu_2/,
  );
  assert.match(
    v([
      { role: "user", content: "a" },
      { role: "user", content: "b" },
    ])!,
    /roles must alternate/,
  );
  assert.equal(
    v([
      { role: "user", content: "hi" },
      use,
      { role: "user", content: [result("toolu_1", [img("image/png", CORRUPT_PNG)])] },
    ]),
    "Could not process image",
  );
  assert.equal(
    v([
      { role: "user", content: "hi" },
      use,
      { role: "user", content: [result("toolu_1", [img("image/png", NOT_A_PNG)])] },
    ]),
    "Could not process image",
  );
  assert.match(
    v([
      { role: "user", content: "hi" },
      use,
      { role: "user", content: [result("toolu_1", [{ type: "text", text: "" }])] },
    ])!,
    /text content blocks must be non-empty/,
  );
  assert.equal(
    v([
      { role: "user", content: "hi" },
      use,
      { role: "user", content: [result("toolu_1"), { type: "text", text: "more" }] },
    ]),
    undefined,
  );
});

test("a failing tool: the model gets an error result written by the host (the server's own message, no stderr); the next turn works", async () => {
  const conversation = new Conversation();
  fake.responder = calling("fails");
  const from = fake.requests.length;
  const { r } = await turn(conversation, "try it");
  assert.equal(r.ok, true, r.error?.message);
  assert.equal(r.answer, "answered after the tools");
  const sent = fake.requests[from + 1].body.messages.at(-1).content[0];
  assert.equal(sent.type, "tool_result");
  assert.equal(sent.is_error, true);
  assert.match(
    sent.content[0].text,
    /^The call failed \(server-error\): server brick, tool fails: the server answered with an error\. The server's error message: "backend unavailable: try again later"$/,
  );
  assert.ok(sent.content[0].text.includes(SERVER_MESSAGE));
  await nextTurnWorks(conversation);
  assert.ok(!fake.allBodies().includes(STDERR_CANARY), "the server's stderr reached a model request");
});

test("a call whose executor throws still gets an error result, and so do the other calls of that message", async () => {
  const conversation = new Conversation();
  const throwing: ToolExecutor = {
    modelTools: () => host.modelTools(),
    instructions: () => host.instructions(),
    call: async (name: string, args: Record<string, unknown>, o?: CallOptions): Promise<CallOutcome> => {
      if (name === "fails") throw new RangeError("Maximum call stack size exceeded");
      return host.call(name, args, o);
    },
  };
  fake.responder = calling("good", "fails", "good");
  const from = fake.requests.length;
  const { r } = await turn(conversation, "three at once", { executor: throwing });
  assert.equal(r.ok, true, r.error?.message);
  const results = fake.requests[from + 1].body.messages.at(-1).content;
  assert.deepEqual(
    results.map((b: { type: string; is_error?: boolean }) => [b.type, b.is_error ?? false]),
    [
      ["tool_result", false],
      ["tool_result", true],
      ["tool_result", false],
    ],
  );
  assert.match(
    results[1].content[0].text,
    /\(host-error\): server brick, tool fails: the host failed while running the call/,
  );
  assert.ok(!results[1].content[0].text.includes("stack size"), "the exception text is the user's, not the model's");
  const failed = r.toolCalls[1].outcome!;
  assert.ok(!failed.ok && failed.error.rule === "host-error" && /Maximum call stack/.test(failed.error.message));
  await nextTurnWorks(conversation);
});

test("a turn cancelled mid-way through several calls: every tool_use answered; the next turn works", async () => {
  const conversation = new Conversation();
  const ac = new AbortController();
  fake.responder = calling("slow", "good", "good");
  const events: TurnEvent[] = [];
  const pending = runTurn({
    adapter: model(),
    executor: host,
    conversation,
    prompt: "slowly",
    mode: "chat",
    signal: ac.signal,
    events: (e) => events.push(e),
  });
  for (let i = 0; i < 200 && !events.some((e) => e.type === "tool-call"); i++)
    await new Promise((res) => setTimeout(res, 20));
  ac.abort();
  const r = await pending;
  assert.equal(r.ok, false);
  assert.equal(r.error?.kind, "aborted");
  const results = conversation.items.filter((i) => i.role === "tool");
  assert.equal(results.length, 3, "each of the three tool_use blocks has its result");
  assert.ok(results.every((i) => i.role === "tool" && i.isError));
  const body = await nextTurnWorks(conversation);
  const answers = body.messages[2].content;
  assert.deepEqual(
    answers.slice(0, 3).map((b: { type: string }) => b.type),
    ["tool_result", "tool_result", "tool_result"],
  );
  assert.match(answers[0].content[0].text, /\(cancelled\): server brick, tool slow: the user cancelled the call/);
  assert.equal(answers[3].text, "and now?");
});

test("an image the provider cannot decode: refused once, replaced by a note, retried; the next turn works; the result keeps the original", async () => {
  const conversation = new Conversation();
  fake.responder = calling("bad_image");
  const from = fake.requests.length;
  const refusedFrom = fake.refused.length;
  const { r, notices, cardNotes } = await turn(conversation, "show me the chart");
  assert.equal(r.ok, true, r.error?.message);
  assert.equal(r.answer, "answered after the tools");
  assert.deepEqual(
    fake.refused.slice(refusedFrom).map((x) => x.message),
    ["Could not process image"],
    "one refusal, then the retry passed",
  );
  assert.equal(fake.requests.length - from, 3, "the tool request, the refused one, the retry");
  const retried = fake.requests.at(-1)!.body.messages.at(-1).content[0];
  assert.deepEqual(
    retried.content.map((b: { type: string }) => b.type),
    ["text", "text"],
  );
  assert.match(
    retried.content[1].text,
    /^\[image\/png image not sent: the model API refused the images of this request \(Could not process image\)\]$/,
  );
  assert.equal(notices.length, 1);
  assert.match(
    notices[0],
    /refused the request \(400: Could not process image\): 1 image from brick\/bad_image, replaced by a note for the model; retrying once/,
  );
  // …and on the call's own card.
  assert.deepEqual(cardNotes, ["bad_image: the image not sent: the model API refused it (Could not process image)"]);
  // The conversation keeps the routed original (the transcript records the outcome itself).
  const item = conversation.items.find((i) => i.role === "tool")!;
  assert.ok(item.role === "tool" && Array.isArray(item.result) && JSON.stringify(item.result).includes(CORRUPT_PNG));
  const outcome = r.toolCalls[0].outcome!;
  assert.ok(outcome.ok && JSON.stringify(outcome.routed.model).includes(CORRUPT_PNG));
  const next = await nextTurnWorks(conversation);
  assert.ok(!JSON.stringify(next).includes(CORRUPT_PNG), "the refused image is not sent again");
});

test("an image whose bytes are not its media type, and an empty text block, never reach the provider as such", async () => {
  const conversation = new Conversation();
  fake.responder = calling("mislabeled_image", "empty_text");
  const refusedFrom = fake.refused.length;
  const { r, cardNotes } = await turn(conversation, "photo");
  assert.equal(r.ok, true, r.error?.message);
  assert.equal(fake.refused.length, refusedFrom, "checked before sending: no refusal at all");
  assert.deepEqual(cardNotes, ["mislabeled_image: image/png image omitted: its bytes are not image/png data"]);
  const [photo, empty] = fake.requests.at(-1)!.body.messages.at(-1).content;
  assert.equal(photo.content[1].text, "[image/png image omitted: its bytes are not image/png data]");
  assert.deepEqual(empty.content, []);
  await nextTurnWorks(conversation);
});

test("a request too large (413): the new results are replaced by a note and the request retried once", async () => {
  const conversation = new Conversation();
  const limit = fake.maxBodyBytes;
  const calls = calling("big_text");
  // The tool request passes; the one carrying the 200 KB result is over the limit; a note is not.
  fake.responder = (body, i) => {
    if (!body.messages.at(-1).content.some((b: { type: string }) => b.type === "tool_result"))
      fake.maxBodyBytes = JSON.stringify(body).length + 50_000;
    return calls(body, i);
  };
  try {
    const { r, notices, cardNotes } = await turn(conversation, "big");
    assert.equal(r.ok, true, r.error?.message);
    assert.ok(fake.refused.some((x) => x.message === "request_too_large"));
    assert.match(
      notices.join("\n"),
      /refused the request \(413: Request exceeds the maximum size\): the result of brick\/big_text, replaced by a note for the model/,
    );
    assert.deepEqual(cardNotes, [
      "big_text: cut for the model: ≈51,200 tokens, over the 25,000-token budget for one result; it gets the head and pages the rest with read_result",
      "big_text: result not sent: the model API refused the request that carried it (Request exceeds the maximum size); the model got a note",
    ]);
    const item = conversation.items.find((i) => i.role === "tool")!;
    assert.ok(item.role === "tool" && item.replaced?.has(WHOLE_RESULT));
    await nextTurnWorks(conversation);
  } finally {
    fake.maxBodyBytes = limit;
  }
});

test("the one context builder repairs any conversation state into a valid request", () => {
  const conversation = new Conversation();
  conversation.append({ role: "user", text: "hi" });
  // Two calls, one answered, one not (as a crash mid-round would leave it), an orphan result, a blank reply.
  conversation.append({
    role: "assistant",
    text: "  ",
    toolCalls: [
      { id: "a", name: "good", server: "brick", tool: "good", args: {} },
      { id: "b", name: "good", server: "brick", tool: "good", args: {} },
    ],
  });
  conversation.append({ role: "tool", callId: "b", isError: false, result: { kind: "receipt", text: "ok" } });
  conversation.append({ role: "tool", callId: "zzz", isError: false, result: { kind: "receipt", text: "orphan" } });
  conversation.append({ role: "tool", callId: "b", isError: false, result: { kind: "receipt", text: "twice" } });
  conversation.append({ role: "user", text: "next" });
  const body = { model: "m", messages: toAnthropicMessages(buildContext(conversation.items, ANTHROPIC_CAPABILITIES)) };
  assert.equal(apiRuleViolation(body), undefined, JSON.stringify(body.messages));
  const answers = body.messages[2].content as { type: string; tool_use_id?: string }[];
  assert.deepEqual(
    answers.map((b) => b.tool_use_id ?? b.type),
    ["a", "b", "text"],
  );
});

test("the server's stderr never reaches the model: a server that prints a secret and exits, then fails to restart", async () => {
  const conversation = new Conversation();
  fake.responder = calling("leaks_and_exits");
  const from = fake.requests.length;
  const first = await turn(conversation, "go");
  assert.equal(first.r.ok, true, first.r.error?.message);
  const closed = first.r.toolCalls[0].outcome!;
  assert.ok(!closed.ok && closed.error.rule === "connection-closed", JSON.stringify(closed));
  // The next call restarts it: the restart prints the secret on stderr and exits at once.
  fake.responder = calling("good");
  const second = await turn(conversation, "again");
  assert.equal(second.r.ok, true, second.r.error?.message);
  const failed = second.r.toolCalls[0].outcome!;
  assert.ok(!failed.ok, "the restart failed");
  assert.ok(!failed.error.message.includes(STDERR_CANARY), `the one line has the stderr: ${failed.error.message}`);
  await new Promise((res) => setTimeout(res, 200));
  // The user still sees it: in the server's status (/servers) and the call error's stderr lines.
  const status = host.servers()[0];
  assert.ok(
    [...status.stderr, ...(failed.error.stderr ?? []), status.error ?? ""].join("\n").includes(STDERR_CANARY),
    JSON.stringify(status),
  );
  const bodies = fake.requests
    .slice(from)
    .map((q) => q.raw)
    .join("\n");
  assert.ok(bodies.includes("brick, tool good"), "the failure did reach the model, as a host-written line");
  assert.ok(!bodies.includes(STDERR_CANARY), "the server's stderr reached a model request");
  await nextTurnWorks(conversation);
});

test("instructions, descriptions and schemas sent to the model are bounded per server, with one notice each time a bound cuts", async () => {
  const big = await Host.start({ config: config({ huge: brickStdio({ huge: true }) }), eraCache: false });
  try {
    const conversation = new Conversation();
    fake.responder = () => ({ kind: "reply", blocks: [{ type: "text", text: "hi" }] });
    const from = fake.requests.length;
    const events: TurnEvent[] = [];
    const r = await runTurn({
      adapter: model(),
      executor: big,
      conversation,
      prompt: "hello",
      mode: "chat",
      events: (e) => events.push(e),
    });
    assert.equal(r.ok, true, r.error?.message);
    const req = fake.requests[from];
    assert.ok(req.raw.length < 100_000, `the request is ${req.raw.length} bytes`);
    const system = JSON.stringify(req.body.system);
    assert.ok(system.length < 10_000, `system prompt ${system.length} chars`);
    assert.match(system, /\[cut: 8000 of 1048576 characters\]/);
    const tools = req.body.tools as { name: string; description?: string }[];
    const names = tools.map((t) => t.name);
    assert.ok(
      names.includes("huge_description") && !names.includes("deep_schema") && !names.includes("wide_schema"),
      names.join(","),
    );
    assert.ok(tools.every((t) => (t.description ?? "").length <= 2100));
    const notices = events.filter((e) => e.type === "notice").map((e) => (e as { text: string }).text);
    assert.equal(notices.length, 2, notices.join("\n"));
    assert.match(
      notices.join("\n"),
      /server huge: for the model, 1 tool description cut to 2000 characters; left out deep_schema \(its inputSchema nests deeper than 32 levels\), wide_schema \(its inputSchema is over 32 KB\)/,
    );
    assert.match(
      notices.join("\n"),
      /server huge: its instructions \(1048576 characters\) were cut to 8000 for the model/,
    );
    // Told once per conversation.
    const again: TurnEvent[] = [];
    await runTurn({
      adapter: model(),
      executor: big,
      conversation,
      prompt: "again",
      mode: "chat",
      events: (e) => again.push(e),
    });
    assert.equal(again.filter((e) => e.type === "notice").length, 0);
  } finally {
    await big.close();
  }
});
