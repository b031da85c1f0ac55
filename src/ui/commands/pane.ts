import { CommandError, type SlashCommand } from "./types.js";

export const pane: SlashCommand = {
  name: "pane",
  usage: "/pane [on|off]",
  description: "show or hide the side pane (Programmatic and App); Tab toggles too",
  run(args, ctx) {
    const a = args.trim();
    if (a && a !== "on" && a !== "off") throw new CommandError(`usage: /pane [on|off]`);
    const open = a ? a === "on" : !ctx.store.getState().paneOpen;
    ctx.store.update({ paneOpen: open });
  },
};
