// Arguments `mcp-prism check` builds from a tool's inputSchema.
import { test } from "node:test";
import assert from "node:assert/strict";
import { sampleArguments } from "../../src/conformance/sample-args.js";

test("required properties get default, examples, enum or const values first", () => {
  assert.deepEqual(
    sampleArguments({
      type: "object",
      properties: {
        a: { type: "string", default: "d" },
        b: { type: "string", examples: ["ex"] },
        c: { enum: ["x", "y"] },
        d: { const: 7 },
        e: { type: "string" },
      },
      required: ["a", "b", "c", "d", "e"],
    }),
    { a: "d", b: "ex", c: "x", d: 7, e: "test" },
  );
});

test("types: numbers at their minimum (or 1), booleans false, arrays to minItems, nested objects, optional left out", () => {
  assert.deepEqual(
    sampleArguments({
      type: "object",
      properties: {
        n: { type: "integer", minimum: 3 },
        m: { type: "number" },
        x: { type: "integer", exclusiveMinimum: 0, maximum: 10 },
        f: { type: "boolean" },
        list: { type: "array", minItems: 2, items: { type: "string", minLength: 6 } },
        obj: { type: "object", properties: { k: { type: "string", format: "date" } }, required: ["k"] },
        opt: { type: "string" },
        either: { anyOf: [{ type: "null" }, { type: "integer" }] },
      },
      required: ["n", "m", "x", "f", "list", "obj", "either"],
    }),
    { n: 3, m: 1, x: 1, f: false, list: ["testxx", "testxx"], obj: { k: "2026-01-01" }, either: 1 },
  );
});

test("no schema, no required, or a recursive schema: bounded and an object", () => {
  assert.deepEqual(sampleArguments(undefined), {});
  assert.deepEqual(sampleArguments({ type: "object" }), {});
  const loop: Record<string, unknown> = { type: "object", required: ["self"], properties: {} };
  (loop.properties as Record<string, unknown>).self = loop;
  assert.equal(typeof sampleArguments(loop), "object");
});
