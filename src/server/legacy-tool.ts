// fromLegacyTool: the SEP's "Tool migration" inferences for a tool written the legacy way
// (a handler returning content + optional structuredContent, with an optional outputSchema):
//   content      → assistant/content
//   outputSchema → assistant/structured (the inference this helper makes: the established
//                  structured data was written for the model; opt out with `assistantStructured: false`)
//   programmatic/structured only when explicitly opted in (`programmatic: true`)
// Its legacy projection keeps the established outputSchema and structuredContent unchanged.
import type { ContentBlock, JsonSchema, ToolAnnotations } from "../protocol/index.js";
import { defineTool, ToolError, type DefinedTool, type RunContext, type VariantDefinition } from "./tool.js";

export interface LegacyToolResult {
  content: ContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
}

export interface LegacyToolDefinition<A = Record<string, unknown>> {
  name: string;
  title?: string;
  description: string;
  inputSchema: { type: "object"; [key: string]: unknown };
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
  _meta?: Record<string, unknown>;
  handler: (args: A, ctx: RunContext) => Promise<LegacyToolResult> | LegacyToolResult;
  /** Declare assistant/structured from outputSchema (default true when an outputSchema exists). */
  assistantStructured?: boolean;
  /** Also declare programmatic/structured with the outputSchema: only when the data suits code. */
  programmatic?: boolean;
}

export function fromLegacyTool<A = Record<string, unknown>>(
  def: LegacyToolDefinition<A>,
): DefinedTool<LegacyToolResult> {
  const variants: VariantDefinition<LegacyToolResult>[] = [
    { audience: "assistant", format: "content", project: (r) => r.content },
  ];
  if (def.outputSchema && def.assistantStructured !== false) {
    variants.push({
      audience: "assistant",
      format: "structured",
      schema: def.outputSchema,
      project: (r) => r.structuredContent,
    });
  }
  if (def.outputSchema && def.programmatic) {
    variants.push({
      audience: "programmatic",
      format: "structured",
      schema: def.outputSchema,
      project: (r) => r.structuredContent,
    });
  }
  return defineTool<A, LegacyToolResult>({
    name: def.name,
    title: def.title,
    description: def.description,
    inputSchema: def.inputSchema,
    annotations: def.annotations,
    _meta: def._meta,
    outputVariants: variants,
    legacy: def.outputSchema ? { outputSchema: def.outputSchema, structured: (r) => r.structuredContent } : undefined,
    async run(args, ctx) {
      const r = await def.handler(args, ctx);
      if (!r.isError) return r;
      const text = r.content
        .map((b) => (b.type === "text" ? b.text : ""))
        .join(" ")
        .trim();
      return new ToolError(text || `${def.name} failed`, { "assistant/content": r.content });
    },
  });
}
