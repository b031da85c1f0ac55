import { test } from "node:test";
import assert from "node:assert/strict";
import {
  checkAgainstSchema,
  compileSchema,
  ContentBlockSchema,
  isBase64,
  ToolResultOutputSchema,
  VariantToolSchema,
} from "../../src/protocol/index.js";

test("content blocks are checked for well-formedness", () => {
  assert.ok(ContentBlockSchema.safeParse({ type: "text", text: "hi" }).success);
  assert.ok(ContentBlockSchema.safeParse({ type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" }).success);
  assert.equal(
    ContentBlockSchema.safeParse({ type: "image", data: "not base64!", mimeType: "image/png" }).success,
    false,
  );
  assert.equal(ContentBlockSchema.safeParse({ type: "image", data: "iVBORw0KGgo=", mimeType: "png" }).success, false);
  assert.equal(ContentBlockSchema.safeParse({ type: "text" }).success, false);
  assert.equal(ContentBlockSchema.safeParse({ type: "video", uri: "x" }).success, false);
  assert.ok(ContentBlockSchema.safeParse({ type: "resource_link", uri: "file:///a", name: "a" }).success);
  assert.ok(ContentBlockSchema.safeParse({ type: "resource", resource: { uri: "x://y", blob: "AAAA" } }).success);
});

test("base64 validation", () => {
  assert.ok(isBase64(""));
  assert.ok(isBase64("QUJD"));
  assert.ok(isBase64("QUI="));
  assert.equal(isBase64("QUI"), false);
  assert.equal(isBase64("Q$I="), false);
  for (const bad of ["====", "A===", "QU=I", "QUI\n", "QUJ\u00e9", "=QUI"])
    assert.equal(isBase64(bad), false, JSON.stringify(bad));
});

test("base64 validation is linear and stack-free: a 3.6 MB screenshot's 4.8M characters (a backtracking regex overflowed here)", () => {
  const big = Buffer.alloc(3_600_000, 0xa7).toString("base64");
  assert.ok(isBase64(big));
  assert.ok(isBase64(big.slice(0, -4) + "QUI="));
  assert.equal(isBase64(big.slice(0, -4) + "QU$="), false);
  assert.ok(ContentBlockSchema.safeParse({ type: "image", data: big, mimeType: "image/png" }).success);
});

test("outputs: content needs a block array, structured needs structuredContent", () => {
  assert.ok(ToolResultOutputSchema.safeParse({ audience: "assistant", format: "content", content: [] }).success);
  assert.equal(
    ToolResultOutputSchema.safeParse({ audience: "assistant", format: "content", content: "text" }).success,
    false,
  );
  assert.ok(
    ToolResultOutputSchema.safeParse({ audience: "programmatic", format: "structured", structuredContent: null })
      .success,
  );
  assert.equal(ToolResultOutputSchema.safeParse({ audience: "programmatic", format: "structured" }).success, false);
  assert.equal(
    ToolResultOutputSchema.safeParse({ audience: "robots", format: "structured", structuredContent: 1 }).success,
    false,
  );
});

test("a 2026-12-01 Tool requires outputVariants", () => {
  const base = { name: "t", inputSchema: { type: "object" } };
  assert.equal(VariantToolSchema.safeParse(base).success, false);
  assert.ok(
    VariantToolSchema.safeParse({ ...base, outputVariants: [{ audience: "assistant", format: "content" }] }).success,
  );
});

test("2020-12 keywords are honoured (prefixItems), validators are cached per schema object", () => {
  const schema = { type: "array", prefixItems: [{ type: "string" }, { type: "number" }], items: false };
  assert.equal(checkAgainstSchema(schema, ["a", 1]), undefined);
  assert.match(checkAgainstSchema(schema, ["a", "b"]) ?? "", /must be number/);
  assert.ok(checkAgainstSchema(schema, ["a", 1, 2]));
  assert.equal(compileSchema(schema), compileSchema(schema));
});

test("a $ref to a network URI is not fetched: the schema fails to compile", () => {
  assert.throws(() => compileSchema({ $ref: "https://example.invalid/schema.json" }));
});
