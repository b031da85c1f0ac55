// mcp-prism's own reading: content → model, structuredContent → program logic; never both to the model.
import type { ToolResultOutput } from "../../protocol/index.js";
import type { ValidatedLegacyResult } from "../validate.js";

export function sep(r: ValidatedLegacyResult): ToolResultOutput[] {
  const out: ToolResultOutput[] = [{ audience: "assistant", format: "content", content: r.content }];
  if (r.structuredContent !== undefined) {
    out.push({ audience: "programmatic", format: "structured", structuredContent: r.structuredContent });
  }
  return out;
}
