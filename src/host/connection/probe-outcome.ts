// A probe request's settlement as a ProbeOutcome (the era classifier's input): the SDK's own
// timeout and closed-connection errors, a server's JSON-RPC error, an HTTP status, a broken exchange.
import { ErrorCode as SdkErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { ProbeOutcome } from "./era-classifier.js";
import { HttpStatusError } from "./http-transport.js";

type Json = Record<string, unknown>;

/** A request's settlement as a probe outcome (never rejects). */
export function outcomeOf(request: Promise<Json>): Promise<ProbeOutcome> {
  return request.then(
    (result): ProbeOutcome => ({ kind: "result", result }),
    (e: unknown): ProbeOutcome => {
      if (e instanceof McpError) {
        const data = e.data as { timeout?: unknown } | undefined;
        if (e.code === SdkErrorCode.RequestTimeout && typeof data?.timeout === "number")
          return { kind: "timeout", ms: data.timeout };
        if (e.code === SdkErrorCode.ConnectionClosed && /Connection closed$/.test(e.message))
          return { kind: "transport-failure", message: "the connection closed", exited: true };
        return { kind: "rpc-error", code: e.code, message: e.message.replace(/^MCP error -?\d+: /, ""), data: e.data };
      }
      if (e instanceof HttpStatusError)
        return {
          kind: "http-status",
          status: e.status,
          body: e.body,
          wwwAuthenticate: e.wwwAuthenticate,
          signIn: e.signIn,
        };
      return { kind: "transport-failure", message: e instanceof Error ? e.message : String(e) };
    },
  );
}

/** An error as one bounded line (server-controlled text reaches messages through it). */
export function oneLine(e: unknown, max = 300): string {
  const s = (e instanceof Error ? e.message : String(e)).replace(/\s*[\r\n]+\s*/g, " ");
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}
