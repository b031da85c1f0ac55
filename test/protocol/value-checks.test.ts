// The shared wire checks every layer uses instead of its own copy (src/protocol/is-object.ts,
// src/protocol/issue-text.ts).
import { test } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import { isObject } from "../../src/protocol/is-object.js";
import { firstIssueText } from "../../src/protocol/issue-text.js";

test("isObject: a JSON object only, not null, an array or a scalar", () => {
  for (const v of [{}, { a: 1 }, Object.create(null)]) assert.equal(isObject(v), true);
  for (const v of [null, undefined, [], [1], "x", 1, true]) assert.equal(isObject(v), false, JSON.stringify(v));
});

test("firstIssueText: the first issue with its path, or alone at the root", () => {
  const nested = z.object({ a: z.object({ b: z.number() }) }).safeParse({ a: { b: "x" } });
  assert.ok(!nested.success);
  assert.match(firstIssueText(nested.error), /^a\.b: /);
  const root = z.number().safeParse("x");
  assert.ok(!root.success);
  assert.equal(firstIssueText(root.error), root.error.issues[0].message);
});
