// How mcp-prism reads a legacy (2026-07-28-or-earlier) result: content → model, structuredContent
// → program logic; never both to the model. Other clients' readings are compare's (src/compare/profiles).
import type { ToolResultOutput } from "../protocol/index.js";
import type { ValidatedLegacyResult } from "./validate.js";

export function legacyOutputs(r: ValidatedLegacyResult): ToolResultOutput[] {
  const out: ToolResultOutput[] = [{ audience: "assistant", format: "content", content: r.content }];
  if (r.structuredContent !== undefined) {
    out.push({ audience: "programmatic", format: "structured", structuredContent: r.structuredContent });
  }
  return out;
}
