import type { SlashCommand } from "./types.js";
import { KEY_HINTS } from "../components/StatusBar.js";

export const help: SlashCommand = {
  name: "help",
  usage: "/help",
  description: "list the commands and keys",
  run(_args, ctx) {
    const w = Math.max(...ctx.commands.map((c) => c.usage.length));
    const lines = ctx.commands.map((c) => `${c.usage.padEnd(w)}  ${c.description}`);
    ctx.store.notice([...lines, "", `keys: ${KEY_HINTS}`].join("\n"));
  },
};
