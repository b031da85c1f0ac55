// /compare: the same call under every mode, side by side — what was requested and where it went.
import { MODES, type CallOutcome, type Mode } from "../../host/types.js";
import { describeRequested, sinkSummary } from "../components/ToolCard.js";
import { sanitizeInline, sanitizeName } from "../sanitize.js";
import { parseToolCallArgs, resolveTool } from "./parse.js";
import type { SlashCommand } from "./types.js";

const USAGE = "/compare <tool> <json>";

export function compareRow(m: Mode, o: CallOutcome): Record<string, string> {
  if (!o.ok) return { mode: m, requested: describeRequested(o), result: `✗ ${sanitizeName(o.error.rule)}: ${sanitizeInline(o.error.message)}` };
  return { mode: m, requested: describeRequested(o), result: sinkSummary(o) + (o.isError ? " · isError" : "") };
}

export const compare: SlashCommand = {
  name: "compare",
  usage: USAGE,
  description: "call a tool once per mode and compare requested outputs and sinks",
  async run(args, ctx) {
    const parsed = parseToolCallArgs(args, USAGE, false);
    const rows: Record<string, string>[] = [];
    for (const m of MODES) {
      if (ctx.signal?.aborted) break;
      const tool = resolveTool(await ctx.host.tools(m), parsed.tool);
      const o = await ctx.host.call(tool.qualifiedName, parsed.args, { mode: m, signal: ctx.signal });
      rows.push(compareRow(m, o));
    }
    ctx.store.update({ lastTable: { value: rows, offset: 0 } });
    ctx.store.append({ kind: "notice", level: "info", text: `compare ${sanitizeName(parsed.tool)} across ${rows.length} modes:` });
    ctx.store.append({ kind: "table", value: rows, offset: 0 });
  },
};
