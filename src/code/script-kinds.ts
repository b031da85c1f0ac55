// Which of three kinds a tool is inside a script, what its call requests, and the value the
// script gets from the host's outcome:
// - "structured": a 2026-12-01 programmatic/structured variant, requested alone (SEP-3279);
// - "outputSchema": a legacy or 2026-07-28 tool with an outputSchema: its structuredContent,
//   validated against that schema by the host (legacy results route it to program logic);
// - "text": anything else (a legacy tool without outputSchema, a 2026-12-01 tool with only
//   assistant/content): `{text, content}`, the text blocks joined and the blocks as sent.
// The model never reads any of these; it reads only what the script returns.
import { A_CONTENT, P_STRUCTURED } from "../host/policy/types.js";
import type { CallSuccess, ToolEntry } from "../host/types.js";
import type { ToolResultOutputSelector } from "../protocol/index.js";
import { isObject } from "../protocol/is-object.js";

export type ScriptKind = "structured" | "outputSchema" | "text";

const isSel = (s: ToolResultOutputSelector) => (v: { audience: string; format: string }) =>
  v.audience === s.audience && v.format === s.format;

/** The kind a tool is in a script, or undefined when a script cannot call it. */
export function scriptKind(t: ToolEntry): ScriptKind | undefined {
  if (t.unavailable !== undefined) return undefined;
  if (t.era === "2026-12-01") {
    if (t.variants.some(isSel(P_STRUCTURED))) return "structured";
    return t.variants.some(isSel(A_CONTENT)) ? "text" : undefined;
  }
  return t.legacyOutputSchema !== undefined ? "outputSchema" : "text";
}

/** The tools a script can call: every usable tool of a kind. */
export function scriptTools(tools: readonly ToolEntry[]): ToolEntry[] {
  return tools.filter((t) => scriptKind(t) !== undefined);
}

/** What a call of this kind requests (legacy eras: nothing, they cannot select). */
export function selectionFor(t: ToolEntry, kind: ScriptKind): ToolResultOutputSelector[] | undefined {
  if (t.era !== "2026-12-01") return undefined;
  return [kind === "structured" ? P_STRUCTURED : A_CONTENT];
}

export type ScriptValue = { ok: true; value: unknown } | { ok: false; rule: string; message: string };

/** The text of content blocks, joined by newlines (non-text blocks left out). */
export function textOf(content: readonly unknown[]): string {
  return content
    .filter((b): b is { type: "text"; text: string } => isObject(b) && b.type === "text" && typeof b.text === "string")
    .map((b) => b.text)
    .join("\n");
}

/** The value a successful outcome gives a script of this kind; an isError result is a failure. */
export function scriptValue(entry: ToolEntry, kind: ScriptKind, outcome: CallSuccess): ScriptValue {
  const content = outcome.routed.model.flatMap((o) => (o.format === "content" ? o.content : []));
  const structured = outcome.routed.programmatic.find((o) => o.format === "structured");
  const value = structured && "structuredContent" in structured ? structured.structuredContent : undefined;
  if (outcome.isError) {
    const message = errorMessage(value) ?? (textOf(content).slice(0, 500) || `${entry.name} reported an error`);
    return { ok: false, rule: "tool-error", message };
  }
  if (kind === "text") return { ok: true, value: { text: textOf(content), content } };
  if (value === undefined) {
    if (kind === "structured")
      return {
        ok: false,
        rule: "no-programmatic-output",
        message: `${entry.name} returned no programmatic/structured output`,
      };
    return {
      ok: false,
      rule: "no-structured-content",
      message: `${entry.name} returned no structuredContent (its outputSchema promises one)`,
    };
  }
  return { ok: true, value };
}

/** A tool error's own message, when its structured output carries one as `error.message` or `message`. */
function errorMessage(v: unknown): string | undefined {
  if (!isObject(v)) return undefined;
  const inner = isObject(v.error) ? v.error.message : v.message;
  return typeof inner === "string" ? inner.slice(0, 500) : undefined;
}
