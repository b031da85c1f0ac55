// Version projection: which shapes a protocol version uses, and the legacy projections a
// dual-version server applies (SEP-3279 "Backward compatibility").
import type {
  ContentBlock,
  JsonSchema,
  LegacyCallToolResult,
  LegacyTool,
  ToolResultVariant,
  VariantTool,
} from "./schemas.js";
import { usesOutputVariants } from "./versions.js";

export interface Shapes {
  tool: "outputVariants" | "outputSchema";
  request: "requestedOutputs" | "none";
  result: "outputs" | "content+structuredContent";
}

/** The SEP's table: the requested version, not the presence of a field, determines the shapes. */
export function shapesFor(version: string): Shapes {
  return usesOutputVariants(version)
    ? { tool: "outputVariants", request: "requestedOutputs", result: "outputs" }
    : { tool: "outputSchema", request: "none", result: "content+structuredContent" };
}

export function findVariant(
  variants: readonly ToolResultVariant[],
  audience: string,
  format: "content" | "structured",
) {
  return variants.find((v) => v.audience === audience && v.format === format);
}

/**
 * The legacy outputSchema of a variant tool: an established legacy schema when the tool kept
 * one, else the assistant/structured schema; never a user, programmatic or extension schema.
 */
export function legacyOutputSchema(tool: VariantTool, established?: JsonSchema): JsonSchema | undefined {
  if (established) return established;
  const v = findVariant(tool.outputVariants, "assistant", "structured");
  return v && v.format === "structured" ? v.schema : undefined;
}

/** tools/list under 2026-07-28 or earlier: omit outputVariants, expose at most one legacy outputSchema. */
export function projectToolToLegacy(tool: VariantTool, established?: JsonSchema): LegacyTool {
  const { outputVariants: _dropped, ...rest } = tool;
  const outputSchema = legacyOutputSchema(tool, established);
  return outputSchema ? { ...rest, outputSchema } : { ...rest };
}

/**
 * tools/call under 2026-07-28 or earlier: `content` from assistant/content; `structuredContent`
 * only when the legacy Tool declared an outputSchema (and then it must conform to it).
 * Those versions recommend serializing structuredContent into a TextContent block "for backwards
 * compatibility", and the SEP says a server SHOULD retain that behaviour for them: `mirror`
 * (default true) appends it. The 2026-12-01 path never mirrors.
 */
export function projectResultToLegacy(parts: {
  assistantContent: ContentBlock[];
  legacyStructured?: unknown;
  hasLegacyOutputSchema: boolean;
  isError?: boolean;
  mirror?: boolean;
  _meta?: Record<string, unknown>;
}): LegacyCallToolResult {
  const result: LegacyCallToolResult = { content: parts.assistantContent };
  if (parts.hasLegacyOutputSchema && parts.legacyStructured !== undefined && !parts.isError) {
    result.structuredContent = parts.legacyStructured;
    const serialized = JSON.stringify(parts.legacyStructured);
    const alreadyMirrored = parts.assistantContent.some((b) => b.type === "text" && b.text === serialized);
    if (parts.mirror !== false && !alreadyMirrored) {
      result.content = [...parts.assistantContent, { type: "text", text: serialized }];
    }
  }
  if (parts.isError) result.isError = true;
  if (parts._meta) result._meta = parts._meta;
  return result;
}
