// /mcp: the servers of this session, and reconnecting, disabling or enabling one of them (the
// config file is not touched; `mcp-prism servers` edits it).
import { sanitizeInline, sanitizeName } from "../../protocol/sanitize.js";
import { shownState } from "../server-view.js";
import { CommandError, type CommandContext, type SlashCommand } from "./types.js";

const USAGE = "/mcp [list | reconnect NAME | disable NAME | enable NAME]";
const ACTIONS = ["reconnect", "disable", "enable"] as const;
type Action = (typeof ACTIONS)[number];
const DONE: Record<Action, string> = {
  reconnect: "reconnected",
  enable: "enabled and connected",
  disable: "disabled for this session: its tools, prompts and resources are gone until /mcp enable",
};

async function list(ctx: CommandContext): Promise<void> {
  const servers = ctx.host.servers();
  if (servers.length === 0) return ctx.store.notice("no servers configured");
  const tools = await ctx.host.tools(ctx.store.getState().mode, 0);
  const lines = servers.map((s) => {
    const n = tools.filter((t) => t.server === s.name).length;
    const state = s.disabled ? "disabled" : shownState(s.state);
    const why = s.error && !s.disabled ? ` — ${sanitizeInline(s.error)}` : "";
    return `${sanitizeName(s.name)}  ${s.protocolVersion ? sanitizeName(s.protocolVersion) : "?"}  ${state}  ${n} tool${n === 1 ? "" : "s"}${why}`;
  });
  ctx.store.notice([...lines, "", `${USAGE} (for this session)`].join("\n"));
}

export const mcp: SlashCommand = {
  name: "mcp",
  usage: USAGE,
  args: [["list", ...ACTIONS], "server"],
  description: "list the servers; reconnect, disable or enable one for this session",
  async run(args, ctx) {
    const [action = "list", name, extra] = args.split(/\s+/).filter(Boolean);
    if (action === "list" && !name) return list(ctx);
    if (!(ACTIONS as readonly string[]).includes(action) || !name || extra !== undefined)
      throw new CommandError(`usage: ${USAGE}`);
    if (!ctx.host.servers().some((s) => s.name === name))
      throw new CommandError(`no server named ${JSON.stringify(sanitizeInline(name).slice(0, 60))} (see /mcp)`);
    if (!ctx.host.setServer) throw new CommandError("this host cannot reconnect or disable servers");
    const label = sanitizeName(name);
    if (action !== "disable") ctx.store.notice(`server ${label}: connecting… (Esc cancels)`);
    try {
      await ctx.host.setServer(name, action as Action, ctx.store.getState().mode, ctx.signal);
    } catch (e) {
      const f = e as { detail?: unknown; message?: unknown };
      throw new CommandError(`server ${label}: ${sanitizeInline(String(f.detail ?? f.message ?? e))}`);
    }
    const now = ctx.host.servers().find((s) => s.name === name);
    const version = now?.protocolVersion ? ` (${sanitizeName(now.protocolVersion)})` : "";
    ctx.store.notice(`server ${label}: ${DONE[action as Action]}${action === "disable" ? "" : version}`);
  },
};

/** /reconnect NAME: /mcp reconnect NAME, the explicit (and cancellable) way back for a failed server. */
export const reconnect: SlashCommand = {
  name: "reconnect",
  usage: "/reconnect NAME",
  args: ["server"],
  description: "connect a server again (closes it first); Esc cancels",
  run(args, ctx) {
    const name = args.trim();
    if (!name || /\s/.test(name)) throw new CommandError("usage: /reconnect NAME (/servers lists them)");
    return mcp.run(`reconnect ${name}`, ctx);
  },
};
