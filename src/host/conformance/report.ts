// Report lines: one per check, server-supplied text made safe for a terminal.
import type { CheckResult } from "./check.js";
import type { Tally } from "./index.js";

const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b[\]PX^_][\s\S]*?(?:\x07|\x1b\\)|\x1b./g;
const CONTROL = /[\x00-\x1f\x7f-\x9f\u2028\u2029\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g;
const MAX_DETAIL = 400;

/** Strips escape sequences and control characters (newlines too: one line per check). */
export function sanitize(text: string, max = MAX_DETAIL): string {
  const clean = text.replace(ANSI, "").replace(CONTROL, " ").replace(/ {2,}/g, " ").trim();
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
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
