// Wire failures of one tools/call as CallErrors (fields: server, tool, rule, detail; host-error.ts),
// so any one line (CLI, card, transcript) says who broke which rule. Server stderr is kept out of
// the message (the message may reach the model); it travels in `stderr` for the user.
import type { Rule } from "../../protocol/rules.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { ConnectionError, type Connection } from "../connection/connection.js";
import { HttpConnectionError } from "../connection/http-transport.js";
import { refusalOf } from "../connection/reply-guard.js";
import { RESULT_TOO_LARGE_CODE, RESULT_TOO_LARGE_MARK, type TooLargeStage } from "../connection/size-limit.js";
import { callError } from "../host-error.js";
import type { CallError } from "../types.js";

const MAX_SERVER_MESSAGE = 300;

/**
 * Server text made plain for a reader that is not a terminal (the model): control characters,
 * bidi controls and invisible fillers become spaces, runs of space collapse, at most `max` chars.
 */
export function plainServerText(s: string, max: number): string {
  const plain = s
    .slice(0, max * 4)
    .replace(
      /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u115f\u1160\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb]|\p{M}{4,}/gu,
      " ",
    )
    .replace(/\s+/g, " ")
    .trim();
  return plain.length > max ? `${plain.slice(0, max - 1)}…` : plain;
}

export function wireError(
  e: unknown,
  conn: Connection,
  tool: string,
  timeoutMs: number,
  signal?: AbortSignal,
): CallError {
  const err = (rule: Rule, detail: string, stderr?: string[]) => callError(conn.name, tool, rule, detail, stderr);
  if (signal?.aborted) return err("cancelled", "the call was cancelled");
  if (e instanceof ConnectionError) return err(e.rule, e.detail, e.stderr);
  const refused = refusalOf(e);
  if (refused) return err(refused.rule, `refused the reply to tools/call: ${refused.detail}`);
  if (e instanceof McpError) {
    const mark = (e.data as Record<string, unknown> | undefined)?.[RESULT_TOO_LARGE_MARK] as
      | { limit: number; bytes?: number; stage?: TooLargeStage }
      | undefined;
    if (e.code === RESULT_TOO_LARGE_CODE && mark) {
      const size = mark.bytes === undefined ? "exceeds" : `is ${mark.bytes} bytes, over`;
      const where = mark.stage === "parsed" ? "it was refused before validation" : "the read stopped there";
      return err("result-too-large", `result ${size} the ${mark.limit}-byte limit; ${where}`);
    }
    if (e.code === -32001) return err("timeout", `no result within ${timeoutMs / 1000} s (request cancelled)`);
    // The SDK's own ConnectionClosed (-32000, no data) when the transport closes under a pending
    // request; a server's -32000 is its own error (the JSON-RPC "server error" range) and says so.
    if (e.code === -32000 && e.data === undefined && e.message === "MCP error -32000: Connection closed") {
      const restart = conn.state === "disconnected" ? "; it will be restarted on the next call" : "";
      return err(
        "connection-closed",
        `the server closed the connection during the call${restart}`,
        conn.stderrExplaining(),
      );
    }
    const text = e.message.length > MAX_SERVER_MESSAGE ? `${e.message.slice(0, MAX_SERVER_MESSAGE)}…` : e.message;
    const error = err("server-error", text);
    const own = plainServerText(e.message.replace(/^MCP error -?\d+: /, ""), MAX_SERVER_MESSAGE);
    if (own) error.serverMessage = own;
    return error;
  }
  if (e instanceof HttpConnectionError) return err("connection-closed", e.message);
  if (e instanceof Error && e.name === "ZodError") return err("malformed-result", "the result is not a JSON object");
  const msg = e instanceof Error ? e.message : String(e);
  return err("malformed-result", msg.split("\n")[0].slice(0, MAX_SERVER_MESSAGE));
}
