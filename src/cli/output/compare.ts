// `compare` output: one row per mode (2026-12-01) and per legacy client profile (2026-07-28),
// showing what reaches the model, the user, program logic and the App view.
import Table from "cli-table3";
import { selectorKey } from "../../protocol/index.js";
import { measureReceipt, measureSinks, type Share } from "../../host/result/measure.js";
import type { CallOutcome, LegacyProfile, Mode, SinkName } from "../../host/types.js";
import { sanitizeInline, sanitizeName } from "../../protocol/sanitize.js";
import { shareText } from "./call.js";

export interface CompareRow {
  kind: "mode" | "profile";
  label: Mode | LegacyProfile;
  clients?: string;
  protocolVersion: string | null;
  requestedOutputs: unknown[] | null;
  ok: boolean;
  isError?: boolean;
  sinks?: Record<SinkName, Share>;
  /** The model got only the host's receipt. */
  receipt?: Share;
  /** This mode sent exactly the request of that mode: one wire call answers both. */
  sameCallAs?: Mode;
  error?: { rule: string; message: string };
}

export interface CompareDocument {
  server: string | null;
  tool: string;
  modes: CompareRow[];
  legacy: CompareRow[];
  legacyError?: { rule: string; message: string };
  /** Wire calls made (each distinct request once). */
  calls: number;
  /** Set when nothing ran (e.g. not approved, unknown tool). */
  error?: { rule: string; message: string };
}

/** One row of `compare --json` (and of its table): a mode or a legacy profile, its request and what each sink got. */
export function compareDocumentRow(
  kind: CompareRow["kind"],
  label: CompareRow["label"],
  outcome: CallOutcome,
  clients?: string,
  sameCallAs?: Mode,
): CompareRow {
  const row: CompareRow = {
    kind,
    label,
    protocolVersion: outcome.plan.protocolVersion || null,
    requestedOutputs: outcome.plan.requested ?? null,
    ok: outcome.ok,
  };
  if (clients) row.clients = clients;
  if (sameCallAs) row.sameCallAs = sameCallAs;
  if (!outcome.ok) row.error = outcome.error;
  else {
    row.isError = outcome.isError;
    row.sinks = measureSinks(outcome.routed);
    if (outcome.receipt) row.receipt = measureReceipt(outcome.receipt);
  }
  return row;
}

function cell(row: CompareRow, sink: SinkName): string {
  if (!row.ok || !row.sinks) return sink === "model" ? `✗ ${row.error?.rule ?? "error"}` : "";
  if (sink === "model" && row.receipt) return `receipt only\n${shareText(row.receipt)}`;
  const s = row.sinks[sink];
  return s.outputs === 0 ? "—" : shareText(s).replace(" ≈ ", "\n≈ ");
}

export function renderCompare(doc: CompareDocument, width = 120): string {
  const labelW = 28;
  const colW = Math.max(16, Math.floor((Math.min(width, 160) - labelW - 6) / 4));
  const table = new Table({
    head: ["call", "model", "user", "program logic", "App view"],
    colWidths: [labelW, colW, colW, colW, colW],
    wordWrap: true,
    style: { head: [], border: [] },
  });
  const label = (r: CompareRow) => {
    const what =
      r.kind === "mode"
        ? `mode ${r.label}${r.sameCallAs ? ` (= ${r.sameCallAs}'s call)` : ""}`
        : `${r.label}${r.clients ? ` (${r.clients})` : ""}`;
    const req = r.requestedOutputs
      ? (r.requestedOutputs as { audience: string; format: "content" | "structured" }[]).map(selectorKey).join(", ")
      : "no requestedOutputs";
    return `${what}\n${sanitizeInline(r.protocolVersion ?? "?")}: ${sanitizeInline(req)}${r.isError ? "\n(isError)" : ""}`;
  };
  for (const r of [...doc.modes, ...doc.legacy])
    table.push([label(r), ...(["model", "user", "programmatic", "app"] as const).map((s) => cell(r, s))]);
  const lines = [
    `${sanitizeName(doc.tool)}${doc.server ? ` on ${sanitizeName(doc.server)}` : ""}: what each consumer receives`,
    table.toString(),
  ];
  const errors = [...doc.modes, ...doc.legacy].filter((r) => r.error);
  for (const r of errors) lines.push(`✗ ${r.label}: [${r.error!.rule}] ${sanitizeInline(r.error!.message)}`);
  if (doc.legacyError)
    lines.push(`legacy shape (2026-07-28) not available: ${sanitizeInline(doc.legacyError.message)}`);
  lines.push(
    `${doc.calls} wire call${doc.calls === 1 ? "" : "s"} (modes that send the same request share one); sizes: text/JSON bytes ≈ tokens (bytes/4); images counted separately`,
  );
  return lines.join("\n") + "\n";
}
