import type { ToolEntry } from "./types.js";

/** A tool may run unasked only if it says it is read-only (the app asks; -p needs --yes). */
export function needsApproval(tool: ToolEntry): boolean {
  return tool.annotations?.readOnlyHint !== true;
}
