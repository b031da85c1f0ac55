import { sanitizeInline } from "../../protocol/sanitize.js";
import { cacheSummary, usageSummary, type TokenUsage } from "../../model/usage.js";
import type { SlashCommand } from "./types.js";

/** Turns listed (the newest); the session line sums them all. */
const LISTED = 20;

function line(u: TokenUsage): string {
  const cache = cacheSummary(u);
  return `${usageSummary(u)}${cache ? ` (${cache})` : ""}`;
}

export const usage: SlashCommand = {
  name: "usage",
  usage: "/usage",
  description: "the input and output tokens of each model turn and of the session (≈: the offline model's estimate)",
  run(_args, ctx) {
    const snap = ctx.usage?.();
    if (!snap || !snap.turns.length) {
      ctx.store.notice("no model turn yet: tokens are counted from the first prompt");
      return;
    }
    const shown = snap.turns.slice(-LISTED);
    const nw = String(shown[shown.length - 1].n).length;
    const rows = shown.map(
      (t) =>
        `turn ${String(t.n).padStart(nw)}  ${line(t.usage)} · ${t.requests} request${t.requests === 1 ? "" : "s"} · ${sanitizeInline(t.prompt)}`,
    );
    const more =
      snap.turns[0].n > 1 || snap.turns.length > shown.length
        ? [`(the ${shown.length} newest turns; the session counts all ${shown[shown.length - 1].n})`]
        : [];
    const s = snap.session;
    ctx.store.notice(
      [
        ...rows,
        ...more,
        `session  ${line(s)}`,
        ...(s.estimated
          ? ["≈ the offline model's estimate (about 4 characters a token); a real API reports exact counts"]
          : []),
      ].join("\n"),
    );
  },
};
