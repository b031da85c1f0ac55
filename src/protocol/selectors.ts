// Selector helpers: the "audience/format" notation used on the command line, in logs and in errors.
import type { ToolResultFormat, ToolResultOutputSelector } from "./schemas.js";

/** "assistant/content", "io.modelcontextprotocol/ui/structured". */
export function selectorKey(s: ToolResultOutputSelector): string {
  return `${s.audience}/${s.format}`;
}

/** Parses "audience/format"; the format is after the last slash (extension ids contain one). */
export function parseSelector(text: string): ToolResultOutputSelector | undefined {
  const at = text.lastIndexOf("/");
  if (at <= 0) return undefined;
  const audience = text.slice(0, at);
  const format = text.slice(at + 1);
  if (format !== "content" && format !== "structured") return undefined;
  return { audience, format: format as ToolResultFormat };
}

export function sameSelector(a: ToolResultOutputSelector, b: ToolResultOutputSelector): boolean {
  return a.audience === b.audience && a.format === b.format;
}

export const ASSISTANT_CONTENT: ToolResultOutputSelector = Object.freeze({ audience: "assistant", format: "content" });
