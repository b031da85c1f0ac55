import type { SlashCommand } from "./types.js";

export const quit: SlashCommand = {
  name: "quit",
  usage: "/quit",
  description: "leave mcp-prism",
  run(_args, ctx) {
    ctx.quit();
  },
};
