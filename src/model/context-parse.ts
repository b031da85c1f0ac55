// Reading a model-context record back (context-record.ts writes them), trusting nothing: a tool
// result must be assistant-audience outputs (branded again by the router) or a host receipt, so
// user, programmatic or App data cannot enter a rebuilt context, whatever the file holds.
import { DEFAULT_MAX_JSON_DEPTH, exceedsJsonDepth } from "../protocol/json-depth.js";
import { isObject } from "../protocol/is-object.js";
import { ToolResultOutputSchema } from "../protocol/schemas.js";
import { restoreModelSink } from "../host/result/router.js";
import type { ConversationItem, ModelToolResult, ToolCallRequest, UserAttachment } from "./conversation.js";

/** Bounds on a parsed item's lists and ids (far above what a session writes). */
const MAX_LIST = 1000;
const MAX_ID = 512;

export type Parsed<T> = { ok: true; value: T } | { ok: false; why: string };
const fail = (why: string): { ok: false; why: string } => ({ ok: false, why });
const str = (v: unknown, max = Infinity): v is string => typeof v === "string" && v.length <= max;

function attachment(v: unknown): UserAttachment | undefined {
  if (
    !isObject(v) ||
    !str(v.server, MAX_ID) ||
    !str(v.uri) ||
    !str(v.text) ||
    (v.mimeType !== undefined && !str(v.mimeType, MAX_ID))
  )
    return undefined;
  return {
    server: v.server,
    uri: v.uri,
    text: v.text,
    ...(v.mimeType !== undefined ? { mimeType: v.mimeType as string } : {}),
  };
}

function toolCall(v: unknown): ToolCallRequest | undefined {
  if (
    !isObject(v) ||
    !str(v.id, MAX_ID) ||
    !str(v.name, MAX_ID) ||
    !str(v.server, MAX_ID) ||
    !str(v.tool, MAX_ID) ||
    !isObject(v.args)
  )
    return undefined;
  return { id: v.id, name: v.name, server: v.server, tool: v.tool, args: v.args };
}

function toolResult(v: unknown): Parsed<ModelToolResult> {
  if (isObject(v))
    return v.kind === "receipt" && str(v.text)
      ? { ok: true, value: { kind: "receipt", text: v.text } }
      : fail("a tool result that is neither model outputs nor a host receipt");
  if (!Array.isArray(v) || v.length > MAX_LIST)
    return fail("a tool result that is neither model outputs nor a host receipt");
  const outputs = [];
  for (const o of v) {
    const p = ToolResultOutputSchema.safeParse(o);
    if (!p.success) return fail("a tool result output of the wrong shape");
    // Only what the router put in the model sink: any other audience never reached the model.
    if (p.data.audience !== "assistant")
      return fail(
        `a tool result output for the ${JSON.stringify(String(p.data.audience).slice(0, 60))} audience (only assistant outputs reach the model)`,
      );
    outputs.push(p.data);
  }
  return { ok: true, value: restoreModelSink(outputs) };
}

/** A context record's item, checked; `why` says in a few words what was wrong. */
export function parseContextItem(v: unknown): Parsed<ConversationItem> {
  if (!isObject(v)) return fail("an item that is not an object");
  if (exceedsJsonDepth(v, DEFAULT_MAX_JSON_DEPTH))
    return fail(`an item nested deeper than ${DEFAULT_MAX_JSON_DEPTH} levels`);
  if (v.role === "user") {
    if (!str(v.text)) return fail("a user item without text");
    if (v.attachments === undefined) return { ok: true, value: { role: "user", text: v.text } };
    if (!Array.isArray(v.attachments) || v.attachments.length > MAX_LIST)
      return fail("a user item whose attachments are not a list");
    const attachments = v.attachments.map(attachment);
    if (attachments.some((a) => !a)) return fail("a user item with an attachment of the wrong shape");
    return { ok: true, value: { role: "user", text: v.text, attachments: attachments as UserAttachment[] } };
  }
  if (v.role === "assistant") {
    if (!str(v.text) || !Array.isArray(v.toolCalls) || v.toolCalls.length > MAX_LIST)
      return fail("an assistant item without text or tool calls");
    const calls = v.toolCalls.map(toolCall);
    if (calls.some((c) => !c)) return fail("an assistant item with a tool call of the wrong shape");
    return { ok: true, value: { role: "assistant", text: v.text, toolCalls: calls as ToolCallRequest[] } };
  }
  if (v.role === "tool") {
    if (!str(v.callId, MAX_ID) || typeof v.isError !== "boolean")
      return fail("a tool item without a call id or isError");
    const result = toolResult(v.result);
    if (!result.ok) return result;
    const replaced = v.replaced === undefined ? { ok: true as const, value: undefined } : parseNotes(v.replaced);
    if (!replaced.ok) return replaced;
    return {
      ok: true,
      value: {
        role: "tool",
        callId: v.callId,
        isError: v.isError,
        result: result.value,
        ...(replaced.value ? { replaced: replaced.value } : {}),
      },
    };
  }
  return fail(`an item of unknown role ${JSON.stringify(String(v.role).slice(0, 40))}`);
}

/** `[[index, note], …]` as the map ToolResultItem.replaced holds. */
export function parseNotes(v: unknown): Parsed<Map<number, string>> {
  if (!Array.isArray(v) || v.length > MAX_LIST) return fail("replaced notes that are not a list");
  const m = new Map<number, string>();
  for (const e of v) {
    if (!Array.isArray(e) || e.length !== 2 || !Number.isInteger(e[0]) || e[0] < -1 || !str(e[1], 4096))
      return fail("a replaced note of the wrong shape");
    m.set(e[0], e[1]);
  }
  return { ok: true, value: m };
}
