// What a client does with one incoming JSON-RPC value, decided before the SDK's Protocol sees it.
// The Protocol silently drops a message that fails its schema, so a reply with `"result": null`
// (or an array, or both `result` and `error`, or a changed id type) left its request waiting for
// the whole call timeout. Here each such reply is tied to the request it answers and refused with
// what was wrong, so the transport can fail that request at once; what names no pending request
// is only a diagnostic. Pure: transports feed it parsed JSON and the ids they wait for.
import type { Rule } from "./rules.js";
import { isObject } from "./is-object.js";

export type RpcId = string | number;

/** The rule every refusal here names. */
export const MALFORMED_REPLY: Rule = "malformed-reply";

export type Incoming =
  /** Well-formed: a copy with only the JSON-RPC members, ready for the Protocol. */
  | { kind: "message"; message: Record<string, unknown> }
  /** A reply to these pending requests that breaks a rule: fail them with `detail`. */
  | { kind: "refuse"; ids: RpcId[]; detail: string }
  /** Nothing pending can be blamed (a late reply, a malformed server request): a diagnostic. */
  | { kind: "ignore"; detail: string };

export interface Expected {
  /** Ids of the requests waiting for a reply on this connection. */
  pending: ReadonlySet<RpcId> | readonly RpcId[];
  /**
   * The request whose own exchange carried this value (an HTTP POST's body or stream): whatever
   * reply arrives there answers it, so even a reply with a wrong or missing id is refused for it.
   */
  exchange?: RpcId;
}

type Json = Record<string, unknown>;

/** A JSON value's kind in words ("null", "an array", "a string"; "missing" for no value). */
export function kindOf(v: unknown): string {
  if (v === undefined) return "missing";
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "object") return "an object";
  return `a ${typeof v}`;
}

const isId = (v: unknown): v is RpcId => typeof v === "string" || (typeof v === "number" && Number.isInteger(v));

function show(v: unknown): string {
  const s = typeof v === "string" || typeof v === "number" ? JSON.stringify(v) : kindOf(v);
  return s.length > 40 ? `${s.slice(0, 39)}…` : s;
}

export function checkIncoming(value: unknown, expected: Expected): Incoming {
  const pending = [...expected.pending];
  const blame = (ids: RpcId[], detail: string): Incoming =>
    ids.length > 0 ? { kind: "refuse", ids, detail } : { kind: "ignore", detail };
  const onExchange = expected.exchange === undefined ? [] : [expected.exchange];
  if (Array.isArray(value)) {
    // JSON-RPC batches are gone from MCP (2025-06-18): every request named inside is refused.
    const named = value
      .filter(isObject)
      .map((m) => m.id)
      .filter((id): id is RpcId => isId(id) && pending.includes(id));
    return blame(
      onExchange.length ? onExchange : [...new Set(named)],
      "the reply is a JSON array (a batch), not one JSON-RPC message",
    );
  }
  if (!isObject(value)) return blame(onExchange, `the reply is ${kindOf(value)}, not a JSON-RPC message`);
  const m = value;
  if ("method" in m && !("result" in m) && !("error" in m)) return checkCall(m);
  const target = targetOf(m, pending, expected.exchange);
  if ("detail" in target) return blame(target.ids, target.detail);
  const id = target.id;
  const refuse = (detail: string): Incoming => ({ kind: "refuse", ids: [id], detail });
  if (m.jsonrpc !== "2.0") return refuse(`"jsonrpc" is ${show(m.jsonrpc)}, not "2.0"`);
  if ("method" in m) return refuse(`the reply has "method" as well as ${"result" in m ? '"result"' : '"error"'}`);
  if ("result" in m && "error" in m) return refuse('the reply has both "result" and "error"');
  if ("result" in m) {
    if (!isObject(m.result)) return refuse(`"result" is ${kindOf(m.result)}, not an object`);
    const meta = metaProblem(m.result._meta);
    if (meta) return refuse(`result._meta${meta}`);
    return { kind: "message", message: { jsonrpc: "2.0", id, result: m.result } };
  }
  if (!("error" in m)) return refuse('the reply has neither "result" nor "error"');
  const e = m.error;
  if (!isObject(e)) return refuse(`"error" is ${kindOf(e)}, not an object`);
  if (typeof e.code !== "number" || !Number.isInteger(e.code))
    return refuse(`"error.code" is ${kindOf(e.code)}, not an integer`);
  if (typeof e.message !== "string") return refuse(`"error.message" is ${kindOf(e.message)}, not a string`);
  const error: Json = { code: e.code, message: e.message };
  if ("data" in e) error.data = e.data;
  return { kind: "message", message: { jsonrpc: "2.0", id, error } };
}

