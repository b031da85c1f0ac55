// docs/spec-proposal/ is spec documentation, not ours: every normative statement of SEP-3279 (the
// keyword-bearing texts of conformance/sep-3279.yaml's requirements, quoted from the SEP) appears
// in the chapter verbatim, the sentences a reviewer found missing are there, no host internals
// leak in, and schema.diff adds every type the SEP defines.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { parse } from "yaml";

const CHAPTER = readFileSync("docs/spec-proposal/server-tools-result-variants.mdx", "utf8");
const norm = (t: string) => t.replace(/[^A-Za-z0-9]/g, "").toLowerCase();
const chapter = norm(CHAPTER);
const fragments = (text: string) =>
  text
    .split(" / ")
    .flatMap((t) => t.split(/\[[^\]]*\]/))
    .map(norm)
    .filter(Boolean);

test("every normative SEP statement traced in conformance/sep-3279.yaml is in the chapter verbatim", () => {
  const doc = parse(readFileSync("conformance/sep-3279.yaml", "utf8"), { schema: "failsafe" }) as {
    requirements: Record<string, string>[];
  };
  const normative = doc.requirements.filter((e) => /\b(MUST|SHOULD|MAY|REQUIRED)\b/.test(e.text));
  assert.ok(normative.length > 40);
  const missing = normative.flatMap((e) =>
    fragments(e.text)
      .filter((f) => !chapter.includes(f))
      .map(() => e.text.slice(0, 90)),
  );
  assert.deepEqual([...new Set(missing)], []);
});

test("the sentences the review found missing are present", () => {
  for (const s of [
    "A client SHOULD request this variant only when it can present the declared schema using host-controlled UI.",
    "A client MAY decline to request a structured variant that does not declare a schema.",
    "it SHOULD present the schema for the variant it will request rather than every schema advertised by the tool.",
    "maps only to the legacy `structuredContent` field. It does not define the schema for every structured variant.",
    "An extension MAY define additional namespaced audience identifiers.",
    "the extension MUST define how clients and servers negotiate each one through its per-extension capability settings.",
    "Extensions must not redefine the semantics of the core audiences.",
  ]) {
    assert.ok(chapter.includes(norm(s)), s);
  }
});

test("the chapter is in the house structure and carries no host internals", () => {
  const headings = [...CHAPTER.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
  for (const h of [
    "Capabilities",
    "Messages",
    "Message Flow",
    "Data Types",
    "Error Handling",
    "Security Considerations",
  ])
    assert.ok(headings.includes(h), h);
  assert.doesNotMatch(CHAPTER, /src\/(host|model|ui|code)|QuickJS|\/open \d|\[check:|test\/|mcp-prism/);
  assert.match(
    CHAPTER,
    /For requests using protocol version 2026-07-28 or earlier, a tool that returns\s+> `structuredContent` SHOULD also return the serialized JSON/,
  );
});

test("schema.diff adds every type the SEP defines, and removes the legacy fields from Tool and CallToolResult", () => {
  const diff = readFileSync("docs/spec-proposal/schema.diff", "utf8");
  const added = diff
    .split("\n")
    .filter((l) => l.startsWith("+"))
    .join("\n");
  const removed = diff
    .split("\n")
    .filter((l) => l.startsWith("-"))
    .join("\n");
  for (const t of [
    "CoreToolResultAudience",
    "ToolResultAudience",
    "ToolResultFormat",
    "ToolResultOutputSelector",
    "ContentToolResultVariant",
    "StructuredToolResultVariant",
    "ToolResultVariant",
    "ContentToolResultOutput",
    "StructuredToolResultOutput",
    "ToolResultOutput",
  ]) {
    assert.match(added, new RegExp(`export (type|interface) ${t}\\b`), t);
  }
  assert.match(added, /outputVariants: ToolResultVariant\[\];/);
  assert.match(added, /requestedOutputs\?: ToolResultOutputSelector\[\];/);
  assert.match(added, /outputs: ToolResultOutput\[\];/);
  assert.match(removed, /outputSchema\?:/);
  assert.match(removed, /structuredContent\?:/);
});
