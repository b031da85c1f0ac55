import { sanitizeInline, sanitizeName } from "../sanitize.js";
import type { SlashCommand } from "./types.js";

export const servers: SlashCommand = {
  name: "servers",
  usage: "/servers",
  description: "list servers, protocol versions and connection state",
  run(_args, ctx) {
    const list = ctx.host.servers();
    if (list.length === 0) {
      ctx.store.notice("no servers configured");
      return;
    }
    ctx.store.notice(
      list
        .map((s) => `${sanitizeName(s.name)}  ${s.protocolVersion ? sanitizeName(s.protocolVersion) : "?"}  ${s.state}${s.error ? ` — ${sanitizeInline(s.error)}` : ""}`)
        .join("\n"),
    );
  },
};
