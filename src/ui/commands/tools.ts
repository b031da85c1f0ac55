import { sanitizeInline, sanitizeName } from "../sanitize.js";
import { truncateToWidth } from "../format.js";
import type { SlashCommand } from "./types.js";

export const tools: SlashCommand = {
  name: "tools",
  usage: "/tools",
  description: "list tools with their declared output variants",
  async run(_args, ctx) {
    const list = await ctx.host.tools(ctx.store.getState().mode);
    if (list.length === 0) {
      ctx.store.notice("no tools (see /servers)");
      return;
    }
    const w = ctx.width();
    const lines: string[] = [];
    for (const t of list) {
      const variants = t.variants.map((v) => `${sanitizeName(v.audience)}/${v.format}`).join(", ");
      lines.push(truncateToWidth(`${sanitizeName(t.qualifiedName)} (${sanitizeName(t.server)}, ${t.era}) → ${variants || "—"}`, w));
      if (t.description) lines.push(truncateToWidth(`  ${sanitizeInline(t.description)}`, w));
    }
    ctx.store.notice(lines.join("\n"));
  },
};
