// A mode policy is data: an ordered list of preferences applied generically by ./index.ts.
import type { ToolResultOutputSelector } from "../../protocol/index.js";

export interface Preference {
  /** The selector to request. */
  want: ToolResultOutputSelector;
  /** Request it only when the tool declares it (else the preference is skipped). */
  ifDeclared?: boolean;
  /** If the tool does not declare `want`, request this instead (must itself be declared). */
  otherwise?: ToolResultOutputSelector;
}

export interface ModePolicy {
  /** Extensions the client advertises in this mode (id → settings). */
  advertiseExtensions: Record<string, Record<string, unknown>>;
  /** false = send no requestedOutputs (the server returns the assistant/content fallback). */
  sendRequestedOutputs: boolean;
  preferences: Preference[];
  /** What the model receives instead of data when its sink stays empty (code mode). */
  receiptOnly?: boolean;
}

export const A_CONTENT: ToolResultOutputSelector = { audience: "assistant", format: "content" };
export const A_STRUCTURED: ToolResultOutputSelector = { audience: "assistant", format: "structured" };
export const U_CONTENT: ToolResultOutputSelector = { audience: "user", format: "content" };
export const U_STRUCTURED: ToolResultOutputSelector = { audience: "user", format: "structured" };
export const P_STRUCTURED: ToolResultOutputSelector = { audience: "programmatic", format: "structured" };
