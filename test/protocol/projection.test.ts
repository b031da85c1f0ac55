import { test } from "node:test";
import assert from "node:assert/strict";
import {
  eraOf,
  isModernVersion,
  projectResultToLegacy,
  projectToolToLegacy,
  shapesFor,
  usesOutputVariants,
  type VariantTool,
} from "../../src/protocol/index.js";

const tool: VariantTool = {
  name: "search_customers",
  inputSchema: { type: "object" },
  outputVariants: [
    { audience: "assistant", format: "content" },
    { audience: "assistant", format: "structured", schema: { type: "object", title: "model summary" } },
    { audience: "programmatic", format: "structured", schema: { type: "object", title: "records" } },
    { audience: "user", format: "structured", schema: { type: "array" } },
  ],
};

test("the requested version decides the shapes (SEP table)", () => {
  assert.deepEqual(shapesFor("2026-12-01"), { tool: "outputVariants", request: "requestedOutputs", result: "outputs" });
  for (const v of ["2026-07-28", "2025-11-25", "2024-11-05"]) {
    assert.deepEqual(shapesFor(v), { tool: "outputSchema", request: "none", result: "content+structuredContent" });
  }
  assert.equal(usesOutputVariants("2027-03-01"), true);
  assert.equal(eraOf("2026-12-01"), "2026-12-01");
  assert.equal(eraOf("2026-07-28"), "2026-07-28");
  assert.equal(eraOf("2025-11-25"), "legacy");
  assert.equal(isModernVersion("2025-11-25"), false);
});

test("legacy tools/list omits outputVariants and exposes only the assistant/structured schema", () => {
  const legacy = projectToolToLegacy(tool);
  assert.equal("outputVariants" in legacy, false);
  assert.deepEqual(legacy.outputSchema, { type: "object", title: "model summary" });
});

test("no assistant/structured: no outputSchema at all (never a programmatic or user schema)", () => {
  const t: VariantTool = {
    ...tool,
    outputVariants: tool.outputVariants.filter((v) => v.audience !== "assistant" || v.format === "content"),
  };
  assert.equal("outputSchema" in projectToolToLegacy(t), false);
});

test("an established legacy outputSchema is preserved", () => {
  const established = { type: "object", title: "weather v1" };
  assert.deepEqual(projectToolToLegacy(tool, established).outputSchema, established);
});

test("legacy tools/call: content from assistant/content, structuredContent only with an outputSchema, mirrored as the old versions recommend", () => {
  const content = [{ type: "text" as const, text: "I found 37 Globex customer records." }];
  const mirror = { type: "text" as const, text: '{"n":37}' };
  assert.deepEqual(
    projectResultToLegacy({ assistantContent: content, legacyStructured: { n: 37 }, hasLegacyOutputSchema: true }),
    {
      content: [...content, mirror],
      structuredContent: { n: 37 },
    },
  );
  assert.deepEqual(
    projectResultToLegacy({
      assistantContent: content,
      legacyStructured: { n: 37 },
      hasLegacyOutputSchema: true,
      mirror: false,
    }),
    { content, structuredContent: { n: 37 } },
  );
  assert.deepEqual(
    projectResultToLegacy({
      assistantContent: [...content, mirror],
      legacyStructured: { n: 37 },
      hasLegacyOutputSchema: true,
    }).content,
    [...content, mirror],
    "an established tool that already mirrors is not mirrored twice",
  );
  assert.deepEqual(
    projectResultToLegacy({ assistantContent: content, legacyStructured: { n: 37 }, hasLegacyOutputSchema: false }),
    {
      content,
    },
  );
  assert.deepEqual(
    projectResultToLegacy({
      assistantContent: content,
      legacyStructured: { n: 37 },
      hasLegacyOutputSchema: true,
      isError: true,
    }),
    { content, isError: true },
  );
});
