import { sanitizeInline } from "../../protocol/sanitize.js";
import { CommandError, type SlashCommand } from "./types.js";

/** Models listed at most (an endpoint may serve hundreds). */
const LISTED = 40;

export const model: SlashCommand = {
  name: "model",
  usage: "/model [MODEL | PROVIDER:MODEL]",
  description: "list the provider's models, or switch model mid-session (the conversation goes on with it)",
  async run(args, ctx) {
    const m = ctx.model;
    if (!m) throw new CommandError("this session cannot switch models");
    const want = args.trim();
    if (!want) {
      let models: string[];
      try {
        models = await m.list(ctx.signal);
      } catch (e) {
        ctx.store.notice(
          `model is ${m.current()}; its models cannot be listed: ${sanitizeInline((e as Error).message).slice(0, 200)}`,
        );
        return;
      }
      const shown = models.slice(0, LISTED).map((id) => `  ${sanitizeInline(id)}`);
      const more = models.length > LISTED ? [`  … and ${models.length - LISTED} more`] : [];
      ctx.store.notice(
        [
          `model is ${m.current()}${models.length ? "; the endpoint serves:" : " (no list for this provider)"}`,
          ...shown,
          ...more,
          "/model NAME switches (PROVIDER:NAME for another provider)",
        ].join("\n"),
      );
      return;
    }
    if (want.length > 300) throw new CommandError("/model: the name is over 300 characters");
    try {
      const id = m.use(want);
      ctx.store.notice(`model set to ${id}: the conversation goes on with it`);
    } catch (e) {
      throw new CommandError(`/model: ${sanitizeInline((e as Error).message)}`);
    }
  },
};
