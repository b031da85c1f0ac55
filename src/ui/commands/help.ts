import type { SlashCommand } from "./types.js";
import { KEY_HINTS } from "../components/StatusBar.js";
import { promptHelpLines } from "./prompt-command.js";

/** The keys of a server's questions (components/InputDialog.tsx), which show them too. */
const INPUT_KEYS =
  "a server's form: ↑/↓ field · type · Space toggle · ←/→ choose · Enter accept · ^D decline · Esc cancel; its URL: o open · y accept · n decline; its sampling request: y approve · n decline";

/** The prompt's own keys (components/PromptInput.tsx) and the pane's (App.tsx). */
const EDIT_KEYS =
  "the prompt: ^J or \\ Enter new line · Esc clears it (no turn running) · ↑/↓ history; the pane: ^T show/hide · ⇧Tab focus · PgUp/PgDn page · Home/End ends (empty prompt); ^O expands the last card (/show N any), and an approval's arguments";

export const help: SlashCommand = {
  name: "help",
  usage: "/help",
  description: "list the commands, the servers' prompt commands and the keys",
  async run(_args, ctx) {
    // The description column: at most 40% of the width; a longer usage has its own row above its description.
    const w = Math.min(
      Math.max(...ctx.commands.map((c) => c.usage.length)),
      Math.max(12, Math.floor(ctx.width() * 0.4)),
    );
    const lines = ctx.commands.flatMap((c) =>
      c.usage.length <= w
        ? [`${c.usage.padEnd(w)}  ${c.description}`]
        : [c.usage, `${" ".repeat(w + 2)}${c.description}`],
    );
    // A server still connecting is not waited for long: its prompts show in the next /help.
    const prompts = promptHelpLines((await ctx.host.prompts?.all(1_000))?.prompts ?? []);
    if (prompts.length > 0) {
      const pw = Math.max(...prompts.map(([u]) => u.length));
      lines.push(
        "",
        "prompts (their messages become your turn):",
        ...prompts.map(([u, d]) => `${u.padEnd(pw)}  ${d}`.trimEnd()),
      );
    }
    ctx.store.notice([...lines, "", `keys: ${KEY_HINTS}`, EDIT_KEYS, INPUT_KEYS].join("\n"));
  },
};
