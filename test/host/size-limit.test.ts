import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { bytesOverLimit } from "../../src/host/connection/size-limit.js";

const exact = (v: unknown) => Buffer.byteLength(JSON.stringify(v) ?? "");
// Strings from the whole code-point range, lone surrogates and control characters included.
const anyString = fc.oneof(
  fc.string({ unit: "binary" }),
  fc.string({ unit: "grapheme" }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) }),
);
const value = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: "small" },
    anyString,
    fc.double(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("v"), { maxLength: 5 }),
    fc.dictionary(anyString, tie("v"), { maxKeys: 5 }),
  ),
}));

test("bytesOverLimit: same verdict as serializing, exact size when over, for any JSON value and limit", () => {
  fc.assert(
    fc.property(value.v, fc.nat({ max: 400 }), (v, limit) => {
      const size = exact(v);
      assert.equal(bytesOverLimit(v, limit), size > limit ? size : undefined);
    }),
    { numRuns: 4000, seed: 3279 },
  );
});

test("bytesOverLimit: a small result is passed without serializing it; a large one is measured exactly", () => {
  let serialized = 0;
  const spy = { toJSON: () => (serialized++, "x") };
  // A value with toJSON cannot be bounded by the walk: it is serialized (and passes).
  assert.equal(bytesOverLimit({ a: spy }, 1000), undefined);
  assert.equal(serialized, 1);
  const rows = Array.from({ length: 37 }, (_, i) => ({
    displayName: `Globex ${i}`,
    region: "NA",
    plan: "business",
    n: i,
  }));
  assert.equal(
    bytesOverLimit({ outputs: [{ audience: "user", format: "structured", structuredContent: rows }] }, 8 << 20),
    undefined,
  );
  const big = { text: "é".repeat(600_000) }; // 1.2 MB of UTF-8
  assert.equal(bytesOverLimit(big, 1 << 20), exact(big));
  assert.equal(bytesOverLimit(big, 2 << 20), undefined);
  // Cycles are JSON.stringify's to refuse, as before.
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  assert.throws(() => bytesOverLimit(cyclic, 10));
});
