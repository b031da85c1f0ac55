// gemini-cli: only content reaches the model; structuredContent is ignored.
import type { ToolResultOutput } from "../../protocol/index.js";
import type { ValidatedLegacyResult } from "../../host/result/validate.js";

export function contentOnly(r: ValidatedLegacyResult): ToolResultOutput[] {
  return [{ audience: "assistant", format: "content", content: r.content }];
}
