// Untrusted schemas against untrusted values: patterns match on a linear-time engine (a
// catastrophic pattern answers at once, on any dialect, in `pattern` and `patternProperties`);
// what that engine cannot run does not compile; JSON depth is measured without recursion.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  compiledSchemaCount,
  compileSchema,
  SchemaCompileError,
  schemaCompileIssue,
} from "../../src/protocol/json-schema.js";
import { exceedsJsonDepth } from "../../src/protocol/json-depth.js";
import { toToolEntry } from "../../src/host/catalog/tools.js";

const NO_MATCH = `${"a".repeat(5000)}!`; // a backtracking engine would need ~2^5000 steps

test("catastrophic patterns answer (false) on a 5,001-character value in every dialect and in patternProperties", () => {
  for (const $schema of [
    undefined,
    "https://json-schema.org/draft/2019-09/schema",
    "http://json-schema.org/draft-07/schema#",
    "http://json-schema.org/draft-04/schema#",
  ]) {
    for (const pattern of ["^(a+)+$", "^([a-zA-Z0-9]+)*@x\\.com$", "^(a|a)*$", "^(a|aa)+$"]) {
      const fn = compileSchema({ ...($schema ? { $schema } : {}), type: "string", pattern });
      assert.equal(fn(NO_MATCH), false, `${pattern} ${$schema}`);
      assert.equal(fn("aaaa"), pattern.includes("@") ? false : true);
    }
  }
  const props = compileSchema({ type: "object", patternProperties: { "^(a+)+$": { type: "number" } } });
  assert.equal(props({ [NO_MATCH]: "not checked: the key does not match" }), true);
  assert.equal(props({ aaa: "x" }), false);
});

test("JSON Schema pattern semantics are kept: unanchored search, classes, unicode, escapes, named groups", () => {
  const ok = (pattern: string, yes: string[], no: string[]) => {
    const fn = compileSchema({ type: "string", pattern });
    for (const y of yes) assert.equal(fn(y), true, `${pattern} ~ ${y}`);
    for (const n of no) assert.equal(fn(n), false, `${pattern} !~ ${n}`);
  };
  ok("b", ["abc"], ["xyz"]);
  ok("^\\d{3}-\\w+$", ["123-ab_c"], ["12-ab", "123-a b"]);
  ok("^[a-z/]+$", ["a/b"], ["A"]);
  ok("^\\u00e9$", ["é"], ["e"]);
  ok("^\\p{L}+$", ["Grüße"], ["1"]);
  ok("^(?<word>x)$", ["x"], ["xx"]);
  ok("^.$", ["😀"], ["ab"]);
});

test("a pattern the linear engine cannot run makes the schema uncompilable (no backtracking fallback)", () => {
  for (const pattern of ["(a)\\1", "^(?=a)a$", "(?!a)b", "(?<=a)b"]) {
    assert.throws(() => compileSchema({ type: "string", pattern }), SchemaCompileError, pattern);
    assert.match(schemaCompileIssue({ properties: { s: { pattern } } }) ?? "", /is not supported .*linear-time engine/);
  }
});

test("exceedsJsonDepth: exact at the limit, no stack for 1,000,000 levels, linear", () => {
  let deep: unknown = 1;
  for (let i = 0; i < 1_000_000; i++) deep = [deep];
  assert.equal(exceedsJsonDepth(deep, 100), true);
  assert.equal(exceedsJsonDepth({ a: { b: [1] } }, 3), false);
  assert.equal(exceedsJsonDepth({ a: { b: [1] } }, 2), true);
  assert.equal(exceedsJsonDepth("scalar", 0), false);
  assert.equal(exceedsJsonDepth({}, 0), true);
  const wide = { rows: Array.from({ length: 100_000 }, (_, i) => ({ i, tags: ["x"] })) };
  assert.equal(exceedsJsonDepth(wide, 4), false);
});

test("a tools/list entry compiles no schema; its depth is checked before anything walks it", () => {
  const before = compiledSchemaCount();
  const variants = [
    { audience: "assistant", format: "content" },
    {
      audience: "programmatic",
      format: "structured",
      schema: { type: "object", properties: { s: { pattern: "^x-listing-only$" } } },
    },
  ];
  const entry = toToolEntry(
    "srv",
    { name: "t", inputSchema: { type: "object" }, outputVariants: variants },
    "2026-12-01",
    new Set(),
  );
  assert.ok(!("rule" in entry), JSON.stringify(entry));
  const legacy = toToolEntry(
    "srv",
    { name: "l", inputSchema: { type: "object" }, outputSchema: { type: "object", required: ["listing-only"] } },
    "legacy",
    new Set(),
  );
  assert.ok(!("rule" in legacy));
  assert.equal(compiledSchemaCount(), before, "listing compiled a schema");
  let schema: Record<string, unknown> = { type: "string" };
  for (let i = 0; i < 10_000; i++) schema = { type: "object", properties: { a: schema } };
  const deep = toToolEntry("srv", { name: "deep", inputSchema: schema }, "legacy", new Set());
  assert.equal((deep as { rule?: string }).rule, "too-deep");
  assert.match(
    (deep as { message: string }).message,
    /^server srv, tool deep: nesting in the declaration goes deeper than 100 levels \(limits\.maxJsonDepth\); not offered$/,
  );
});
