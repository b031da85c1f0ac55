// Report lines: one per check, server-supplied text made safe for a terminal.
import { sanitizeInline, truncateChars } from "../protocol/sanitize.js";
import type { CheckResult } from "./check.js";
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
  return `${r.status.padEnd(4)} ${r.id}${r.detail ? ` — ${sanitize(r.detail)}` : ""}`;
}

export function formatSummary(t: Tally): string {
  return `${t.passed} passed, ${t.failed} failed${t.skipped ? `, ${t.skipped} skipped` : ""}${t.notApplicable ? `, ${t.notApplicable} not applicable` : ""}`;
}

export function toJson(results: CheckResult[], t: Tally): string {
  return JSON.stringify({ checks: results.map((r) => ({ id: r.id, status: r.status, level: r.level, detail: sanitize(r.detail) })), ...t });
}
