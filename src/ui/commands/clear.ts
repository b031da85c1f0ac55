import type { SlashCommand } from "./types.js";

export const clear: SlashCommand = {
  name: "clear",
  usage: "/clear",
  description: "clear the screen and the conversation (and the model's memory of it)",
  run(_args, ctx) {
    ctx.resetConversation?.();
    // The App clears the terminal when the store's epoch moves (App.tsx); then the line is echoed.
    ctx.store.clear();
    ctx.store.pushFinished([
      { kind: "user", text: "/clear" },
      {
        kind: "notice",
        level: "info",
        text: `cleared the screen and the conversation${ctx.resetConversation ? "; the model starts afresh" : ""}`,
      },
    ]);
  },
};
