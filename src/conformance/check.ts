// What a check is: an id from conformance/sep-3279.yaml, the strength of the statement it
// checks, and a function that returns PASS, FAIL or SKIP with the reason. N/A is the runner's:
// a check whose protocol the server does not offer (see `needsOf` in index.ts) does not run.
import type { CheckContext } from "./context.js";

export type Status = "PASS" | "FAIL" | "SKIP" | "N/A";
export type Level = "MUST" | "SHOULD";

export interface Verdict {
  status: Status;
  detail: string;
}

export interface Check {
  id: string;
  level: Level;
  run(ctx: CheckContext): Promise<Verdict>;
}

export interface CheckResult extends Verdict {
  id: string;
  level: Level;
}

export const pass = (detail: string): Verdict => ({ status: "PASS", detail });
export const fail = (detail: string): Verdict => ({ status: "FAIL", detail });
export const skip = (detail: string): Verdict => ({ status: "SKIP", detail });

export function defineCheck(id: string, level: Level, run: (ctx: CheckContext) => Promise<Verdict>): Check {
  return { id, level, run };
}

/** A prerequisite (discovery, a tools/list, a successful call) is unavailable: the check SKIPs with this reason. */
export class MissingPrerequisite extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MissingPrerequisite";
  }
}

/**
 * Folds per-subject findings into one verdict: FAIL names the first problem (and how many more),
 * PASS says what was covered, SKIP when nothing applied.
 */
export function summarize(findings: { problems: string[]; checked: number; what: string; skipped?: string[] }): Verdict {
  const { problems, checked, what, skipped = [] } = findings;
  if (problems.length > 0) {
    const more = problems.length > 1 ? ` (+${problems.length - 1} more)` : "";
    return fail(problems[0] + more);
  }
  const note = skipped.length > 0 ? `; skipped ${skipped.join("; ")}` : "";
  if (checked === 0) return skip(`nothing to check${skipped.length ? `: ${skipped.join("; ")}` : ""}`);
  return pass(`${checked} ${what}${note}`);
}
