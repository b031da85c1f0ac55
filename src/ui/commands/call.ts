import { parseToolCallArgs, resolveTool } from "./parse.js";
import { runToolWithCard } from "./run-tool.js";
import type { SlashCommand } from "./types.js";

const USAGE = "/call <tool> <json> [--select audience/format]...";

export const call: SlashCommand = {
  name: "call",
  usage: USAGE,
  args: ["tool", "json"],
  description: "call a tool directly (the mode's selection, or explicit --select)",
  async run(args, ctx) {
    const parsed = parseToolCallArgs(args, USAGE);
    const tool = resolveTool(await ctx.host.tools(ctx.store.getState().mode), parsed.tool);
    await runToolWithCard(ctx, tool, parsed.args, parsed.select ? { select: parsed.select } : {});
  },
};
