// The checker: every check group in order, the runner and the report.
import { MissingPrerequisite, type Check, type CheckResult } from "./check.js";
import type { CheckContext } from "./context.js";
import { declarationChecks } from "./declarations.js";
import { discoveryChecks } from "./discovery.js";
import { errorChecks } from "./errors.js";
import { fallbackChecks } from "./fallback.js";
import { headerChecks } from "./headers.js";
import { legacyChecks } from "./legacy.js";
import { refusalChecks } from "./refusals.js";
import { resultChecks } from "./results.js";
import { selectionChecks } from "./selection.js";
import { versionChecks } from "./versions.js";
import { NoAnswerError, TransportError } from "./wire.js";

export { CheckContext, type Target } from "./context.js";
export type { CheckResult, Status } from "./check.js";
export { TransportError } from "./wire.js";

/** Every check, grouped as in the report. Ids are traced in conformance/sep-3279.yaml. */
export const CHECK_GROUPS: { name: string; checks: Check[] }[] = [
  { name: "discovery", checks: discoveryChecks },
  { name: "versions", checks: versionChecks },
  { name: "headers", checks: headerChecks },
  { name: "declarations", checks: declarationChecks },
  { name: "fallback", checks: fallbackChecks },
  { name: "selection", checks: selectionChecks },
  { name: "results", checks: resultChecks },
  { name: "refusals", checks: refusalChecks },
  { name: "errors", checks: errorChecks },
  { name: "legacy", checks: legacyChecks },
];

export const ALL_CHECKS: Check[] = CHECK_GROUPS.flatMap((g) => g.checks);

export async function runCheck(check: Check, ctx: CheckContext): Promise<CheckResult> {
  try {
    const v = await check.run(ctx);
    return { id: check.id, level: check.level, ...v };
  } catch (e) {
    if (e instanceof MissingPrerequisite) return { id: check.id, level: check.level, status: "SKIP", detail: e.message };
    if (e instanceof NoAnswerError || e instanceof TransportError) return { id: check.id, level: check.level, status: "FAIL", detail: e.message };
    return { id: check.id, level: check.level, status: "FAIL", detail: `checker error: ${e instanceof Error ? e.message : String(e)}` };
  }
}

/** Runs the checks one after another (they share memoized requests); calls onResult as each ends. */
export async function runChecks(ctx: CheckContext, onResult?: (r: CheckResult) => void, checks: Check[] = ALL_CHECKS): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const c of checks) {
    const r = await runCheck(c, ctx);
    results.push(r);
    onResult?.(r);
  }
  return results;
}

export function tally(results: CheckResult[]): { passed: number; failed: number; skipped: number } {
  return {
    passed: results.filter((r) => r.status === "PASS").length,
    failed: results.filter((r) => r.status === "FAIL").length,
    skipped: results.filter((r) => r.status === "SKIP").length,
  };
}
