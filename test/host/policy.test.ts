// Mode policies applied to declared variants (pure).
import { test } from "node:test";
import assert from "node:assert/strict";
import { policyFor, selectOutputs } from "../../src/host/policy/index.js";
import { selectorKey, type ToolResultVariant } from "../../src/protocol/index.js";
import type { Mode } from "../../src/host/types.js";

const UI = "io.modelcontextprotocol/ui";
const v = (...keys: string[]): ToolResultVariant[] =>
  keys.map((k) => {
    const at = k.lastIndexOf("/");
    return { audience: k.slice(0, at), format: k.slice(at + 1) } as ToolResultVariant;
  });
const all = v(
  "assistant/content",
  "assistant/structured",
  "user/content",
  "user/structured",
  "programmatic/structured",
  `${UI}/structured`,
);
const bare = v("assistant/content");
const sel = (mode: Mode, variants: ToolResultVariant[], negotiated: string[] = []) =>
  selectOutputs(policyFor(mode), variants, new Set(negotiated))?.map(selectorKey);

test("chat: assistant/content plus declared user variants", () => {
  assert.deepEqual(sel("chat", all), ["assistant/content", "user/content", "user/structured"]);
  assert.deepEqual(sel("chat", bare), ["assistant/content"]);
});
test("structured: assistant/structured when declared, else assistant/content; plus user variants", () => {
  assert.deepEqual(sel("structured", all), ["assistant/structured", "user/content", "user/structured"]);
  assert.deepEqual(sel("structured", bare), ["assistant/content"]);
});
test("code: programmatic/structured when declared, else assistant/content", () => {
  assert.deepEqual(sel("code", all), ["programmatic/structured"]);
  assert.deepEqual(sel("code", bare), ["assistant/content"]);
  assert.equal(policyFor("code").receiptOnly, true);
});
test("app: ui/structured only when declared AND negotiated; the only mode advertising the extension", () => {
  assert.deepEqual(sel("app", all, [UI]), ["assistant/content", `${UI}/structured`]);
  assert.deepEqual(sel("app", all, []), ["assistant/content"]);
  for (const m of ["chat", "structured", "code", "minimal"] as const)
    assert.deepEqual(policyFor(m).advertiseExtensions, {});
  assert.deepEqual(policyFor("app").advertiseExtensions, { [UI]: { mimeTypes: ["text/html;profile=mcp-app"] } });
});
test("minimal: no requestedOutputs", () => {
  assert.equal(sel("minimal", all), undefined);
});

test("a declined variant is skipped by every mode, even when still listed among the variants", () => {
  const declined = v("assistant/structured", "programmatic/structured", "user/structured", `${UI}/structured`);
  const pick = (mode: Mode) => selectOutputs(policyFor(mode), all, new Set([UI]), declined)?.map(selectorKey);
  assert.deepEqual(pick("chat"), ["assistant/content", "user/content"]);
  assert.deepEqual(
    pick("structured"),
    ["assistant/content", "user/content"],
    "assistant/structured declined: its otherwise",
  );
  assert.deepEqual(pick("code"), ["assistant/content"], "programmatic/structured declined: its otherwise");
  assert.deepEqual(pick("app"), ["assistant/content"]);
  assert.equal(pick("minimal"), undefined);
  // A required preference for a declined selector is dropped, not sent to be refused.
  const strict = {
    advertiseExtensions: {},
    sendRequestedOutputs: true,
    preferences: [
      { want: { audience: "assistant", format: "content" } as const },
      { want: { audience: "programmatic", format: "structured" } as const },
    ],
  };
  assert.deepEqual(selectOutputs(strict, all, new Set(), declined)?.map(selectorKey), ["assistant/content"]);
  assert.deepEqual(selectOutputs(strict, all, new Set())?.map(selectorKey), [
    "assistant/content",
    "programmatic/structured",
  ]);
});
