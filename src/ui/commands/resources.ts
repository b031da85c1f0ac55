// /resources [SERVER]: each server's resources and templates, and what was wrong with a listing.
import { sanitizeInline, truncateChars } from "../../protocol/sanitize.js";
import { truncateToWidth } from "../format.js";
import { resourceHost } from "./resource-view.js";
import type { SlashCommand } from "./types.js";

const inline = (s: string, max = 200) => truncateChars(sanitizeInline(s), max);

export const resources: SlashCommand = {
  name: "resources",
  usage: "/resources [server]",
  args: ["server"],
  description: "list the servers' resources and resource templates (read one with /read, attach one with @URI)",
  async run(args, ctx) {
    const server = args.trim() || undefined;
    const listings = await resourceHost(ctx).resources(server);
    const w = ctx.width();
    const lines: string[] = [];
    if (server !== undefined && listings.length === 0) lines.push(`no server named ${inline(server, 60)}`);
    for (const l of listings) {
      if (!l.offered && l.errors.length === 0) {
        lines.push(truncateToWidth(`${inline(l.server, 60)} · no resources offered`, w));
        continue;
      }
      lines.push(
        truncateToWidth(
          `${inline(l.server, 60)} · ${l.resources.length} resource${l.resources.length === 1 ? "" : "s"}, ${l.templates.length} template${l.templates.length === 1 ? "" : "s"}`,
          w,
        ),
      );
      for (const r of l.resources)
        lines.push(
          truncateToWidth(
            `  ${inline(r.uri)}  ${inline(r.title ?? r.name, 80)}${r.mimeType ? ` (${inline(r.mimeType, 60)})` : ""}`,
            w,
          ),
        );
      for (const t of l.templates)
        lines.push(truncateToWidth(`  ${inline(t.uriTemplate)}  ${inline(t.title ?? t.name, 80)} (template)`, w));
      for (const e of l.errors) lines.push(truncateToWidth(`  ✗ [${inline(e.rule, 40)}] ${inline(e.message)}`, w));
    }
    ctx.store.notice(lines.join("\n") || "no servers");
  },
};
