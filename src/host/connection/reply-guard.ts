// The local error that stands in for a reply refused by protocol/reply-check.ts: delivered to the
// SDK's Protocol as the request's response, so the request fails at once (not after its timeout)
// with the rule and what was wrong, and the connection goes on.
import { isRule, type Rule } from "../../protocol/rules.js";
import { JSONRPCMessageSchema, McpError, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { checkIncoming, MALFORMED_REPLY, type Expected, type RpcId } from "../../protocol/reply-check.js";

/** Marks the local error for a refused reply (never sent by a server). */
export const REPLY_REFUSED_MARK = "mcp-prism/replyRefused";
export const REPLY_REFUSED_CODE = -32098;

export function refusalError(id: RpcId, detail: string): JSONRPCMessage {
  return {
    jsonrpc: "2.0",
    id,
    error: {
      code: REPLY_REFUSED_CODE,
      message: detail,
      data: { [REPLY_REFUSED_MARK]: { rule: MALFORMED_REPLY, detail } },
    },
  };
}

/** The rule and detail of a refused reply, if `e` is the error refusalError stood in with. */
export function refusalOf(e: unknown): { rule: Rule; detail: string } | undefined {
  if (!(e instanceof McpError) || e.code !== REPLY_REFUSED_CODE) return undefined;
  const mark = (e.data as Record<string, unknown> | undefined)?.[REPLY_REFUSED_MARK] as
    | { rule?: unknown; detail?: unknown }
    | undefined;
  // The mark is ours, but it travels in an error's data: a rule outside the table is not ours.
  return typeof mark?.rule === "string" && isRule(mark.rule) && typeof mark.detail === "string"
    ? { rule: mark.rule, detail: mark.detail }
    : undefined;
}

/** What a transport hands the Protocol for one incoming value, and what it logs. */
export interface Guarded {
  /** The message itself, or one refusal error per request it failed. */
  deliver: JSONRPCMessage[];
  /** Why the value was dropped: it answers nothing pending (for the server's diagnostics). */
  ignored?: string;
  /** Why a reply was refused (for the server's diagnostics; the request's error says it too). */
  refused?: string;
}

/**
 * One incoming value (parsed JSON) through protocol/reply-check.ts, which checks a reply's envelope
 * by hand as strictly as the SDK's result and error schemas (which the Protocol applies silently):
 * every reply it would drop is refused here, and a reply is not parsed by a schema a second time.
 * A request or notification from the server (rare) also goes through the SDK's message schema.
 */
export function guardIncoming(value: unknown, expected: Expected): Guarded {
  const verdict = checkIncoming(value, expected);
  if (verdict.kind === "ignore") return { deliver: [], ignored: verdict.detail };
  if (verdict.kind === "refuse") return refuse(verdict.ids, verdict.detail);
  const m = verdict.message;
  if (!("method" in m)) return { deliver: [m as JSONRPCMessage] };
  const parsed = JSONRPCMessageSchema.safeParse(m);
  if (parsed.success) return { deliver: [parsed.data as JSONRPCMessage] };
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? issue.path.join(".") : "the message";
  const detail = `${where}: ${issue?.message ?? "not a JSON-RPC message"}`.slice(0, 200);
  return { deliver: [], ignored: `a malformed server message: ${detail}` };
}

function refuse(ids: RpcId[], detail: string): Guarded {
  return { deliver: ids.map((id) => refusalError(id, detail)), refused: detail };
}
