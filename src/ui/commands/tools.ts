import { sanitizeInline, sanitizeName } from "../../protocol/sanitize.js";
import { wrapText } from "../format.js";
import { toolIssueLines } from "./tool-issues.js";
import { CommandError, type CommandContext, type SlashCommand } from "./types.js";
import { TOOL_SEARCH_SETTINGS, type ToolSearchSetting } from "../../model/tool-search.js";
import { MAX_PINNED_TOOLS } from "../../host/config/config.js";

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

/** `/tools pin NAME` / `/tools unpin NAME`: a tool always offered with its definition under tool search. */
async function setPin(args: string, ctx: CommandContext): Promise<void> {
  const [verb, name = ""] = args.trim().split(/\s+/);
  const s = ctx.toolSearch;
  if (!s) throw new CommandError("pinning needs a model turn (the chat app)");
  if (!name) throw new CommandError(`usage: /tools ${verb} NAME`);
  if (verb === "unpin") {
    const at = s.pinned.indexOf(name);
    if (at < 0) throw new CommandError(`${sanitizeName(name)} is not pinned (pinned: ${pinnedList(s.pinned)})`);
    s.pinned.splice(at, 1);
    ctx.store.notice(`unpinned ${sanitizeName(name)}: offered again only when used or found (from the next request)`);
    return;
  }
  const list = await ctx.host.tools(ctx.store.getState().mode);
  const tool = list.find((t) => t.qualifiedName === name) ?? list.find((t) => t.name === name);
  if (!tool) throw new CommandError(`no tool named ${sanitizeName(name)} (see /tools)`);
  if (s.pinned.includes(tool.qualifiedName)) {
    ctx.store.notice(`${sanitizeName(tool.qualifiedName)} is already pinned`);
    return;
  }
  if (s.pinned.length >= MAX_PINNED_TOOLS)
    throw new CommandError(`at most ${MAX_PINNED_TOOLS} pinned tools; unpin one first`);
  s.pinned.push(tool.qualifiedName);
  ctx.store.notice(
    `pinned ${sanitizeName(tool.qualifiedName)}: under tool search the model gets its definition in every request (from the next one)`,
  );
}

const pinnedList = (pinned: readonly string[]) => pinned.map((n) => sanitizeName(n)).join(", ") || "none";

/** The line that says what the model is offered: all definitions, or the loaded ones. */
function searchLine(ctx: CommandContext): string | undefined {
  const s = ctx.toolSearch;
  if (!s || (!s.offered && s.setting === "auto")) return undefined;
  if (!s.offered)
    return s.setting === "off"
      ? "tool search off: the model gets every tool's definition"
      : "tool search on: from the next model request";
  const loaded = s.offered.loaded.filter((n) => n !== "search_tools");
  const pins = s.pinned.length ? `; pinned: ${pinnedList(s.pinned)}` : "";
  return `tool search ${s.setting}: ${loaded.length} of ${s.offered.deferred} tools loaded for the model (${loaded.map((n) => sanitizeName(n)).join(", ") || "none yet"}); the rest through search_tools${pins}`;
}

export const tools: SlashCommand = {
  name: "tools",
  usage: "/tools [search on|off|auto | pin NAME | unpin NAME]",
  description:
    "list tools with their declared output variants (and which are loaded under tool search), and every tool or variant set aside with its rule",
  args: [
    ["search", "pin", "unpin"],
    ["on", "off", "auto"],
  ],
  async run(args, ctx) {
    if (args.trim().startsWith("search")) return setSearch(args, ctx);
    if (/^(un)?pin\b/.test(args.trim())) return setPin(args, ctx);
    const pinned = new Set(ctx.toolSearch?.pinned ?? []);
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
        : `${pinned.has(t.qualifiedName) ? "  [pinned]" : ""}${loaded.has(t.name) || loaded.has(t.qualifiedName) ? "  [loaded]" : ""}`;
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
