// CLI entry: dispatches to one module per subcommand, loaded lazily so each pays only for itself.
import { exitOnSignals } from "../host/process-group.js";
import { exitQuietlyWhenOutputCloses } from "./closed-stdout.js";
import { isPromptFlag } from "./dispatch.js";
import { out, err } from "./output/terminal.js";

type Command = { run(argv: string[]): Promise<number> };

const SUBCOMMANDS: Record<string, () => Promise<Command>> = {
  "demo-server": () => import("./commands/demo-server.js"),
  call: () => import("./commands/call.js"),
  compare: () => import("./commands/compare.js"),
  tools: () => import("./commands/tools.js"),
  prompts: () => import("./commands/prompts.js"),
  prompt: () => import("./commands/prompt.js"),
  resources: () => import("./commands/resources.js"),
  read: () => import("./commands/read.js"),
  check: () => import("./commands/check.js"),
  login: () => import("./commands/login.js"),
  logout: () => import("./commands/login.js").then((m) => ({ run: m.runLogout })),
  tui: () => import("./tui-loader.js").then((m) => m.loadTui()),
};

/**
 * The commands that start servers and have no UI: a signal stops the servers' process groups, then
 * exits (the app and -p install it themselves; demo-server starts none).
 */
const STOPS_SERVERS_ON_SIGNAL = new Set(["call", "compare", "tools", "prompts", "prompt", "resources", "read", "check", "login"]);

export const USAGE = `mcp-prism — a terminal chat host for MCP servers (SEP-3279 prototype)

Usage:
  mcp-prism                               the chat app
  mcp-prism -p PROMPT [--json]            one turn without the app
  mcp-prism call TOOL [--args JSON] [--select a/f]... [--json]
  mcp-prism compare TOOL [--args JSON] [--yes] [--json]
  mcp-prism tools [--json]
  mcp-prism prompts [--json]
  mcp-prism prompt NAME [--args JSON] [--json]
  mcp-prism resources [--json]
  mcp-prism read URI [--out FILE] [--json]
  mcp-prism check (-- COMMAND [ARGS...] | --url URL) [--allow-writes] [--json]
  mcp-prism login SERVER                  sign in to an HTTP server (OAuth, in the browser)
  mcp-prism logout SERVER                 forget its tokens
  mcp-prism demo-server [--http PORT]

Common options:
  --config FILE  --server NAME  --mode chat|structured|code|app|minimal
  --model offline|anthropic[:ID]  --protocol VERSION  --yes
`;

/** Runs a command; an unexpected error is one sanitized stderr line (its text may come from a server). */
export async function main(argv: string[]): Promise<number> {
  try {
    return await dispatch(argv);
  } catch (e) {
    err(`mcp-prism: ${(e as Error)?.stack ?? String(e)}\n`);
    return 1;
  }
}

async function dispatch(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === "--help" || first === "-h" || first === "help") {
    out(USAGE);
    return 0;
  }
  if (first !== undefined && !first.startsWith("-")) {
    const load = SUBCOMMANDS[first];
    if (!load) {
      err(`mcp-prism: unknown command ${JSON.stringify(first)} (see mcp-prism --help)\n`);
      return 2;
    }
    if (STOPS_SERVERS_ON_SIGNAL.has(first)) {
      exitOnSignals();
      exitQuietlyWhenOutputCloses();
    }
    return (await load()).run(rest);
  }
  // -p/--prompt anywhere (before any subcommand): one turn without the app.
  if (argv.some(isPromptFlag)) {
    exitQuietlyWhenOutputCloses();
    return (await import("./commands/oneshot.js")).run(argv);
  }
  return (await SUBCOMMANDS.tui()).run(argv);
}
