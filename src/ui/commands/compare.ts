// /compare: the same call under every mode AND as each legacy client profile reads the legacy
// (2026-07-28) result, side by side — what was requested and what each sink received.
import { callsOf } from "../calls.js";
import { describePlan, planCompare, type CompareHost } from "../../compare/plan.js";
import { runCompare } from "../../compare/run.js";
import { SINKS, type CallOutcome, type SinkName, type ToolEntry } from "../../host/types.js";
import { PROFILE_CLIENTS } from "../../compare/profiles/index.js";
import { formatBytes } from "../../host/result/measure.js";
import { userSummary } from "../components/ToolCard.js";
import { sanitizeInline, sanitizeName } from "../../protocol/sanitize.js";
import { parseToolCallArgs, resolveTool } from "./parse.js";
import { CommandError, type SlashCommand } from "./types.js";

const USAGE = "/compare <tool> <json>";
const AUDIENCE_SHORT: Record<string, string> = { assistant: "A", user: "U", programmatic: "P" };
const SINK_COLUMN: Record<SinkName, string> = { model: "model", user: "user", programmatic: "program", app: "app" };
export const COMPARE_LEGEND =
  "requested: A assistant · U user · P programmatic · ui io.modelcontextprotocol/ui; /c content, /s structured";

/** `A/c U/s` — short enough for a table cell; "none sent" when requestedOutputs is absent. */
export function shortRequested(o: CallOutcome): string {
  const req = o.plan.requested;
  if (req === undefined)
    return o.plan.protocolVersion ? `none sent (${sanitizeName(o.plan.protocolVersion)})` : "none sent";
  if (req.length === 0) return "[]";
  return req
    .map(
      (s) =>
        `${AUDIENCE_SHORT[s.audience] ?? (s.audience === "io.modelcontextprotocol/ui" ? "ui" : sanitizeName(s.audience))}/${s.format[0]}`,
    )
    .join(" ");
}

function sinkCell(o: Extract<CallOutcome, { ok: true }>, sink: SinkName): string {
  const n = sink === "app" ? o.routed.app.length + Object.keys(o.routed.appMeta).length : o.routed[sink].length;
  if (sink === "model" && n === 0 && o.receipt) return "receipt";
  if (n === 0) return "—";
  const size = formatBytes(o.bytes[sink]);
  return sink === "user" ? `${userSummary(o.routed)} ${size}` : size;
}

/** One row of /compare's table, as cell texts: a mode or a legacy profile, what it requested, and each sink. */
export function compareTableRow(call: string, o: CallOutcome): Record<string, string> {
  const row: Record<string, string> = { call, requested: shortRequested(o) };
  for (const s of SINKS)
    row[SINK_COLUMN[s]] = o.ok ? sinkCell(o, s) : s === "model" ? `✗ ${sanitizeName(o.error.rule)}` : "";
  if (o.ok && o.isError) row.model += " (isError)";
  return row;
}

export const compare: SlashCommand = {
  name: "compare",
  usage: USAGE,
  args: ["tool", "json"],
  description:
    "call a tool once per distinct request of the modes and as each legacy client would; compare requests and sinks",
  async run(args, ctx) {
    const parsed = parseToolCallArgs(args, USAGE, false);
    const { requestFor } = ctx.host;
    if (!requestFor) throw new CommandError("/compare is not available until the host has started");
    const host: CompareHost = {
      tools: (m) => ctx.host.tools(m),
      requestFor,
      call: (n, a, o) => ctx.host.call(n, a, o),
    };
    const plan = await planCompare(host, (tools) => findTool(tools, parsed.tool));
    if (plan.calls.length === 0) resolveTool(await host.tools(ctx.store.getState().mode), parsed.tool); // throws the usual one-line error
    const what = `compare ${sanitizeName(plan.tool)} on ${sanitizeName(plan.server)}: ${describePlan(plan)}`;
    const gate = callsOf(ctx).gate;
    if (gate.decide(plan.server, plan.tool, !plan.needsApproval) !== "allow") {
      ctx.store.notice(`${what} — it is not marked read-only: approve to run it`);
      const answer = await gate.approveCall(
        { server: plan.server, tool: plan.tool, args: parsed.args, source: "compare", detail: describePlan(plan) },
        false,
        ctx.signal,
      );
      if (!answer.ok) {
        ctx.store.notice(`compare ${sanitizeName(plan.tool)}: not run (declined)`);
        return;
      }
    }
    const run = await runCompare(host, plan, parsed.args, { legacy: ctx.host.legacyCall, signal: ctx.signal });
    const rows: Record<string, string>[] = [];
    const errors: string[] = [];
    for (const r of run.modes) {
      rows.push(compareTableRow(`mode ${r.mode}${r.sameCallAs ? ` (= ${r.sameCallAs})` : ""}`, r.outcome));
      if (!r.outcome.ok && !r.sameCallAs)
        errors.push(
          `mode ${r.mode}: [${sanitizeName(r.outcome.error.rule)}] ${sanitizeInline(r.outcome.error.message)}`,
        );
    }
    for (const r of run.legacy) {
      rows.push(compareTableRow(`${r.profile} (${PROFILE_CLIENTS[r.profile]})`, r.outcome));
      if (!r.outcome.ok)
        errors.push(`${r.profile}: [${sanitizeName(r.outcome.error.rule)}] ${sanitizeInline(r.outcome.error.message)}`);
    }
    const legacyNote = run.legacyError
      ? `legacy client profiles not available: ${sanitizeInline(run.legacyError.message)}`
      : "";
    ctx.store.update({ lastTable: { value: rows, offset: 0 } });
    ctx.store.append({
      kind: "notice",
      level: "info",
      text: `compare ${sanitizeName(plan.tool)} on ${sanitizeName(plan.server)}: ${rows.length} ways to read it from ${run.calls} wire call${run.calls === 1 ? "" : "s"}, what each sink received`,
    });
    ctx.store.append({ kind: "table", value: rows, offset: 0 });
    const notes = [COMPARE_LEGEND, ...(legacyNote ? [legacyNote] : []), ...errors.map((e) => `✗ ${e}`)];
    ctx.store.append({ kind: "notice", level: "info", text: notes.join("\n") });
  },
};

/** The tool in a mode's listing, by qualified or plain name (as /call resolves it). */
function findTool(tools: ToolEntry[], name: string): ToolEntry | undefined {
  try {
    return resolveTool(tools, name);
  } catch {
    return undefined; // not in this mode's listing (or ambiguous): that mode's row says so
  }
}
