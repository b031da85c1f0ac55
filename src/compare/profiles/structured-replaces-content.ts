// Claude Code, Codex, opencode: when structuredContent is present, its JSON text replaces content for the model.
import type { ToolResultOutput } from "../../protocol/index.js";
import type { ValidatedLegacyResult } from "../../host/result/validate.js";

export function structuredReplacesContent(r: ValidatedLegacyResult): ToolResultOutput[] {
  if (r.structuredContent === undefined) return [{ audience: "assistant", format: "content", content: r.content }];
  return [
    {
      audience: "assistant",
      format: "content",
      content: [{ type: "text", text: JSON.stringify(r.structuredContent) }],
    },
  ];
}
