import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  ContentToolResultOutputSchema,
  fastParseOutput,
  StructuredToolResultOutputSchema,
} from "../../src/protocol/index.js";

const json = fc.jsonValue({ maxDepth: 3 });
const _maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
const block = fc.oneof(
  fc.record({ type: fc.constant("text"), text: fc.string() }),
  fc.record({ type: fc.constant("text"), text: fc.string(), extra: json }),
  fc.record(
    { type: fc.constant("text"), text: fc.oneof(fc.string(), fc.integer(), fc.constant(null)) },
    { requiredKeys: ["type"] },
  ),
  fc.record({
    type: fc.constant("text"),
    text: fc.string(),
    annotations: fc.oneof(json, fc.record({ audience: fc.constant(["user"]) })),
  }),
  fc.record({ type: fc.constant("text"), text: fc.string(), _meta: json }),
  fc.record({
    type: fc.constantFrom("image", "audio", "resource_link", "resource", "bogus"),
    data: fc.string(),
    mimeType: fc.string(),
  }),
  json,
);
const output = fc.record(
  {
    audience: fc.oneof(
      fc.constantFrom("assistant", "user", "programmatic", "io.modelcontextprotocol/ui", "Assistant", "nobody"),
      json,
    ),
    format: fc.oneof(fc.constantFrom("content", "structured", "both"), json),
    content: fc.oneof(fc.array(block, { maxLength: 4 }), json),
    structuredContent: json,
    extra: json,
  },
  { requiredKeys: [] },
);

// Near-valid outputs, so that many take the fast path and small deviations are exercised.
const nearValid = fc.record(
  {
    audience: fc.constantFrom("assistant", "user", "programmatic", "io.modelcontextprotocol/ui"),
    format: fc.constantFrom("content", "structured"),
    content: fc.array(
      fc.oneof(
        { weight: 4, arbitrary: fc.record({ type: fc.constant("text"), text: fc.string() }) },
        { weight: 1, arbitrary: block },
      ),
      { maxLength: 4 },
    ),
    structuredContent: json,
    extra: json,
  },
  { requiredKeys: ["audience", "format"] },
);

test("fastParseOutput accepts only what the zod output schemas accept, and returns what they return", () => {
  let accepted = 0;
  fc.assert(
    fc.property(fc.oneof(nearValid, output, json), (generated) => {
      // As outputs arrive: plain objects (fast-check also makes null-prototype ones, which JSON
      // never does; the fast path returns blocks as they came, zod copies them).
      const o = structuredClone(generated);
      const fast = fastParseOutput(o);
      if (fast === undefined) return;
      accepted++;
      const schema = fast.format === "content" ? ContentToolResultOutputSchema : StructuredToolResultOutputSchema;
      const z = schema.safeParse(o);
      assert.ok(z.success, `fast path accepted what zod rejects: ${JSON.stringify(o)}`);
      assert.deepStrictEqual(fast, z.data);
    }),
    { numRuns: 5000, seed: 3279 },
  );
  // The property would hold trivially for a fast path that accepts nothing.
  assert.ok(accepted > 200, `fast path accepted ${accepted} of 5000 generated outputs`);
});

test("fastParseOutput takes the common shapes and leaves the rest to zod", () => {
  const text = { audience: "assistant", format: "content", content: [{ type: "text", text: "hi" }] };
  assert.deepStrictEqual(fastParseOutput(text), text);
  assert.deepStrictEqual(fastParseOutput({ audience: "user", format: "structured", structuredContent: [1], junk: 1 }), {
    audience: "user",
    format: "structured",
    structuredContent: [1],
  });
  // Not taken: zod decides (and words the error when there is one).
  assert.equal(
    fastParseOutput({ audience: "io.modelcontextprotocol/ui", format: "structured", structuredContent: {} }),
    undefined,
  );
  assert.equal(
    fastParseOutput({
      audience: "user",
      format: "content",
      content: [{ type: "image", data: "AAAA", mimeType: "image/png" }],
    }),
    undefined,
  );
  assert.equal(
    fastParseOutput({
      audience: "user",
      format: "content",
      content: [{ type: "text", text: "x", annotations: { priority: 2 } }],
    }),
    undefined,
  );
  assert.equal(fastParseOutput({ audience: "user", format: "structured" }), undefined);
  assert.equal(
    fastParseOutput({ audience: "user", format: "content", content: [{ type: "text", text: 1 }] }),
    undefined,
  );
});
