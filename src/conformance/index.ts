// The checker: every check group in order, the runner and the report.
import { MissingPrerequisite, type Check, type CheckResult, type Status, type Verdict } from "./check.js";
import type { CheckContext } from "./context.js";
import { declarationChecks } from "./declarations.js";
import { discoveryChecks } from "./discovery.js";
import { errorChecks } from "./errors.js";
import { fallbackChecks } from "./fallback.js";
import { headerChecks } from "./headers.js";
import { legacyChecks } from "./legacy.js";
import { proposedRefusalChecks, refusalChecks } from "./refusals.js";
import { proposedResultChecks, resultChecks } from "./results.js";
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
  // Rules the SEP does not contain, proposed for it (the yaml's `proposed` list): WARN at most.
  { name: "proposed", checks: [...proposedRefusalChecks, ...proposedResultChecks] },
];

export const ALL_CHECKS: Check[] = CHECK_GROUPS.flatMap((g) => g.checks);

/** What a check needs the server to offer: 2026-12-01, modern requests at all, or nothing. */
export type Need = "variants" | "modern" | "any";

// Legacy-projection checks that compare with the 2026-12-01 declaration or result (or test a
// SEP-3279 duty of the legacy era) need 2026-12-01; the others check the legacy shapes alone.
const LEGACY_AGAINST_VARIANTS =
  /^sep-3279-legacy-(no-foreign-output-schema|output-schema-from-assistant|content-from-assistant-content|ignores-requested-outputs)-at-/;

/**
 * Which offer a check needs. SEP-2575 checks (server/discover, versions) need a modern server;
 * SEP-3279 checks need 2026-12-01, except the legacy ones that read the legacy shapes only, which
 * need 2026-07-28 (a modern server) or nothing (2025-11-25: they find out through initialize).
 */
export function needsOf(id: string): Need {
  if (id.startsWith("sep-2575-")) return "modern";
  if (!id.startsWith("sep-3279-legacy-") || LEGACY_AGAINST_VARIANTS.test(id)) return "variants";
  return id.endsWith("-at-2026-07-28") ? "modern" : "any";
}

/** A check's verdict as reported: a FAIL of a SHOULD or proposed check is a WARN. */
function reported(check: Check, v: Verdict): CheckResult {
  const status = v.status === "FAIL" && (check.level === "SHOULD" || check.proposed) ? "WARN" : v.status;
  const detail = check.proposed && v.detail && !v.detail.startsWith("(proposed") ? `(proposed) ${v.detail}` : v.detail;
  return { id: check.id, level: check.level, proposed: check.proposed, status, detail };
}

export async function runCheck(check: Check, ctx: CheckContext): Promise<CheckResult> {
  try {
    const need = needsOf(check.id);
    if (need !== "any") {
      const offer = await ctx.offer();
      if (need === "variants" ? !offer.variants : !offer.modern)
        return reported(check, { status: "N/A", detail: `not applicable: ${offer.summary}` });
    }
    return reported(check, await check.run(ctx));
  } catch (e) {
    if (e instanceof MissingPrerequisite) return reported(check, { status: "NOT-TESTED", detail: e.message });
    if (e instanceof NoAnswerError || e instanceof TransportError)
      return reported(check, { status: "FAIL", detail: e.message });
    return reported(check, { status: "FAIL", detail: `checker error: ${e instanceof Error ? e.message : String(e)}` });
  }
}

/** Runs the checks one after another (they share memoized requests); calls onResult as each ends. */
export async function runChecks(
  ctx: CheckContext,
  onResult?: (r: CheckResult) => void,
  checks: Check[] = ALL_CHECKS,
): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const c of checks) {
    const r = await runCheck(c, ctx);
    results.push(r);
    onResult?.(r);
  }
  return results;
}

export interface Tally {
  passed: number;
  failed: number;
  /** SHOULD-level and proposed findings. */
  warned: number;
  /** Requirements that applied but could not be exercised (proposed checks not counted). */
  notTested: number;
  /** Checks of a protocol, transport or feature the server does not offer. */
  notApplicable: number;
}

export function tally(results: CheckResult[]): Tally {
  const n = (s: Status, own = true) => results.filter((r) => r.status === s && (own || !r.proposed)).length;
  return {
    passed: n("PASS"),
    failed: n("FAIL"),
    warned: n("WARN"),
    notTested: n("NOT-TESTED", false),
    notApplicable: n("N/A"),
  };
}
