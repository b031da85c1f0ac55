// CLI entry: dispatches to one module per subcommand, loaded lazily so each pays only for itself.
import { turnOnCompileCache } from "./compile-cache.js";
import { exitOnSignals } from "../host/connection/process-group.js";
import { exitQuietlyWhenOutputCloses } from "./closed-stdout.js";
import { isHelpFlag, isPromptFlag, isVersionFlag, ownWords } from "./dispatch.js";
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
  view: () => import("./commands/view.js"),
  check: () => import("./commands/check.js"),
  "check-client": () => import("./commands/check-client.js"),
  "conformance-client": () => import("./commands/conformance-client.js"),
  "scenario-server": () => import("./commands/scenario-server.js"),
  run: () => import("./commands/run.js"),
  servers: () => import("./commands/servers.js"),
  sessions: () => import("./commands/sessions.js"),
  login: () => import("./commands/login.js"),
  logout: () => import("./commands/login.js").then((m) => ({ run: m.runLogout })),
  tui: () => import("./commands/tui.js"),
};

/** Every subcommand's name (the help test walks them all). */
export const COMMAND_NAMES: readonly string[] = Object.keys(SUBCOMMANDS).filter((c) => c !== "tui");

/**
 * The commands that start servers and have no UI: a signal stops the servers' process groups, then
 * exits (the app and -p install it themselves; demo-server starts none).
 */
const STOPS_SERVERS_ON_SIGNAL = new Set([
  "call",
  "compare",
  "tools",
  "prompts",
  "prompt",
  "resources",
  "read",
  "check",
  "run",
  "login",
]);

export const USAGE = `mcp-prism — a terminal chat host for MCP servers (SEP-3279 prototype)

Usage:
  mcp-prism                               the chat app
  mcp-prism --continue | --resume [ID]    go on with the last session here, or a saved one
  mcp-prism sessions [--json]             the saved sessions (id, time, directory, first prompt)
  mcp-prism -p PROMPT [--json]            one turn without the app
  mcp-prism call TOOL [--args JSON] [--select a/f]... [--rows N] [--json]
  mcp-prism compare TOOL [--args JSON] [--yes] [--json]
  mcp-prism tools [--json]
  mcp-prism prompts [--json]
  mcp-prism prompt NAME [--args JSON] [--json]
  mcp-prism resources [--json]
  mcp-prism read URI [--out FILE] [--json]
  mcp-prism run FILE|- [--json] [--yes]     a script against the servers' tools (code mode)
  mcp-prism view TOOL [--args JSON] [--open] [--view-projection result|output]
  mcp-prism check (-- COMMAND [ARGS...] | --url URL) [--call TOOL --args JSON] [--allow-untested] [--json]
  mcp-prism check-client [--scenario NAME] [--transport stdio|http] [--json] -- COMMAND [ARGS...]
  mcp-prism login SERVER                  sign in to an HTTP server (OAuth, in the browser)
  mcp-prism logout SERVER                 forget its tokens
  mcp-prism demo-server [--http PORT]
  mcp-prism servers list|add NAME (-- COMMAND [ARGS...] | --url URL)|remove NAME
  mcp-prism help [COMMAND]                this text, or one command's (also COMMAND --help)
  mcp-prism --version

Common options:
  --config FILE  --server NAME  --mode chat|structured|code|app|minimal
  --model offline|anthropic[:ID]  --protocol VERSION  --yes
`;

/** Runs a command; an unexpected error is one sanitized stderr line (its text may come from a server). */
export async function main(argv: string[]): Promise<number> {
  turnOnCompileCache();
  try {
    return await dispatch(argv);
  } catch (e) {
    err(`mcp-prism: ${(e as Error)?.stack ?? String(e)}\n`);
    return 1;
  }
}

/** Boolean options: a flag after one of these is a flag of its own, not its value. */
const BOOLEAN_FLAGS = new Set([
  "--json",
  "--yes",
  "-y",
  "--allow-writes",
  "--allow-untested",
  "--conformance-fixtures",
]);

