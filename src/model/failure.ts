// What the model reads about a failed call: written here from structured fields only (server,
// tool, rule) plus, for a server's JSON-RPC error, that message (already bounded and made plain
// by the host). Never CallError.message: that line is for the user and may quote what the host
// saw (transport text, a server's stderr tail, result paths).
import type { CallError, CallOutcome, CallPlan } from "../host/types.js";
import { failedOutcome } from "../host/host-error.js";

/** Host-written meaning of each rule, as the model should read it. */
const MEANING: Record<string, string> = {
  "not-approved": "the user did not approve running this tool",
  cancelled: "the user cancelled the call",
  timeout: "the server sent no result within the call time limit; the request was cancelled",
  "connection-closed": "the server's connection closed during the call",
  "connection-failed": "the host could not connect to the server",
  "not-connected": "the server is not connected",
  "auth-required": "the server needs authorization the host does not have",
  "unsupported-version": "the host and the server share no protocol version",
  "server-error": "the server answered with an error",
  "result-too-large": "the result was over the host's size limit and was not read",
  "unknown-tool": "no tool by that name is available now",
  "rejected-tool": "the tool's declaration breaks the protocol rules, so the host does not call it",
  "host-error": "the host failed while running the call",
  "not-run": "the call was not run",
  "selection-unsupported": "the server's protocol version cannot select outputs",
};
const INVALID_RESULT = "the server's result broke the protocol rules and was rejected whole";

function meaning(rule: string): string {
  if (MEANING[rule]) return MEANING[rule];
  if (/output|result|schema|content|image|unroutable/.test(rule)) return INVALID_RESULT;
  if (/selector|selection/.test(rule)) return "the host refused the output selection before sending anything";
  return "the call failed";
}

/** Names a server or tool without letting it carry anything but a short identifier-like string. */
function label(s: string): string {
  const plain = s.replace(/[^\p{L}\p{N}_.\-/:]/gu, "?");
  return plain.length > 64 ? `${plain.slice(0, 63)}…` : plain;
}

export function failureText(plan: Pick<CallPlan, "server" | "tool">, error: Pick<CallError, "rule" | "serverMessage">): string {
  const where = plan.server ? `server ${label(plan.server)}, tool ${label(plan.tool)}` : `tool ${label(plan.tool)}`;
  const said = error.serverMessage ? ` The server's error message: ${JSON.stringify(error.serverMessage)}` : "";
  return `The call failed (${label(error.rule)}): ${where}: ${meaning(error.rule)}.${said}`;
}

/**
 * A call whose executor threw (a host bug, a host not started): an ordinary failed outcome, so
 * the card ends, the transcript has it and the model gets an error result like any other.
 */
export function thrownOutcome(plan: CallPlan, e: unknown): CallOutcome {
  const why = String((e as Error)?.message ?? e).split("\n")[0].slice(0, 200);
  return failedOutcome(plan, "host-error", `the host failed running the call (${why})`);
}
