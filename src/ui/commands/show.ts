// /show [N]: tool card N (the newest without N; Ctrl+O) expanded below, nothing cut (card-detail.ts).
import { ANTHROPIC_CAPABILITIES } from "../../model/context.js";
import { cardDetail } from "../card-detail.js";
import { CommandError, type SlashCommand } from "./types.js";

export const show: SlashCommand = {
  name: "show",
  usage: "/show [N]",
  args: ["card"],
  description:
    "expand tool card N (the last one without N; Ctrl+O): the whole error, arguments, variants and what the model saw",
  async run(args, ctx) {
    const a = args.trim();
    if (a && !/^\d{1,9}$/.test(a))
      throw new CommandError("usage: /show [N] (N is the card's number, #N on its second line)");
    const n = a ? Number(a) : ctx.store.lastCard;
    if (n === 0) throw new CommandError("no tool card yet");
    const call = ctx.store.card(n);
    if (!call)
      throw new CommandError(
        `no card ${n}${n < ctx.store.lastCard ? " (cleared)" : ""}: the cards are 1–${ctx.store.lastCard}`,
      );
    const entry = (await ctx.host.tools(call.outcome?.plan.mode ?? ctx.store.getState().mode, 0)).find(
      (t) => t.server === call.server && t.name === call.tool,
    );
    ctx.store.append({
      kind: "detail",
      sections: cardDetail(call, entry, ctx.modelCapabilities ?? ANTHROPIC_CAPABILITIES),
    });
  },
};
