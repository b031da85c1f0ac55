// How mcp-prism reads a legacy (2026-07-28-or-earlier) result: content → model, structuredContent
// → program logic; never both to the model. Other clients' readings are compare's (src/compare/profiles).
// An App tool's structuredContent in app mode (`viewAudience`) is the View's data, as the MCP Apps
// specification reads it: it goes to that extension's audience instead of program logic.
import type { ToolResultOutput } from "../../protocol/index.js";
import type { ValidatedLegacyResult } from "./validate.js";

export function legacyOutputs(r: ValidatedLegacyResult, viewAudience?: string): ToolResultOutput[] {
  const out: ToolResultOutput[] = [{ audience: "assistant", format: "content", content: r.content }];
  if (r.structuredContent !== undefined) {
    const audience = (viewAudience ?? "programmatic") as "programmatic";
    out.push({ audience, format: "structured", structuredContent: r.structuredContent });
  }
  return out;
}
