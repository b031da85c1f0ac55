// /table pages the last user/structured value: a new page is drawn as a new block, since drawn
// turns are never redrawn (they live in <Static>).
import { DEFAULT_PAGE_SIZE, totalRows } from "../table.js";
import { CommandError, type SlashCommand } from "./types.js";

export const table: SlashCommand = {
  name: "table",
  usage: "/table [next|prev|N]",
  args: ["table"],
  description: "page through the last table (N = first row to show)",
  run(args, ctx) {
    const last = ctx.store.getState().lastTable;
    if (!last) throw new CommandError("no table yet: a tool must return user/structured output first");
    const total = totalRows(last.value);
    const a = args.trim() || "next";
    let offset: number;
    if (a === "next") offset = last.offset + DEFAULT_PAGE_SIZE;
    else if (a === "prev") offset = last.offset - DEFAULT_PAGE_SIZE;
    else if (/^\d+$/.test(a)) offset = Number(a) - 1;
    else throw new CommandError(`usage: /table [next|prev|N] (got ${JSON.stringify(a.slice(0, 20))})`);
    if (offset >= total) throw new CommandError(`the table has ${total} rows; nothing after row ${Math.min(total, last.offset + DEFAULT_PAGE_SIZE)}`);
    offset = Math.max(0, offset);
    ctx.store.update({ lastTable: { value: last.value, offset } });
    ctx.store.append({ kind: "table", value: last.value, offset });
  },
};
