// Hosts that send both: content plus the serialized structuredContent, all to the model.
import type { ToolResultOutput } from "../../protocol/index.js";
import type { ValidatedLegacyResult } from "../../host/result/validate.js";

export function both(r: ValidatedLegacyResult): ToolResultOutput[] {
  const content = [...r.content];
  if (r.structuredContent !== undefined) content.push({ type: "text", text: JSON.stringify(r.structuredContent) });
  return [{ audience: "assistant", format: "content", content }];
}
