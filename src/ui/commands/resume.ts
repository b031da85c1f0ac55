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
  async run(args, ctx) {
    const hook = ctx.sessions;
    if (!hook) throw new CommandError("/resume: sessions are not saved in this app (no transcript)");
    const all = hook.list();
    const want = args.trim();
    if (!want) {
      if (!all.length) return ctx.store.notice("no saved sessions yet (a session is saved once it has a prompt)");
      const lines = all.slice(0, LISTED).map((s, i) => `${String(i + 1).padStart(2)}. ${summaryLine(s, ctx.width() - 4)}${s.id === hook.current() ? " (this session)" : ""}`);
      const more = all.length > LISTED ? `\n(${all.length - LISTED} older: mcp-prism sessions lists them all)` : "";
      ctx.store.notice(`${lines.join("\n")}${more}\n/resume N (or an id) goes on with one`);
      return;
    }
    const n = /^\d+$/.test(want) ? Number(want) : undefined;
    const picked = n !== undefined && n >= 1 && n <= Math.min(LISTED, all.length) ? all[n - 1] : findSession(all, want);
    if (typeof picked === "string") throw new CommandError(`/resume: ${sanitizeInline(picked)}`);
    if (picked.id === hook.current()) return ctx.store.notice("that is this session");
    await hook.resume(picked);
  },
};