/** The key of a result `_meta` member the SDK reads: a related task, `{ taskId: string }`. */
const RELATED_TASK = "io.modelcontextprotocol/related-task";

/**
 * What is wrong with a result's `_meta` where the SDK's result schema (which its Protocol applies
 * silently, dropping the reply) would reject it, as a path suffix and reason; undefined if fine.
 * Checked here so a reply's envelope is checked once, by hand, and not again by a schema.
 */
function metaProblem(meta: unknown): string | undefined {
  if (meta === undefined) return undefined;
  if (!isObject(meta)) return `: is ${kindOf(meta)}, not an object`;
  if ("progressToken" in meta && meta.progressToken !== undefined && !isId(meta.progressToken))
    return `.progressToken: is ${kindOf(meta.progressToken)}, not a string or integer`;
  const task = meta[RELATED_TASK];
  if (task === undefined) return undefined;
  if (!isObject(task)) return `.${RELATED_TASK}: is ${kindOf(task)}, not an object`;
  if (typeof task.taskId !== "string") return `.${RELATED_TASK}.taskId: is ${kindOf(task.taskId)}, not a string`;
  return undefined;
}

/** Which pending request a reply answers, or why none can be blamed. */
function targetOf(
  m: Json,
  pending: RpcId[],
  exchange: RpcId | undefined,
): { id: RpcId } | { ids: RpcId[]; detail: string } {
  const onExchange = exchange === undefined ? [] : [exchange];
  const id = m.id;
  if (isId(id)) {
    if (exchange !== undefined ? id === exchange : pending.includes(id)) return { id };
    // The same id in another JSON type ("1" for 1): JSON-RPC wants it back exactly as sent.
    const same = (exchange !== undefined ? [exchange] : pending).find((p) => String(p) === String(id));
    if (same !== undefined)
      return { ids: [same], detail: `the reply's id ${show(id)} is ${kindOf(id)}; the request's id is ${show(same)}` };
    if (exchange !== undefined)
      return { ids: onExchange, detail: `the reply's id ${show(id)} is not the request's id ${show(exchange)}` };
    return { ids: [], detail: `a reply with id ${show(id)}, which matches no request in flight` };
  }
  // An error with a null id is the server saying it could not read the request: on an exchange,
  // that request's error.
  if ((id === null || id === undefined) && "error" in m && !("result" in m) && exchange !== undefined)
    return { id: exchange };
  const what = id === undefined ? "has no id" : `has id ${show(id)}, not a string or integer`;
  return { ids: onExchange, detail: `the reply ${what}` };
}

/** A request or notification from the server: well-formed or a diagnostic (it answers nothing of ours). */
function checkCall(m: Json): Incoming {
  const bad = (detail: string): Incoming => ({ kind: "ignore", detail: `a malformed server message: ${detail}` });
  if (m.jsonrpc !== "2.0") return bad(`"jsonrpc" is ${show(m.jsonrpc)}, not "2.0"`);
  if (typeof m.method !== "string") return bad(`"method" is ${kindOf(m.method)}, not a string`);
  if ("id" in m && !isId(m.id)) return bad(`the request's id is ${kindOf(m.id)}`);
  if ("params" in m && m.params !== undefined && !isObject(m.params))
    return bad(`"params" is ${kindOf(m.params)}, not an object`);
  const message: Json = { jsonrpc: "2.0", method: m.method };
  if ("id" in m) message.id = m.id;
  if (isObject(m.params)) message.params = m.params;
  return { kind: "message", message };
}

/** A UTF-8 byte order mark is no content (RFC 8259 §8.1 lets a parser ignore it): dropped if first. */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
