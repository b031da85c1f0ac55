import { test } from "node:test";
import assert from "node:assert/strict";
import {
  checkSelection,
  effectiveSelection,
  negotiatedExtensions,
  parseSelector,
  selectorKey,
  type ToolResultVariant,
  UI_EXTENSION,
} from "../../src/protocol/index.js";

const variants: ToolResultVariant[] = [
  { audience: "assistant", format: "content" },
  { audience: "programmatic", format: "structured" },
  { audience: UI_EXTENSION, format: "structured" },
];
const ui = new Set([UI_EXTENSION]);

test("absent requestedOutputs means the assistant/content fallback", () => {
  assert.equal(checkSelection(undefined, variants, new Set()), undefined);
  assert.deepEqual(effectiveSelection(undefined), [{ audience: "assistant", format: "content" }]);
});

test("declared selectors pass, in any order", () => {
  const req = [
    { audience: UI_EXTENSION, format: "structured" as const },
    { audience: "assistant", format: "content" as const },
  ];
  assert.equal(checkSelection(req, variants, ui), undefined);
  assert.deepEqual(effectiveSelection(req), req);
});

test("an undeclared selector is refused, naming it", () => {
  const issue = checkSelection([{ audience: "user", format: "content" }], variants, ui);
  assert.equal(issue?.rule, "undeclared-selector");
  assert.match(issue!.message, /user\/content/);
});

test("a selector twice is refused on the client side, answered once on the server side", () => {
  const s = { audience: "assistant", format: "content" as const };
  assert.equal(checkSelection([s, { ...s }], variants, ui)?.rule, "duplicate-selector");
  assert.equal(checkSelection([s, { ...s }], variants, ui, "server"), undefined);
  assert.deepEqual(effectiveSelection([s, { ...s }]), [s]);
});

test("an extension audience needs negotiation even when declared", () => {
  const issue = checkSelection([{ audience: UI_EXTENSION, format: "structured" }], variants, new Set());
  assert.equal(issue?.rule, "unnegotiated-selector");
  assert.match(issue!.message, /io\.modelcontextprotocol\/ui\/structured/);
});

test("an empty list is refused by the client (omit it for the fallback); a server answers it", () => {
  assert.equal(checkSelection([], variants, ui)?.rule, "empty-selection");
  assert.equal(checkSelection([], variants, ui, "server"), undefined);
});

test("negotiated extensions are those both sides advertised", () => {
  const n = negotiatedExtensions(
    { extensions: { [UI_EXTENSION]: {}, "com.example/only-client": {} } },
    { extensions: { [UI_EXTENSION]: {}, "com.example/only-server": {} } },
  );
  assert.deepEqual([...n], [UI_EXTENSION]);
  assert.equal(negotiatedExtensions(undefined, { extensions: { [UI_EXTENSION]: {} } }).size, 0);
});

test("selector notation round-trips, extension ids included", () => {
  for (const text of ["assistant/content", "programmatic/structured", "io.modelcontextprotocol/ui/structured"]) {
    const s = parseSelector(text);
    assert.ok(s, text);
    assert.equal(selectorKey(s!), text);
  }
  assert.deepEqual(parseSelector(`${UI_EXTENSION}/structured`), { audience: UI_EXTENSION, format: "structured" });
  assert.equal(parseSelector("assistant"), undefined);
  assert.equal(parseSelector("assistant/xml"), undefined);
  assert.equal(parseSelector("/content"), undefined);
});
