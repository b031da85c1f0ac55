import { sanitizeInline, sanitizeName } from "../../protocol/sanitize.js";
import { wrapText } from "../format.js";
import { toolIssueLines } from "./tool-issues.js";
import { CommandError, type CommandContext, type SlashCommand } from "./types.js";
import { TOOL_SEARCH_SETTINGS, type ToolSearchSetting } from "../../model/tool-search.js";

/** `/tools search on|off|auto`: sets the switch for the next model request. */
function setSearch(args: string, ctx: CommandContext): void {
  const word = args.trim().split(/\s+/)[1] ?? "";
  if (!ctx.toolSearch) throw new CommandError("tool search needs a model turn (the chat app)");
  if (!TOOL_SEARCH_SETTINGS.includes(word as ToolSearchSetting))
    throw new CommandError("usage: /tools search on|off|auto");
  ctx.toolSearch.setting = word as ToolSearchSetting;
  const what = {
    on: "the model gets search_tools and the tools it used or found lately",
    off: "the model gets every tool's definition",
    auto: "on when the definitions are over a tenth of the model's window",
  }[ctx.toolSearch.setting];
  ctx.store.notice(`tool search ${word}: ${what} (from the next request)`);
}

/** The line that says what the model is offered: all definitions, or the loaded ones. */
function searchLine(ctx: CommandContext): string | undefined {
  const s = ctx.toolSearch;
  if (!s || (!s.offered && s.setting === "auto")) return undefined;
  if (!s.offered)
    return s.setting === "off"
      ? "tool search off: the model gets every tool's definition"
      : "tool search on: from the next model request";
  const loaded = s.offered.loaded.filter((n) => n !== "search_tools");
  return `tool search ${s.setting}: ${loaded.length} of ${s.offered.deferred} tools loaded for the model (${loaded.map((n) => sanitizeName(n)).join(", ") || "none yet"}); the rest through search_tools`;
}

export const tools: SlashCommand = {
  name: "tools",
  usage: "/tools [search on|off|auto]",
  description:
    "list tools with their declared output variants (and which are loaded under tool search), and every tool or variant set aside with its rule",
  args: [["search"], ["on", "off", "auto"]],
  async run(args, ctx) {
    if (args.trim().startsWith("search")) return setSearch(args, ctx);
    const loaded = new Set(ctx.toolSearch?.offered?.loaded ?? []);
    const mode = ctx.store.getState().mode;
    // Schemas compile on first use; the findings need them all (the host compiles in slices that yield).
    const list = await (ctx.host.settledTools?.(mode) ?? ctx.host.tools(mode));
    const rejected = (await ctx.host.toolErrors?.(mode)) ?? [];
    const w = ctx.width();
    const lines: string[] = [];
    for (const t of list) {
      const variants = t.variants.map((v) => `${sanitizeName(v.audience)}/${v.format}`).join(", ");
      const flag = t.unavailable
        ? `  [unavailable: ${sanitizeName(t.unavailable.rule)}]`
        : loaded.has(t.name) || loaded.has(t.qualifiedName)
          ? "  [loaded]"
          : "";
      // Wrapped, never cut: every variant and the whole description can be read.
      lines.push(
        ...wrapText(
          `${sanitizeName(t.qualifiedName)} (${sanitizeName(t.server)}, ${t.era}) → ${variants || "—"}${flag}`,
          w,
          4,
        ),
      );
      if (t.description) lines.push(...wrapText(`  ${sanitizeInline(t.description)}`, w, 2));
    }
    const line = searchLine(ctx);
    if (line && list.length) lines.unshift(...wrapText(line, w, 2));
    const issues = toolIssueLines(list, rejected, w, "  ");
    if (issues.length > 0) lines.push(list.length > 0 ? "set aside:" : "no usable tools; set aside:", ...issues);
    if (lines.length === 0) {
      ctx.store.notice("no tools (see /servers)");
      return;
    }
    ctx.store.notice(lines.join("\n"));
  },
};
