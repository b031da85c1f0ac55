// /resume: the saved sessions as a numbered list; /resume N or /resume ID goes on with one here.
import { sanitizeInline } from "../../protocol/sanitize.js";
import { findSession, summaryLine } from "../sessions.js";
import { CommandError, type SlashCommand } from "./types.js";

/** Sessions listed by /resume (the numbers /resume N takes). */
const LISTED = 20;

export const resume: SlashCommand = {
  name: "resume",
  usage: "/resume [N|ID]",
  description: "list the saved sessions, or go on with one (its conversation, mode and model context)",
  // Unframed (commands/index.ts): resuming draws its session as finished turns, not inside this line's block.
  async run(args, ctx) {
    const echo = `/resume${args.trim() ? ` ${args.trim()}` : ""}`;
    const say = (text: string) =>
      ctx.store.pushFinished([
        { kind: "user", text: echo },
        { kind: "notice", level: "info", text },
      ]);
    const hook = ctx.sessions;
    if (!hook) return say("sessions are not saved in this app");
    const all = hook.list();
    const want = args.trim();
    if (!want) {
      if (!all.length) return say("no saved sessions yet (a session is saved once it has a prompt)");
      const lines = all
        .slice(0, LISTED)
        .map(
          (s, i) =>
            `${String(i + 1).padStart(2)}. ${summaryLine(s, ctx.width() - 4)}${s.id === hook.current() ? " (this session)" : ""}`,
        );
      const more = all.length > LISTED ? `\n(${all.length - LISTED} older: mcp-prism sessions lists them all)` : "";
      say(`${lines.join("\n")}${more}\n/resume N (or an id) goes on with one`);
      return;
    }
    const n = /^\d+$/.test(want) ? Number(want) : undefined;
    const picked = n !== undefined && n >= 1 && n <= Math.min(LISTED, all.length) ? all[n - 1] : findSession(all, want);
    if (typeof picked === "string") {
      ctx.store.pushFinished([{ kind: "user", text: echo }]);
      throw new CommandError(`/resume: ${sanitizeInline(picked)}`);
    }
    if (picked.id === hook.current()) return say("that is this session");
    ctx.store.pushFinished([{ kind: "user", text: echo }]);
    await hook.resume(picked);
  },
};
