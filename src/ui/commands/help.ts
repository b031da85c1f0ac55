import type { SlashCommand } from "./types.js";
import { KEY_HINTS } from "../components/StatusBar.js";

/** The keys of a server's questions (components/InputDialog.tsx), which show them too. */
const INPUT_KEYS = "a server's form: ↑/↓ field · type · Space toggle · ←/→ choose · Enter accept · ^D decline · Esc cancel; its URL: o open · y accept · n decline; its sampling request: y approve · n decline";

export const help: SlashCommand = {
  name: "help",
  usage: "/help",
  description: "list the commands and keys",
  run(_args, ctx) {
    const w = Math.max(...ctx.commands.map((c) => c.usage.length));
    const lines = ctx.commands.map((c) => `${c.usage.padEnd(w)}  ${c.description}`);
    ctx.store.notice([...lines, "", `keys: ${KEY_HINTS}`, INPUT_KEYS].join("\n"));
  },
};
