import { test } from "node:test";
import assert from "node:assert/strict";
import { ANTHROPIC_CAPABILITIES, buildContext, toolResultBlocks } from "../../src/model/context.js";
import { Conversation, type ToolResultItem } from "../../src/model/conversation.js";
import { modelResultFor } from "../../src/model/turn.js";
import type { ModelSinkEntry, UserSinkEntry, ProgrammaticSinkEntry, AppSinkEntry } from "../../src/host/types.js";
import { ASSISTANT_PNG, CANARY, canaryRouted, codeModeRouted, FakeExecutor, tool, USER_PNG } from "./support.js";

const caps = ANTHROPIC_CAPABILITIES;
const entry = (o: object) => o as ModelSinkEntry;

test("content blocks become provider blocks or honest placeholders", () => {
  const blocks = toolResultBlocks(
    [
      entry({
        audience: "assistant",
        format: "content",
        content: [
          { type: "text", text: "hello" },
          { type: "image", data: ASSISTANT_PNG, mimeType: "image/png" },
          { type: "image", data: "AAAA", mimeType: "image/bmp" },
          { type: "audio", data: "AAAA", mimeType: "audio/wav" },
          { type: "resource_link", uri: "file:///a.txt", name: "a.txt", mimeType: "text/plain" },
          { type: "resource", resource: { uri: "file:///b.txt", text: "embedded text" } },
          { type: "resource", resource: { uri: "file:///c.bin", mimeType: "application/zip", blob: "AAAA" } },
        ],
      }),
      entry({ audience: "assistant", format: "structured", structuredContent: { a: 1, b: [true, null] } }),
    ],
    caps,
  );
  assert.deepEqual(blocks, [
    { type: "text", text: "hello" },
    { type: "image", mimeType: "image/png", data: ASSISTANT_PNG },
    { type: "text", text: "[image/bmp image omitted: this model cannot take image/bmp images]" },
    { type: "text", text: "[audio/wav audio omitted: this model cannot take audio]" },
    { type: "text", text: "[resource link: a.txt <file:///a.txt> (text/plain)]" },
    { type: "text", text: "embedded text" },
    {
      type: "text",
      text: "[application/zip <file:///c.bin> resource omitted: this model cannot take binary resources]",
    },
    { type: "text", text: '{"a":1,"b":[true,null]}' },
  ]);
});

test("a receipt is the only thing the model gets when the model sink is empty (code mode)", () => {
  const { routed, receipt } = codeModeRouted();
  const exec = new FakeExecutor([tool("t")]);
  void exec;
  const forModel = modelResultFor({
    ok: true,
    plan: {
      server: "s",
      tool: "t",
      args: {},
      requested: undefined,
      era: "2026-12-01",
      protocolVersion: "2026-12-01",
      mode: "code",
    },
    isError: false,
    routed,
    bytes: { model: 0, user: 0, programmatic: 10, app: 0 },
    receipt,
    durationMs: 1,
  });
  const conv = new Conversation();
  conv.append({ role: "user", text: "go" });
  conv.append({ role: "assistant", text: "", toolCalls: [{ id: "c1", name: "t", server: "s", tool: "t", args: {} }] });
  conv.append({ role: "tool", callId: "c1", ...forModel });
  const json = JSON.stringify(buildContext(conv.items, caps));
  assert.ok(json.includes(receipt.text));
  for (const c of [CANARY.assistant, CANARY.user, CANARY.programmatic, CANARY.app, CANARY.meta])
    assert.ok(!json.includes(c), c);
});

test("only the model sink of a full canary outcome reaches the messages", () => {
  const routed = canaryRouted();
  const conv = new Conversation();
  conv.append({ role: "user", text: "go" });
  conv.append({
    role: "assistant",
    text: "calling",
    toolCalls: [{ id: "c1", name: "t", server: "s", tool: "t", args: {} }],
  });
  const forModel = modelResultFor({
    ok: true,
    plan: {
      server: "s",
      tool: "t",
      args: {},
      requested: undefined,
      era: "2026-12-01",
      protocolVersion: "2026-12-01",
      mode: "chat",
    },
    isError: false,
    routed,
    bytes: { model: 1, user: 1, programmatic: 1, app: 1 },
    durationMs: 1,
  });
  conv.append({ role: "tool", callId: "c1", ...forModel });
  const messages = buildContext(conv.items, caps);
  const json = JSON.stringify(messages);
  assert.ok(json.includes(CANARY.assistant));
  assert.ok(json.includes(ASSISTANT_PNG));
  for (const c of [CANARY.user, CANARY.programmatic, CANARY.app, CANARY.meta, USER_PNG])
    assert.ok(!json.includes(c), c);
  assert.equal(messages.length, 3);
  assert.deepEqual(
    messages.map((m) => m.role),
    ["user", "assistant", "user"],
  );
});

test("consecutive same-role items merge (a failed turn leaves a prompt without an answer)", () => {
  const conv = new Conversation();
  conv.append({ role: "user", text: "first" });
  conv.append({ role: "user", text: "second" });
  const messages = buildContext(conv.items, caps);
  assert.equal(messages.length, 1);
  assert.deepEqual(messages[0].content, [
    { type: "text", text: "first" },
    { type: "text", text: "second" },
  ]);
});

test("type level: user, programmatic and App outputs cannot be given to the context builder", () => {
  const user = canaryRouted().user[0] as UserSinkEntry;
  const prog = canaryRouted().programmatic[0] as ProgrammaticSinkEntry;
  const app = canaryRouted().app[0] as AppSinkEntry;
  // @ts-expect-error a user output is not a model sink entry
  const a: ToolResultItem = { role: "tool", callId: "x", isError: false, result: [user] };
  // @ts-expect-error a programmatic output is not a model sink entry
  toolResultBlocks([prog], caps);
  // @ts-expect-error an App output is not a model sink entry
  toolResultBlocks([app], caps);
  // @ts-expect-error a plain (unbranded) assistant output did not come from the router
  toolResultBlocks([{ audience: "assistant", format: "content", content: [] }], caps);
  void a;
});
