// /table pages the last user/structured value: a new page is drawn as a new block, since drawn
// turns are never redrawn (they live in <Static>). Past the last row sent, when the server said it
// has more (nextCursor) and the tool takes a `cursor` argument, `next` calls the tool again with
// that cursor through the normal call path (its own card, approval, routing), so every row the
// server holds can be reached.
import { DEFAULT_PAGE_SIZE, nextCursorOf, reportedTotalOf, totalRows, type TableSource } from "../table.js";
import { isObject } from "../../protocol/is-object.js";
import { runToolWithCard } from "./run-tool.js";
import { CommandError, type CommandContext, type SlashCommand } from "./types.js";

export const table: SlashCommand = {
  name: "table",
  usage: "/table [next|prev|N]",
  args: ["table"],
  description:
    "page through the last table (N = first row to show); past its last row, next fetches the server's next page",
  async run(args, ctx) {
    const last = ctx.store.getState().lastTable;
    if (!last) throw new CommandError("no table yet: a tool must return user/structured output first");
    const total = totalRows(last.value);
    const a = args.trim() || "next";
    let offset: number;
    if (a === "next") offset = last.offset + DEFAULT_PAGE_SIZE;
    else if (a === "prev") offset = last.offset - DEFAULT_PAGE_SIZE;
    else if (/^\d+$/.test(a)) offset = Number(a) - 1;
    else throw new CommandError(`usage: /table [next|prev|N] (got ${JSON.stringify(a.slice(0, 20))})`);
    if (offset >= total) {
      const cursor = nextCursorOf(last.value);
      if (a === "next" && cursor !== undefined && last.source) return nextPage(ctx, last, last.source, cursor, total);
      const base = last.source?.before ?? 0;
      throw new CommandError(
        base
          ? `nothing after row ${base + total}: rows ${base + 1}–${base + total} were the server's last page`
          : `the table has ${total} rows; nothing after row ${Math.min(total, last.offset + DEFAULT_PAGE_SIZE)}`,
      );
    }
    offset = Math.max(0, offset);
    ctx.store.update({ lastTable: { ...last, offset } });
    ctx.store.append({ kind: "table", value: last.value, offset, rowBase: last.source?.before });
  },
};

/** Calls the table's tool again with the server's cursor; the new page becomes the last table. */
async function nextPage(
  ctx: CommandContext,
  last: object,
  source: TableSource,
  cursor: string,
  sent: number,
): Promise<void> {
  const entry = (await ctx.host.tools(ctx.store.getState().mode)).find(
    (t) => t.server === source.server && t.name === source.tool,
  );
  if (!entry)
    throw new CommandError(
      `the server has more rows (nextCursor), but ${source.tool} is no longer listed by ${source.server}`,
    );
  const props =
    isObject(entry.inputSchema) && isObject(entry.inputSchema.properties) ? entry.inputSchema.properties : {};
  if (!Object.hasOwn(props, "cursor"))
    throw new CommandError(`the server has more rows (nextCursor), but ${source.tool} takes no cursor argument`);
  const before = source.before + sent;
  ctx.store.expectNextPage({ server: source.server, tool: source.tool, before });
  const outcome = await runToolWithCard(
    ctx,
    entry,
    { ...source.args, cursor },
    source.requested ? { select: source.requested } : {},
  ).finally(() => ctx.store.expectNextPage());
  const now = ctx.store.getState().lastTable;
  if (!outcome.ok || !now?.source || now === last) return; // no new table came back
  const rows = totalRows(now.value);
  const reported = reportedTotalOf(now.value);
  ctx.store.notice(
    `${source.tool}: the server's next page, rows ${before + 1}–${before + rows}${reported !== undefined ? ` of the ${reported} it reported` : ""}` +
      (nextCursorOf(now.value) !== undefined ? " · more on the server: /table next" : " · the last page"),
  );
}
