import { CommandError, type SlashCommand } from "./types.js";

const USAGE = "/pane [on|off|programmatic|app]";

export const pane: SlashCommand = {
  name: "pane",
  usage: USAGE,
  args: [["on", "off", "programmatic", "app"]],
  description: "show or hide the side pane, or focus one of its panes for PgUp/PgDn (Tab, Shift+Tab)",
  run(args, ctx) {
    const a = args.trim();
    if (a === "programmatic" || a === "app") {
      ctx.store.update({ paneOpen: true, paneFocus: a });
      return;
    }
    if (a && a !== "on" && a !== "off") throw new CommandError(`usage: ${USAGE}`);
    const open = a ? a === "on" : !ctx.store.getState().paneOpen;
    ctx.store.update({ paneOpen: open });
  },
};
