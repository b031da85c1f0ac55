// Errors as data: every failure the host reports names the server, the tool, the rule broken and
// what was wrong, as fields. The one line a user reads (CLI, card, transcript) is rendered from
// them here and only here; no consumer reads a field back out of a line. Pure (no SDK, no I/O):
// the UI imports it before the host code loads.
import type { Rule } from "../protocol/rules.js";
import type { CallError, CallOutcome, CallPlan } from "./types.js";

/** Who broke which rule, and what was wrong (host-written; no server stderr). */
export interface HostError {
  /** The server's config name; "" when no server is known (e.g. an unknown tool name). */
  server: string;
  tool: string;
  /** The rule broken: a key of the one table (src/protocol/rules.ts). */
  rule: Rule;
  /** What was wrong, without the server and tool (the line adds them). */
  detail: string;
}

/** The one line for an error: `server S, tool T: detail`, or the detail alone when no server is known. */
export function errorLine(e: Pick<HostError, "server" | "tool" | "detail">): string {
  return e.server ? `server ${e.server}, tool ${e.tool}: ${e.detail}` : e.detail;
}

/** A HostError with its line (`message`), the shape every host error takes. */
export function hostError(server: string, tool: string, rule: Rule, detail: string): HostError & { message: string } {
  return { server, tool, rule, detail, message: errorLine({ server, tool, detail }) };
}

export function callError(server: string, tool: string, rule: Rule, detail: string, stderr?: string[]): CallError {
  const error: CallError = hostError(server, tool, rule, detail);
  if (stderr && stderr.length > 0) error.stderr = stderr;
  return error;
}

/**
 * The one factory for a call that did not run or did not succeed (declined by the user, refused
 * by the host, thrown): an ordinary failed outcome, named by the plan's server and tool.
 */
export function failedOutcome(
  plan: CallPlan,
  rule: Rule,
  detail: string,
  durationMs = 0,
): Extract<CallOutcome, { ok: false }> {
  return { ok: false, plan, error: callError(plan.server, plan.tool, rule, detail), durationMs };
}
