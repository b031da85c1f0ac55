import type { SlashCommand } from "./types.js";

export const clear: SlashCommand = {
  name: "clear",
  usage: "/clear",
  description: "clear the conversation (and the model's memory of it)",
  run(_args, ctx) {
    ctx.resetConversation?.();
    ctx.store.clear();
  },
};
