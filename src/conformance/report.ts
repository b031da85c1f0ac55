// Report lines: one per check, server-supplied text made safe for a terminal.
import { sanitizeInline, truncateChars } from "../protocol/sanitize.js";
import type { CheckResult } from "./check.js";
import type { Coverage } from "./coverage.js";
import type { Tally } from "./index.js";

const MAX_DETAIL = 400;

/**
 * One line of server-supplied text through the one terminal sanitizer (escapes and controls shown
 * visibly, newlines as ⏎, mark floods capped), spaces squeezed, cut at `max` code points.
 */
export function sanitize(text: string, max = MAX_DETAIL): string {
  return truncateChars(sanitizeInline(text).replace(/ {2,}/g, " ").trim(), max);
}

export function formatLine(r: CheckResult): string {
  return `${r.status.padEnd(10)} ${r.id}${r.detail ? ` — ${sanitize(r.detail)}` : ""}`;
}

export function formatSummary(t: Tally): string {
  const extra = [
    t.warned ? `${t.warned} warned` : "",
    t.notTested ? `${t.notTested} not tested` : "",
    t.notApplicable ? `${t.notApplicable} not applicable` : "",
  ].filter(Boolean);
  return [`${t.passed} passed`, `${t.failed} failed`, ...extra].join(", ");
}

/** "called 2 of 3 tools, 7 of 9 declared variants; not called: …" */
export function formatCoverage(c: Coverage): string {
  const variants = c.variantsDeclared > 0 ? `, ${c.variantsCalled} of ${c.variantsDeclared} declared variants` : "";
  return `called ${c.toolsCalled} of ${c.toolsListed} tools${variants}${c.notCalled.length ? `; not called: ${sanitize(c.notCalled.join("; "))}` : ""}`;
}

/** pass, fail (a MUST broken), or untested (nothing failed, but a requirement or a tool was not exercised). */
export type Outcome = "pass" | "fail" | "untested";

export function outcomeOf(t: Tally, c: Coverage): Outcome {
  if (t.failed > 0) return "fail";
  return t.notTested > 0 || c.notCalled.length > 0 || c.toolsCalled === 0 ? "untested" : "pass";
}

export function toJson(results: CheckResult[], t: Tally, c: Coverage, outcome: Outcome): string {
  const checks = results.map((r) => ({
    id: r.id,
    status: r.status,
    level: r.level,
    ...(r.proposed ? { proposed: true } : {}),
    detail: sanitize(r.detail),
  }));
  return JSON.stringify({ checks, ...t, coverage: { ...c, notCalled: c.notCalled.map((n) => sanitize(n)) }, outcome });
}
