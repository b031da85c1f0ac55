// /save [file]: the whole session transcript (the same JSON Lines records the session file gets),
// written whole or not at all, mode 0600 (save-file.ts).
import { resolve } from "node:path";
import { sanitizeInline } from "../../protocol/sanitize.js";
import { fsProblem, jsonLine } from "../transcript.js";
import { writePrivateFile } from "./save-file.js";
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
      await writePrivateFile(path, records.map(jsonLine).join(""));
    } catch (e) {
      throw new CommandError(
        `cannot write ${sanitizeInline(path)}: ${sanitizeInline(fsProblem(e))}; nothing was saved`,
      );
    }
    ctx.store.notice(`saved ${records.length} transcript records to ${sanitizeInline(path)}`);
  },
};
