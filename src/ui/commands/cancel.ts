import type { SlashCommand } from "./types.js";

// Typed while a turn runs, /cancel is taken at once (session.submit), as Ctrl+C is: the running
// calls are aborted, a running task gets tasks/cancel. Run on its own, nothing is running.
export const cancel: SlashCommand = {
  name: "cancel",
  usage: "/cancel",
  description: "cancel the running turn and its calls (a running task gets tasks/cancel), as Ctrl+C does",
  run(_args, ctx) {
    ctx.store.notice("nothing is running");
  },
};
