// /logs [SERVER]: the log messages servers sent (notifications/message), oldest first, from the
// host's bounded per-server ring. Shown to the user only; the model never sees them.
import { sanitizeName } from "../../protocol/sanitize.js";
import { truncateToWidth } from "../format.js";
import { CommandError, type SlashCommand } from "./types.js";

/** The newest messages shown (the ring keeps more per server). */
const SHOWN = 50;

export const logs: SlashCommand = {
  name: "logs",
  usage: "/logs [SERVER]",
  args: ["server"],
  description:
    "the log messages servers sent (all servers, or one), newest last; warning and above also come as a notice",
  run(args, ctx) {
    const server = args.trim() || undefined;
    if (server !== undefined && !ctx.host.servers().some((s) => s.name === server))
      throw new CommandError(`/logs: no server named ${sanitizeName(server)}`);
    const all = ctx.host.logs?.(server) ?? [];
    if (all.length === 0) {
      ctx.store.notice(server ? `no log messages from ${sanitizeName(server)}` : "no log messages from any server");
      return;
    }
    const shown = all.slice(-SHOWN);
    const head = all.length > shown.length ? [`(last ${shown.length} of ${all.length} kept)`] : [];
    const w = ctx.width();
    // Entries were sanitized when they came (server-logs.ts); the names are cut again for the column.
    const lines = shown.map((e) =>
      truncateToWidth(
        `${e.at.slice(11, 19)} ${sanitizeName(e.server)} ${e.level}${e.logger ? ` [${e.logger}]` : ""}: ${e.text}`,
        w,
      ),
    );
    ctx.store.notice([...head, ...lines].join("\n"));
  },
};
