import { test } from "node:test";
import assert from "node:assert/strict";
import {
  assertDeclaration,
  checkDeclaration,
  DeclarationError,
  type ToolResultVariant,
  UI_EXTENSION,
} from "../../src/protocol/index.js";

const none = { negotiatedExtensions: new Set<string>() };
const ui = { negotiatedExtensions: new Set([UI_EXTENSION]) };
const rules = (v: ToolResultVariant[], ctx = none) => checkDeclaration(v, ctx).map((i) => i.rule);

test("a declaration with assistant/content and tailored variants is valid", () => {
  const v: ToolResultVariant[] = [
    { audience: "assistant", format: "content" },
    { audience: "assistant", format: "structured", schema: { type: "object" } },
    { audience: "user", format: "content" },
    { audience: "user", format: "structured" },
    { audience: "programmatic", format: "structured", schema: { type: "array" } },
  ];
  assert.deepEqual(rules(v), []);
});

test("every tool must declare assistant/content", () => {
  assert.deepEqual(rules([{ audience: "assistant", format: "structured" }]), ["assistant-content-required"]);
  assert.deepEqual(rules([]), ["assistant-content-required"]);
});

test("the same audience/format pair may not be declared twice", () => {
  const v: ToolResultVariant[] = [
    { audience: "assistant", format: "content" },
    { audience: "user", format: "structured" },
    { audience: "user", format: "structured", schema: { type: "object" } },
  ];
  assert.deepEqual(rules(v), ["duplicate-variant"]);
});

test("programmatic takes structured only", () => {
  const v: ToolResultVariant[] = [
    { audience: "assistant", format: "content" },
    { audience: "programmatic", format: "content" },
  ];
  assert.deepEqual(rules(v), ["disallowed-core-combination"]);
});

test("arbitrary server-defined audience names are invalid; namespaced extension ids are not", () => {
  const bad: ToolResultVariant[] = [
    { audience: "assistant", format: "content" },
    { audience: "host", format: "structured" },
  ];
  assert.deepEqual(rules(bad), ["invalid-audience"]);
  const ext: ToolResultVariant[] = [
    { audience: "assistant", format: "content" },
    { audience: UI_EXTENSION, format: "structured" },
  ];
  assert.deepEqual(rules(ext, ui), []);
});

test("extension audiences only when negotiated", () => {
  const v: ToolResultVariant[] = [
    { audience: "assistant", format: "content" },
    { audience: UI_EXTENSION, format: "structured" },
  ];
  assert.deepEqual(rules(v, none), ["unnegotiated-extension-audience"]);
});

test("structured schemas must compile in the dialect they name", () => {
  const v: ToolResultVariant[] = [
    { audience: "assistant", format: "content" },
    { audience: "assistant", format: "structured", schema: { type: "nonsense-type" } },
    { audience: "programmatic", format: "structured", schema: { $schema: "http://json-schema.org/draft-03/schema#" } },
    {
      audience: "user",
      format: "structured",
      schema: { $schema: "http://json-schema.org/draft-07/schema#", type: "object" },
    },
  ];
  assert.deepEqual(rules(v), ["invalid-variant-schema", "invalid-variant-schema"]);
});

test("assertDeclaration throws a named error carrying the tool and every issue", () => {
  assert.throws(
    () => assertDeclaration("t", [{ audience: "programmatic", format: "content" }], none),
    (e: unknown) =>
      e instanceof DeclarationError &&
      e.tool === "t" &&
      e.rule === "assistant-content-required" &&
      e.issues.length === 2 &&
      /programmatic\/content/.test(e.message),
  );
});
