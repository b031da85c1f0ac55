// /save [file]: the whole session transcript (the same JSON Lines records the session file gets).
import { promises as fs } from "node:fs"; // fs.promises loads on first use, not with the app
import { resolve } from "node:path";
import { sanitizeInline } from "../sanitize.js";
import { jsonLine } from "../transcript.js";
import { CommandError, type SlashCommand } from "./types.js";

export const save: SlashCommand = {
  name: "save",
  usage: "/save [file]",
  description: "save the session transcript as JSON Lines (default transcript-<time>.jsonl)",
  async run(args, ctx) {
    const name = args.trim() || `transcript-${new Date().toISOString().replace(/[:.]/g, "-")}.jsonl`;
    const path = resolve(ctx.cwd, name);
    const records = ctx.store.transcript();
    try {
      await fs.writeFile(path, records.map(jsonLine).join(""), "utf8");
    } catch (e) {
      throw new CommandError(`cannot write ${sanitizeInline(path)}: ${sanitizeInline((e as Error).message)}`);
    }
    ctx.store.notice(`saved ${records.length} transcript records to ${sanitizeInline(path)}`);
  },
};
