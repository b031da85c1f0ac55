import { MODES, type Mode } from "../../host/types.js";
import { sanitizeInline } from "../../protocol/sanitize.js";
import { CommandError, type SlashCommand } from "./types.js";

export const mode: SlashCommand = {
  name: "mode",
  usage: "/mode <chat|structured|code|app|minimal>",
  args: ["mode"],
  description: "switch the session's mode: the tools the model sees and the requestedOutputs of every call",
  run(args, ctx) {
    const m = args.trim();
    if (!m) {
      ctx.store.notice(`mode is ${ctx.store.getState().mode} (one of ${MODES.join(", ")})`);
      return;
    }
    if (!(MODES as readonly string[]).includes(m))
      throw new CommandError(`unknown mode ${JSON.stringify(sanitizeInline(m))}: expected ${MODES.join(", ")}`);
    ctx.store.setMode(m as Mode);
    ctx.store.notice(`mode set to ${m}: the model's tools and each call's requestedOutputs follow it`);
  },
};
