// mcp-prism/client, the pure rules another host imports: each against the host's own behaviour.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  extensionsFor,
  requestedOutputsFor,
  ResultValidationError,
  RoutingError,
  splitByAudience,
  splitLegacyResult,
  validateResult,
} from "../../src/client/index.js";
import type { ToolResultOutput, ToolResultVariant } from "../../src/protocol/index.js";

const UI = "io.modelcontextprotocol/ui";
const tool = {
  outputVariants: [
    { audience: "assistant", format: "content" },
    { audience: "user", format: "content" },
    {
      audience: "programmatic",
      format: "structured",
      schema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
    },
    { audience: UI, format: "structured" },
  ] as ToolResultVariant[],
};

test("requestedOutputsFor: each mode's selection, extension audiences only when negotiated", () => {
  assert.deepEqual(requestedOutputsFor("chat", tool), [
    { audience: "assistant", format: "content" },
    { audience: "user", format: "content" },
  ]);
  assert.deepEqual(requestedOutputsFor("code", tool), [{ audience: "programmatic", format: "structured" }]);
  assert.equal(requestedOutputsFor("minimal", tool), undefined);
  assert.deepEqual(requestedOutputsFor("app", tool), [{ audience: "assistant", format: "content" }]);
  assert.deepEqual(requestedOutputsFor("app", tool, { negotiatedExtensions: new Set([UI]) }), [
    { audience: "assistant", format: "content" },
    { audience: UI, format: "structured" },
  ]);
  assert.deepEqual(
    requestedOutputsFor("code", tool, { declined: [{ audience: "programmatic", format: "structured" }] }),
    [{ audience: "assistant", format: "content" }],
  );
  assert.deepEqual(Object.keys(extensionsFor("app")), [UI]);
  assert.deepEqual(extensionsFor("chat"), {});
});

test("validateResult: the request and the variant schemas, with named rules; the fallback when nothing was sent", () => {
  const ok = validateResult(
    { outputs: [{ audience: "programmatic", format: "structured", structuredContent: { n: 1 } }] },
    [{ audience: "programmatic", format: "structured" }],
    tool,
  );
  assert.deepEqual(ok.outputs, [{ audience: "programmatic", format: "structured", structuredContent: { n: 1 } }]);
  const rule = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      assert.ok(e instanceof ResultValidationError);
      return e.rule;
    }
    return "accepted";
  };
  assert.equal(
    rule(() =>
      validateResult(
        { outputs: [{ audience: "programmatic", format: "structured", structuredContent: { n: "x" } }] },
        [{ audience: "programmatic", format: "structured" }],
        tool,
      ),
    ),
    "schema-violation",
  );
  assert.equal(
    rule(() => validateResult({ outputs: [{ audience: "user", format: "content", content: [] }] }, undefined, tool)),
    "unrequested-output",
  );
  assert.equal(
    rule(() => validateResult({ outputs: [] }, undefined, tool)),
    "missing-output",
  );
});

test("splitByAudience never mixes audiences and refuses an extension it was not given", () => {
  const outputs = [
    { audience: "assistant", format: "content", content: [{ type: "text", text: "a" }] },
    { audience: "user", format: "content", content: [{ type: "text", text: "u" }] },
    { audience: "programmatic", format: "structured", structuredContent: { n: 1 } },
    { audience: UI, format: "structured", structuredContent: { view: 1 } },
  ] as ToolResultOutput[];
  const split = splitByAudience(outputs, [UI]);
  assert.deepEqual(
    [split.assistant, split.user, split.programmatic, split.extensions[UI]],
    [[outputs[0]], [outputs[1]], [outputs[2]], [outputs[3]]],
  );
  assert.throws(() => splitByAudience(outputs), RoutingError);
});

test("splitLegacyResult: content to the assistant, structuredContent to code, a violating one dropped with a warning", () => {
  const schema = { type: "object", properties: { n: { type: "number" } }, required: ["n"] };
  const good = splitLegacyResult({ content: [{ type: "text", text: '{"n":1}' }], structuredContent: { n: 1 } }, schema);
  assert.deepEqual(good.assistant, [
    { audience: "assistant", format: "content", content: [{ type: "text", text: '{"n":1}' }] },
  ]);
  assert.deepEqual(good.programmatic, [
    { audience: "programmatic", format: "structured", structuredContent: { n: 1 } },
  ]);
  const bad = splitLegacyResult({ content: [{ type: "text", text: "t" }], structuredContent: { n: "x" } }, schema);
  assert.deepEqual(bad.programmatic, []);
  assert.equal(bad.result.warnings?.[0].rule, "schema-violation");
});
