// What the model reads about a failed call: written here from structured fields only (server,
// tool, rule) plus, for a server's JSON-RPC error, that message (already bounded and made plain
// by the host). Never CallError.message: that line is for the user and may quote what the host
// saw (transport text, a server's stderr tail, result paths).
import type { CallError, CallPlan } from "../host/types.js";
import { modelMeaning } from "../protocol/rules.js";

/** Names a server or tool without letting it carry anything but a short identifier-like string. */
function label(s: string): string {
  const plain = s.replace(/[^\p{L}\p{N}_.\-/:]/gu, "?");
  return plain.length > 64 ? `${plain.slice(0, 63)}…` : plain;
}

export function failureText(
  plan: Pick<CallPlan, "server" | "tool">,
  error: Pick<CallError, "rule" | "serverMessage">,
): string {
  const where = plan.server ? `server ${label(plan.server)}, tool ${label(plan.tool)}` : `tool ${label(plan.tool)}`;
  const said = error.serverMessage ? ` The server's error message: ${JSON.stringify(error.serverMessage)}` : "";
  return `The call failed (${label(error.rule)}): ${where}: ${modelMeaning(error.rule)}.${said}`;
}

/**
 * A call whose executor threw (a host bug, a host not started): an ordinary failed outcome, so
 * the card ends, the transcript has it and the model gets an error result like any other.
 */
export { thrownOutcome } from "../host/call/lifecycle.js";
