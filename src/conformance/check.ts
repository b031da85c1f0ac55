// What a check is: an id from conformance/sep-3279.yaml, the keyword of the statement it traces
// (MUST or SHOULD), and a function that returns PASS, FAIL, NOT-TESTED or N/A with the reason.
// The runner turns a SHOULD (or proposed) check's FAIL into WARN. NOT-TESTED is never a pass:
// the rule applied but nothing could exercise it (a tool not called, a prerequisite failed).
import type { CheckContext } from "./context.js";

export type Status = "PASS" | "FAIL" | "WARN" | "NOT-TESTED" | "N/A";
export type Level = "MUST" | "SHOULD";

export interface Verdict {
  status: Status;
  detail: string;
}

export interface Check {
  id: string;
  level: Level;
  /** A rule mcp-prism proposes for the SEP (traced in the yaml's `proposed` list): at most WARN, never in the exit status. */
  proposed: boolean;
  run(ctx: CheckContext): Promise<Verdict>;
}

export interface CheckResult extends Verdict {
  id: string;
  level: Level;
  proposed: boolean;
}

export const pass = (detail: string): Verdict => ({ status: "PASS", detail });
export const fail = (detail: string): Verdict => ({ status: "FAIL", detail });
export const notTested = (detail: string): Verdict => ({ status: "NOT-TESTED", detail });
export const notApplicable = (detail: string): Verdict => ({ status: "N/A", detail });

export function defineCheck(
  id: string,
  level: Level,
  run: (ctx: CheckContext) => Promise<Verdict>,
  options: { proposed?: boolean } = {},
): Check {
  return { id, level, proposed: options.proposed === true, run };
}

/** A prerequisite (discovery, a tools/list, a successful call) is unavailable: the check is NOT-TESTED with this reason. */
export class MissingPrerequisite extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MissingPrerequisite";
  }
}

/** Marks a tool left out because it answered isError on its arguments (context.ts writes it). */
export const ERRORED = " (isError on arguments ";
/** Marks a tool left out of a comparison between two calls because it may change state between them. */
export const STATEFUL = " (not marked readOnlyHint: two calls need not agree)";

/**
 * Folds per-subject findings into one verdict: FAIL names the first problem (and how many more);
 * nothing checked is NOT-TESTED when some subject could not be exercised (`skipped`), N/A when
 * nothing the rule applies to exists; else PASS says what was covered and what was not.
 */
export function summarize(findings: {
  problems: string[];
  checked: number;
  what: string;
  skipped?: string[];
}): Verdict {
  const { problems, checked, what, skipped = [] } = findings;
  if (problems.length > 0) {
    const more = problems.length > 1 ? ` (+${problems.length - 1} more)` : "";
    return fail(problems[0] + more);
  }
  // A tool that answered isError was exercised (the error checks read it); only the others leave a rule untested.
  const untested = skipped.filter((s) => !s.includes(ERRORED) && !s.includes(STATEFUL));
  if (checked === 0) {
    if (untested.length > 0) return notTested(`not exercised: ${skipped.join("; ")}`);
    return notApplicable(
      `nothing on this server the rule applies to${skipped.length ? ` (${skipped.join("; ")})` : ""}`,
    );
  }
  const note = skipped.length > 0 ? `; not exercised: ${skipped.join("; ")}` : "";
  return pass(`${checked} ${what}${note}`);
}
