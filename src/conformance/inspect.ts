// Small readers over raw replies, shared by the check groups.
import { ContentBlockSchema, type ToolResultOutputSelector } from "../protocol/index.js";
import { describeFailure, type Exchange } from "./context.js";
import { isObject } from "./wire.js";

export const key = (s: { audience?: unknown; format?: unknown }): string => `${String(s.audience)}/${String(s.format)}`;
export const keys = (list: readonly ToolResultOutputSelector[] | undefined): string =>
  list === undefined ? "(none)" : list.length === 0 ? "[]" : list.map(key).join(" + ");

/** The `outputs` array of a result, or undefined when it has none. */
export function outputsOf(x: Exchange): Record<string, unknown>[] | undefined {
  if (x.reply?.kind !== "result") return undefined;
  const o = x.reply.result.outputs;
  return Array.isArray(o) ? o.map((e) => (isObject(e) ? e : { invalid: e })) : undefined;
}

export function resultOf(x: Exchange): Record<string, unknown> | undefined {
  return x.reply?.kind === "result" ? x.reply.result : undefined;
}

/** "search_customers [user/structured]" for messages. */
export function subject(tool: string, requested?: readonly ToolResultOutputSelector[]): string {
  return requested === undefined ? `${tool} (no requestedOutputs)` : `${tool} [${keys(requested)}]`;
}

/** Why an exchange has no usable result, or undefined when it has one. */
export function noResult(x: Exchange): string | undefined {
  if (x.reply?.kind === "result") return undefined;
  return describeFailure(x);
}

/** Why a content output's `content` is not a ContentBlock[], or undefined. */
export function contentProblem(content: unknown): string | undefined {
  if (!Array.isArray(content)) return "content is not an array";
  for (let i = 0; i < content.length; i++) {
    const r = ContentBlockSchema.safeParse(content[i]);
    if (!r.success) return `content[${i}] is not a valid content block (${r.error.issues[0]?.message ?? "invalid"})`;
  }
  return undefined;
}

/** The text of every text block, for heuristics. */
export function texts(content: unknown): string[] {
  return Array.isArray(content)
    ? content
        .filter(isObject)
        .filter((b) => b.type === "text" && typeof b.text === "string")
        .map((b) => b.text as string)
    : [];
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a))
    return a.length === (b as unknown[]).length && a.every((v, i) => deepEqual(v, (b as unknown[])[i]));
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  return (
    ka.length === kb.length &&
    ka.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}

/** True when some text block parses as JSON equal to `value` (a serialized mirror). */
export function mirrors(content: unknown, value: unknown): boolean {
  return texts(content).some((t) => {
    try {
      return deepEqual(JSON.parse(t), value);
    } catch {
      return false;
    }
  });
}

export function short(value: unknown, max = 80): string {
  const s = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}
