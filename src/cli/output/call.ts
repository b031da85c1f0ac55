// `call` output: the --json document, and the human view of each sink's share.
import type { Rule } from "../../protocol/rules.js";
import { selectorKey } from "../../protocol/index.js";
import { formatBytes, measureReceipt, measureSinks, type Share } from "../../host/result/measure.js";
import type { CallError, CallOutcome, HostWarning, SinkName } from "../../host/types.js";
import { sanitizeInline, sanitizeName } from "../../protocol/sanitize.js";
import { previewOutput } from "./sinks.js";

export interface CallDocument {
  server: string | null;
  tool: string;
  protocolVersion: string | null;
  requestedOutputs: unknown[] | null;
  isError: boolean;
  routed: {
    model: readonly unknown[];
    user: readonly unknown[];
    programmatic: readonly unknown[];
    app: readonly unknown[];
  };
  appMeta?: Record<string, unknown>;
  /** What the host did not pass on as it came (e.g. a legacy structuredContent dropped), with the rule. */
  warnings?: HostWarning[];
  /**
   * A legacy-era result has no outputs on the wire: which of its fields mcp-prism read for which
   * sink (the routed entries are that reading, labelled with the audience they were routed as).
   */
  legacyFields?: { content: SinkName; structuredContent?: SinkName };
  /** A legacy result's `_meta` as the server sent it (routed to no sink). */
  resultMeta?: Record<string, unknown>;
  /** The error as data (server, tool, rule, detail) with its one line (`message`). */
  error?: CallError;
  /** Each sink's size, the one measure the card and `compare` show; `receipt` when the model got only the host's. */
  sizes?: Record<SinkName, Share> & { receipt?: Share };
}

export function callDocument(outcome: CallOutcome): CallDocument {
  const p = outcome.plan;
  const doc: CallDocument = {
    server: p.server || null,
    tool: p.tool,
    protocolVersion: p.protocolVersion || null,
    requestedOutputs: p.requested ?? null,
    isError: outcome.ok ? outcome.isError : false,
    routed: { model: [], user: [], programmatic: [], app: [] },
  };
  if (outcome.ok) {
    doc.routed = {
      model: outcome.routed.model,
      user: outcome.routed.user,
      programmatic: outcome.routed.programmatic,
      app: outcome.routed.app,
    };
    if (Object.keys(outcome.routed.appMeta).length > 0) doc.appMeta = outcome.routed.appMeta;
    if (outcome.warnings) doc.warnings = outcome.warnings;
    if (outcome.resultMeta) doc.resultMeta = outcome.resultMeta;
    if (outcome.legacyResult) {
      const sc = outcome.routed.app.some((o) => o.format === "structured")
        ? "app"
        : outcome.routed.programmatic.length > 0
          ? "programmatic"
          : undefined;
      doc.legacyFields = { content: "model", ...(sc ? { structuredContent: sc } : {}) };
    }
    doc.sizes = {
      ...measureSinks(outcome.routed),
      ...(outcome.receipt ? { receipt: measureReceipt(outcome.receipt) } : {}),
    };
  } else doc.error = outcome.error;
  return doc;
}

/** A document for failures before any plan exists (config, connection): `e` names its server, if any. */
export function errorDocument(
  tool: string,
  e: { rule: Rule; detail: string; message: string; server?: string },
  server?: string,
): CallDocument {
  return {
    server: server ?? null,
    tool,
    protocolVersion: null,
    requestedOutputs: null,
    isError: false,
    routed: { model: [], user: [], programmatic: [], app: [] },
    error: { server: e.server ?? "", tool, rule: e.rule, detail: e.detail, message: e.message },
  };
}

export const SINK_TITLES: Record<SinkName, string> = {
  model: "model",
  user: "user",
  programmatic: "program logic",
  app: "App view",
};

export function shareText(s: Share): string {
  const media = [
    s.images ? `${s.images} image${s.images > 1 ? "s" : ""}` : "",
    s.audio ? `${s.audio} audio` : "",
  ].filter(Boolean);
  const tokens = s.textBytes > 0 || media.length === 0 ? ` ≈ ${s.tokens} tokens` : "";
  return `${formatBytes(s.bytes)}${tokens}${media.length ? ` (${media.join(", ")})` : ""}`;
}

/** `rows`: the table rows a user/structured output shows (call --rows N; default one page). */
export function renderCall(outcome: CallOutcome, width = 100, rows?: number): string {
  const p = outcome.plan;
  const out: string[] = [];
  // A name no server lists was never sent anywhere: no era to name, and "not connected" would be untrue.
  const era = p.protocolVersion
    ? `protocol ${p.protocolVersion}, `
    : !outcome.ok && outcome.error.rule === "unknown-tool"
      ? ""
      : "not connected, ";
  const profile = p.legacyProfile ? `, legacy profile ${p.legacyProfile}` : "";
  out.push(
    `${sanitizeName(p.tool)}${p.server ? ` on ${sanitizeName(p.server)}` : ""} (${era}mode ${p.mode}${profile}) · ${Math.round(outcome.durationMs)} ms`,
  );
  out.push(
    `requested: ${
      p.requested
        ? p.requested
            .map(selectorKey)
            .map((k) => sanitizeInline(k))
            .join(", ")
        : "(none sent: assistant/content fallback)"
    }`,
  );
  if (!outcome.ok) {
    out.push(`✗ rejected [${outcome.error.rule}]: ${sanitizeInline(outcome.error.message)}`);
    out.push("nothing was routed.");
    return out.join("\n") + "\n";
  }
  if (outcome.isError) out.push("⚠ the tool reported an error (isError); outputs are routed per audience");
  for (const w of outcome.warnings ?? []) out.push(`⚠ [${sanitizeName(w.rule)}] ${sanitizeInline(w.detail)}`);
  const shares = measureSinks(outcome.routed);
  for (const sink of ["model", "user", "programmatic", "app"] as const) {
    const entries = outcome.routed[sink];
    if (sink === "model" && entries.length === 0 && outcome.receipt) {
      out.push(`\n── model · host receipt only · ${shareText(measureReceipt(outcome.receipt))}`);
      out.push(`   ${outcome.receipt.text}`);
      continue;
    }
    if (entries.length === 0) {
      out.push(`\n── ${SINK_TITLES[sink]} · nothing`);
      continue;
    }
    out.push(`\n── ${SINK_TITLES[sink]} · ${shareText(shares[sink])}`);
    for (const e of entries) {
      out.push(`   ${sanitizeInline(selectorKey(e))}:`);
      for (const line of previewOutput(e, { table: sink === "user", width: width - 5, rows })) out.push(`     ${line}`);
    }
  }
  const meta = Object.keys(outcome.routed.appMeta);
  if (meta.length) out.push(`   App _meta: ${meta.map((k) => sanitizeInline(k)).join(", ")}`);
  const resultMeta = Object.keys(outcome.resultMeta ?? {});
  if (resultMeta.length)
    out.push(
      `\nresult _meta (no sink; kept in --json): ${resultMeta
        .slice(0, 8)
        .map((k) => sanitizeName(k, 40))
        .join(", ")}${resultMeta.length > 8 ? ", …" : ""}`,
    );
  return out.join("\n") + "\n";
}