/** Whether `is` matches a word of argv that is not an option's value (nor past `--`). */
function hasFlag(argv: readonly string[], is: (a: string) => boolean): boolean {
  const words = ownWords(argv);
  return words.some((a, i) => is(a) && (i === 0 || !words[i - 1].startsWith("-") || BOOLEAN_FLAGS.has(words[i - 1])));
}

/** The common options that take a value: the word after one is its value, never a subcommand. */
const VALUE_OPTIONS = new Set([
  "--config",
  "--root",
  "--server",
  "--mode",
  "--model",
  "--protocol",
  "--base-url",
  "--api-key-env",
  "--answer",
  "--resume",
  "-p",
  "--prompt",
]);

/**
 * Common options may stand before the subcommand (`mcp-prism --config F tools`): the subcommand,
 * found as the first word that is neither an option nor an option's value, moves to the front.
 */
export function subcommandFirst(argv: readonly string[]): string[] {
  const words = ownWords(argv);
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (w.startsWith("-")) {
      if (VALUE_OPTIONS.has(w)) i++;
      continue;
    }
    if (i === 0 || !(w in SUBCOMMANDS || w === "help") || w === "tui") return [...argv];
    return [w, ...argv.slice(0, i), ...argv.slice(i + 1)];
  }
  return [...argv];
}

async function dispatch(argvAsTyped: string[]): Promise<number> {
  const argv = subcommandFirst(argvAsTyped);
  const [first, ...rest] = argv;
  if (first === "help") return help(rest[0]);
  if (first !== undefined && !first.startsWith("-")) {
    const load = SUBCOMMANDS[first];
    if (!load) {
      const { didYouMean } = await import("../protocol/suggest.js");
      err(
        `mcp-prism: unknown command ${JSON.stringify(first)}${didYouMean(first, [...Object.keys(SUBCOMMANDS), "help"])}; see mcp-prism --help\n`,
      );
      return 2;
    }
    if (hasFlag(rest, isVersionFlag)) return version();
    if (!OWN_HELP.has(first) && hasFlag(rest, isHelpFlag)) return help(first);
    if (STOPS_SERVERS_ON_SIGNAL.has(first)) {
      exitOnSignals();
      exitQuietlyWhenOutputCloses();
    }
    return (await load()).run(rest);
  }
  if (hasFlag(argv, isVersionFlag)) return version();
  if (hasFlag(argv, isHelpFlag)) {
    out(argv.some(isPromptFlag) ? (await import("./help.js")).commandHelp("-p") : USAGE);
    return 0;
  }
  // -p/--prompt anywhere (before any subcommand): one turn without the app.
  if (argv.some(isPromptFlag)) {
    exitQuietlyWhenOutputCloses();
    return (await import("./commands/oneshot.js")).run(argv);
  }
  return (await SUBCOMMANDS.tui()).run(argv);
}

/** Commands that print their own, longer usage for --help (`help COMMAND` asks them for it). */
const OWN_HELP = new Set(["demo-server", "check", "check-client", "scenario-server", "conformance-client"]);

/** help.ts (the usage texts) loads only when asked for: every other start skips it. */
async function version(): Promise<number> {
  out((await import("./help.js")).versionLine());
  return 0;
}

/** `help` alone: the overview; `help COMMAND`: that command's usage; an unknown one: exit 2. */
async function help(command: string | undefined): Promise<number> {
  if (command === undefined) {
    out(USAGE);
    return 0;
  }
  const { COMMAND_HELP, commandHelp } = await import("./help.js");
  const { didYouMean } = await import("../protocol/suggest.js");
  if (OWN_HELP.has(command)) return (await SUBCOMMANDS[command]()).run(["--help"]);
  if (!(command in COMMAND_HELP)) {
    err(
      `mcp-prism help: unknown command ${JSON.stringify(command)}${didYouMean(command, Object.keys(COMMAND_HELP))}\n`,
    );
    return 2;
  }
  out(commandHelp(command));
  return 0;
}
