// What the host did not take as a server declared it, one line per finding with its rule, for
// /tools and /servers: rejected tools, unavailable tools (e.g. task-only), declined variants and
// warnings. Nothing the host set aside is left out of either view.
import type { ToolEntry } from "../../host/types.js";
import { truncateToWidth } from "../format.js";
import { sanitizeInline, sanitizeName } from "../../protocol/sanitize.js";
import type { RejectedTool } from "./types.js";

/** The findings about one server's tools (or every server's when `server` is undefined), each cut to `width`. */
export function toolIssueLines(
  tools: readonly ToolEntry[],
  rejected: readonly RejectedTool[],
  width: number,
  indent: string,
  server?: string,
): string[] {
  const mine = <T extends { server: string }>(list: readonly T[]) =>
    server === undefined ? list : list.filter((x) => x.server === server);
  // Every server's findings name the server too; one server's (under its own line) only the tool.
  const who = (s: string, tool: string) =>
    server === undefined ? `${sanitizeName(s)} · ${sanitizeName(tool)}` : sanitizeName(tool);
  const lines: string[] = [];
  for (const t of mine(tools)) {
    if (t.unavailable)
      lines.push(
        `✗ ${who(t.server, t.name)} unavailable [${sanitizeName(t.unavailable.rule)}]: ${sanitizeInline(t.unavailable.detail)}`,
      );
    for (const d of t.declined ?? []) {
      lines.push(
        `✗ ${who(t.server, t.name)} ${sanitizeName(d.audience)}/${d.format} declined [${sanitizeName(d.rule)}]: ${sanitizeInline(d.detail)}`,
      );
    }
    for (const w of t.warnings ?? [])
      lines.push(`⚠ ${who(t.server, t.name)} [${sanitizeName(w.rule)}]: ${sanitizeInline(w.detail)}`);
  }
  for (const r of mine(rejected))
    lines.push(`✗ ${who(r.server, r.tool)} rejected [${sanitizeName(r.rule)}]: ${sanitizeInline(r.detail)}`);
  return lines.map((l) => truncateToWidth(indent + l, width));
}

/** `12 usable, 1 unavailable, 2 rejected` for one server. */
export function toolCounts(tools: readonly ToolEntry[], rejected: readonly RejectedTool[], server: string): string {
  const listed = tools.filter((t) => t.server === server);
  const usable = listed.filter((t) => t.unavailable === undefined).length;
  const parts = [`${usable} usable`];
  if (listed.length > usable) parts.push(`${listed.length - usable} unavailable`);
  const r = rejected.filter((x) => x.server === server).length;
  if (r > 0) parts.push(`${r} rejected`);
  return parts.join(", ");
}
