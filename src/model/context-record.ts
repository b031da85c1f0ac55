// A model-context item (conversation.ts) as a transcript record and back (context-parse.ts), so a resumed session
// rebuilds exactly what had reached the model. Only Conversation items are ever written (the
// user's turns, the model's turns, and tool results that are router-branded model-sink entries or
// host receipts), and parsing trusts nothing: a tool result must be assistant-audience outputs
// or a receipt, so user, programmatic or App data cannot enter a rebuilt context from a file.
// This half writes (zod-free: the app records from its first frame on); context-parse.ts reads.
import type { ConversationItem } from "./conversation.js";

/** The largest context record written (JSON bytes); a larger tool result is recorded as a note instead. */
export const CONTEXT_RECORD_MAX_BYTES = 8 * 1024 * 1024;

/** A context record's payload (the caller adds kind/at): one item, or notes that replaced blocks of a recorded tool result. */
export type ContextRecord =
  | { item: Record<string, unknown> }
  | { replaced: { callId: string; notes: [number, string][] } };

function plain(item: ConversationItem): Record<string, unknown> {
  if (item.role !== "tool") return { ...item };
  const { replaced, ...rest } = item;
  return { ...rest, ...(replaced?.size ? { replaced: [...replaced] } : {}) };
}

const bytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v) ?? "", "utf8");

/** One item as a record, bounded: what does not fit is replaced by a note saying so (and the model is told on resume). */
export function contextItemRecord(item: ConversationItem, max = CONTEXT_RECORD_MAX_BYTES): ContextRecord {
  const rec = plain(item);
  const size = bytes(rec);
  if (size <= max) return { item: rec };
  const note = `[not kept in the session transcript: ${size} bytes, over its ${max}-byte bound for one item]`;
  if (item.role === "tool")
    return {
      item: {
        role: "tool",
        callId: item.callId,
        isError: item.isError,
        result: {
          kind: "receipt",
          text: `The result of this call was shown to you before the session was resumed; ${note}`,
        },
      },
    };
  const cut = Math.floor(max / 4);
  if (item.role === "user")
    return { item: { role: "user", text: item.text.length > cut ? `${item.text.slice(0, cut)} ${note}` : item.text } };
  const toolCalls = item.toolCalls.map((c) => (bytes(c.args) > cut / 8 ? { ...c, args: {} } : c));
  return {
    item: {
      role: "assistant",
      text: item.text.length > cut ? `${item.text.slice(0, cut)} ${note}` : item.text,
      toolCalls,
    },
  };
}

/** The notes that now stand for blocks of a recorded tool result (turn.ts replaced them after a refusal). */
export function replacedRecord(callId: string, replaced: ReadonlyMap<number, string>): ContextRecord {
  return { replaced: { callId, notes: [...replaced] } };
}

/** One change of the model's context as the `context` record a transcript keeps (a resume rebuilds the context from them). */
export function contextChangeRecord(c: import("./conversation.js").ConversationChange): {
  kind: "context";
  [key: string]: unknown;
} {
  if (c.type === "append") return { kind: "context", ...contextItemRecord(c.item) };
  if (c.type === "replaced") return { kind: "context", ...replacedRecord(c.item.callId, c.item.replaced ?? new Map()) };
  if (c.type === "compacted")
    return {
      kind: "context",
      compacted: {
        removed: c.removed,
        items: c.items.map((i) => contextItemRecord(i)).flatMap((r) => ("item" in r ? [r.item] : [])),
      },
    };
  return { kind: "context", rollback: c.length };
}
