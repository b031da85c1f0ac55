// /compare: the same call under every mode AND as each legacy client profile reads the legacy
// (2026-07-28) result, side by side — what was requested and what each sink received.
import { LEGACY_PROFILES, MODES, SINKS, type CallOutcome, type LegacyProfile, type Mode, type SinkName } from "../../host/types.js";
import { PROFILE_CLIENTS } from "../../host/legacy/index.js";
import { formatBytes } from "../format.js";
import { userSummary } from "../components/ToolCard.js";
import { sanitizeInline, sanitizeName } from "../sanitize.js";
import { parseToolCallArgs, resolveTool } from "./parse.js";
import type { SlashCommand } from "./types.js";

const USAGE = "/compare <tool> <json>";
const AUDIENCE_SHORT: Record<string, string> = { assistant: "A", user: "U", programmatic: "P" };
const SINK_COLUMN: Record<SinkName, string> = { model: "model", user: "user", programmatic: "program", app: "app" };
export const COMPARE_LEGEND = "requested: A assistant · U user · P programmatic · ui io.modelcontextprotocol/ui; /c content, /s structured";

/** `A/c U/s` — short enough for a table cell; "none sent" when requestedOutputs is absent. */
export function shortRequested(o: CallOutcome): string {
  const req = o.plan.requested;
  if (req === undefined) return o.plan.protocolVersion ? `none sent (${sanitizeName(o.plan.protocolVersion)})` : "none sent";
  if (req.length === 0) return "[]";
  return req.map((s) => `${AUDIENCE_SHORT[s.audience] ?? (s.audience === "io.modelcontextprotocol/ui" ? "ui" : sanitizeName(s.audience))}/${s.format[0]}`).join(" ");
}

function sinkCell(o: Extract<CallOutcome, { ok: true }>, sink: SinkName): string {
  const n = sink === "app" ? o.routed.app.length + Object.keys(o.routed.appMeta).length : o.routed[sink].length;
  if (sink === "model" && n === 0 && o.receipt) return "receipt";
  if (n === 0) return "—";
  const size = formatBytes(o.bytes[sink]);
  return sink === "user" ? `${userSummary(o.routed)} ${size}` : size;
}

/** One comparison row: a mode or a legacy profile, what it requested, and each sink. */
export function compareRow(call: string, o: CallOutcome): Record<string, string> {
  const row: Record<string, string> = { call, requested: shortRequested(o) };
  for (const s of SINKS) row[SINK_COLUMN[s]] = o.ok ? sinkCell(o, s) : s === "model" ? `✗ ${sanitizeName(o.error.rule)}` : "";
  if (o.ok && o.isError) row.model += " (isError)";
  return row;
}

export const compare: SlashCommand = {
  name: "compare",
  usage: USAGE,
  description: "call a tool once per mode and as each legacy client would; compare requests and sinks",
  async run(args, ctx) {
    const parsed = parseToolCallArgs(args, USAGE, false);
    const rows: Record<string, string>[] = [];
    const errors: string[] = [];
    let server = "";
    for (const m of MODES as readonly Mode[]) {
      if (ctx.signal?.aborted) break;
      const tool = resolveTool(await ctx.host.tools(m), parsed.tool);
      server = tool.server;
      const o = await ctx.host.call(tool.qualifiedName, parsed.args, { mode: m, signal: ctx.signal });
      rows.push(compareRow(`mode ${m}`, o));
      if (!o.ok) errors.push(`mode ${m}: [${sanitizeName(o.error.rule)}] ${sanitizeInline(o.error.message)}`);
    }
    let legacyNote = "";
    if (!ctx.signal?.aborted) {
      if (!ctx.host.legacyProfiles) legacyNote = "legacy client profiles: not available here";
      else {
        try {
          const tool = resolveTool(await ctx.host.tools(ctx.store.getState().mode), parsed.tool);
          const outcomes = await ctx.host.legacyProfiles(tool, parsed.args, { signal: ctx.signal });
          for (const p of LEGACY_PROFILES as readonly LegacyProfile[]) {
            const o = outcomes[p];
            if (!o) continue;
            rows.push(compareRow(`${p} (${PROFILE_CLIENTS[p]})`, o));
            if (!o.ok) errors.push(`${p}: [${sanitizeName(o.error.rule)}] ${sanitizeInline(o.error.message)}`);
          }
        } catch (e) {
          legacyNote = `legacy client profiles not available: ${sanitizeInline((e as Error)?.message ?? String(e))}`;
        }
      }
    }
    ctx.store.update({ lastTable: { value: rows, offset: 0 } });
    ctx.store.append({ kind: "notice", level: "info", text: `compare ${sanitizeName(parsed.tool)}${server ? ` on ${sanitizeName(server)}` : ""}: ${rows.length} ways to call it, what each sink received` });
    ctx.store.append({ kind: "table", value: rows, offset: 0 });
    const notes = [COMPARE_LEGEND, ...(legacyNote ? [legacyNote] : []), ...errors.map((e) => `✗ ${e}`)];
    ctx.store.append({ kind: "notice", level: "info", text: notes.join("\n") });
  },
};
