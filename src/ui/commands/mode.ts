import { MODES, type Mode } from "../../host/types.js";
import { sanitizeInline } from "../sanitize.js";
import { CommandError, type SlashCommand } from "./types.js";

export const mode: SlashCommand = {
  name: "mode",
  usage: "/mode <chat|structured|code|app|minimal>",
  description: "switch the output mode (what requestedOutputs the host sends)",
  run(args, ctx) {
    const m = args.trim();
    if (!m) {
      ctx.store.notice(`mode is ${ctx.store.getState().mode} (one of ${MODES.join(", ")})`);
      return;
    }
    if (!(MODES as readonly string[]).includes(m)) throw new CommandError(`unknown mode ${JSON.stringify(sanitizeInline(m))}: expected ${MODES.join(", ")}`);
    ctx.store.update({ mode: m as Mode });
    ctx.store.notice(`mode set to ${m}`);
  },
};
