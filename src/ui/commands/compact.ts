// /compact: the older turns of the model context become a summary now (compact.ts), as they do by
// themselves near the window; says what it saved. The transcript keeps everything.
import { compactionLine } from "../../model/compact.js";
import { CommandError, type SlashCommand } from "./types.js";

export const compact: SlashCommand = {
  name: "compact",
  usage: "/compact",
  description: "replace the older turns of the model's context by a summary now (the transcript keeps everything)",
  async run(args, ctx) {
    if (args.trim()) throw new CommandError("usage: /compact");
    if (!ctx.compact) throw new CommandError("/compact: this session has no model conversation");
    const window = ctx.modelCapabilities?.contextWindow;
    const c = await ctx.compact(ctx.signal);
    if (!c) return ctx.store.notice("/compact: nothing to compact yet (only the newest turns are in the context)");
    ctx.store.notice(
      window ? compactionLine(c, window) : `context compacted: ${c.replaced} items replaced by a summary`,
    );
  },
};
