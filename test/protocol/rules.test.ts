// The closed table of rules: every rule src/ raises is in RULES (a rule added without its
// meanings fails here), every entry is raised somewhere, the rule unions are subsets of Rule,
// and the model reads the table's text (no guessing from the rule's name).
import { test } from "node:test";
import assert from "node:assert/strict";
import { RULES, exitCode, modelMeaning, type Rule } from "../../src/protocol/rules.js";
import type { ValidationRule } from "../../src/host/result/validate.js";
import type { DeclarationRule } from "../../src/protocol/declaration.js";
import type { SelectionRule } from "../../src/protocol/selection.js";
import { failureText } from "../../src/model/failure.js";
import { raisedRules } from "../helpers/raised-rules.js";

// Compile-time: each union of rules the code raises is a subset of the table's keys.
const subsets: [ValidationRule, DeclarationRule, SelectionRule] extends [Rule, Rule, Rule] ? true : false = true;

test("every rule raised in src/ is in RULES, and every RULES entry is raised", () => {
  assert.equal(subsets, true);
  const raised = raisedRules("src");
  const missing = [...raised].filter(([r]) => !(r in RULES)).map(([r, f]) => `${r} (${f})`);
  assert.deepEqual(missing, [], "rules raised without an entry in src/protocol/rules.ts");
  const unused = Object.keys(RULES).filter((r) => !raised.has(r));
  assert.deepEqual(unused, [], "entries no code raises");
  assert.ok(raised.size > 80, `the scan finds the rules (${raised.size})`);
});

test("the scan sees each way a rule is raised", () => {
  // Each form once, so a scan that stops seeing one fails here rather than passing quietly.
  const raised = raisedRules("src");
  for (const r of [
    "tool-moved",
    "declined-variant",
    "too-deep",
    "task-required",
    "not-approved",
    "unknown-server",
    "cpu-time",
    "x-mcp-header-unreachable",
    "empty-selection",
    "malformed-reply",
    "input-required-unanswerable",
    "roots-not-offered",
    "sampling-malformed",
  ])
    assert.ok(raised.has(r), r);
});

test("the model reads the table's meaning: no rule reaches it as a bare 'the call failed'", () => {
  for (const [rule, m] of Object.entries(RULES)) {
    assert.equal(modelMeaning(rule), m.model);
    assert.notEqual(m.model, "the call failed", rule);
  }
  assert.equal(
    failureText({ server: "s", tool: "t" }, { rule: "tool-moved" }),
    "The call failed (tool-moved): server s, tool t: the tool's name now means another server's tool, so the approved call was not run.",
  );
  assert.equal(
    failureText({ server: "s", tool: "t" }, { rule: "too-deep" }),
    "The call failed (too-deep): server s, tool t: the arguments or result are nested deeper than the host allows; the call was refused.",
  );
  assert.equal(modelMeaning("some-other-hosts-rule"), "the call failed");
});

test("a one-shot command's exit code is the table's: usage errors 2, the rest 1", () => {
  assert.equal(exitCode("unknown-server"), 2);
  assert.equal(exitCode("config"), 1);
  assert.equal(exitCode("connection-failed"), 1);
  assert.equal(exitCode("some-other-hosts-rule"), 1);
  for (const [rule, m] of Object.entries(RULES)) assert.equal(exitCode(rule), m.exit, rule);
});
