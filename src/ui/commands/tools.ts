import { sanitizeInline, sanitizeName } from "../../protocol/sanitize.js";
import { wrapText } from "../format.js";
import { toolIssueLines } from "./tool-issues.js";
import type { SlashCommand } from "./types.js";

export const tools: SlashCommand = {
  name: "tools",
  usage: "/tools",
  description: "list tools with their declared output variants, and every tool or variant set aside with its rule",
  async run(_args, ctx) {
    const mode = ctx.store.getState().mode;
    // Schemas compile on first use; the findings need them all (the host compiles in slices that yield).
    const list = await (ctx.host.settledTools?.(mode) ?? ctx.host.tools(mode));
    const rejected = (await ctx.host.toolErrors?.(mode)) ?? [];
    const w = ctx.width();
    const lines: string[] = [];
    for (const t of list) {
      const variants = t.variants.map((v) => `${sanitizeName(v.audience)}/${v.format}`).join(", ");
      const flag = t.unavailable ? `  [unavailable: ${sanitizeName(t.unavailable.rule)}]` : "";
      // Wrapped, never cut: every variant and the whole description can be read.
      lines.push(...wrapText(`${sanitizeName(t.qualifiedName)} (${sanitizeName(t.server)}, ${t.era}) → ${variants || "—"}${flag}`, w, 4));
      if (t.description) lines.push(...wrapText(`  ${sanitizeInline(t.description)}`, w, 2));
    }
    const issues = toolIssueLines(list, rejected, w, "  ");
    if (issues.length > 0) lines.push(list.length > 0 ? "set aside:" : "no usable tools; set aside:", ...issues);
    if (lines.length === 0) {
      ctx.store.notice("no tools (see /servers)");
      return;
    }
    ctx.store.notice(lines.join("\n"));
  },
};
