// mcp-prism [--config FILE] [--server NAME] [--mode M] [--model offline|anthropic[:ID]] [--protocol V] [--yes]
// The chat app (Ink). `-p PROMPT` (no app) is handed to the one-shot command.
// Start-up, in this order: the UI modules (Ink, React, the App) are imported and the first frame
// is drawn with every server `connecting…`; then the configured stdio servers' processes are
// spawned and boot on another core while the host code (MCP SDK, zod, Ajv) loads, and the host's
// transports adopt them. Spawned any earlier, a server's boot (~400 ms of CPU) competes with the
// UI for a 2-core machine's CPU and delays the first frame by more than it gains the connection.
// This module and its static imports stay small (no zod, no SDK) since they sit before the first
// frame. Only a bad config file (or an unknown --server) still exits before the UI, with its one
// line. A directory config the user has not trusted is asked about on the terminal first, before
// the UI and before any of its servers is spawned (src/cli/config-gate.ts).
import { exitCode } from "../../protocol/rules.js";
import { ConfigError, serverConfig, type HostConfig } from "../../host/config/config.js";
import type { Host } from "../../host/host.js";
import type { InputProvider } from "../../host/input/input-provider.js";
import { spawnEarly } from "../../host/connection/spawn-server.js";
import { ModelError, type ModelAdapter } from "../../model/adapter.js";
import { modelFor } from "../model-for.js";
import { parseCli, withUsage } from "../args.js";
import { resolveConfig } from "../config-gate.js";
import { isPromptFlag } from "../dispatch.js";
import { mark } from "../timings.js";
import type { RestoredSession } from "../../ui/session-restore.js";
import { err } from "../output/terminal.js";

export async function run(argv: string[]): Promise<number> {
  if (process.env.MCP_PRISM_TIMINGS) mark("node-ready", performance.nodeTiming.bootstrapComplete); // node's own start, before any of our code
  mark("app-run");
  if (argv.some(isPromptFlag)) return (await import("./oneshot.js")).run(argv);
  return withUsage("", async () => {
    const wanted = resumeWanted(argv);
    const cli = parseCli(wanted.argv, { continue: { type: "boolean" } }, { positionals: [0, 0] });
    if (!process.stdin.isTTY || !process.stdout.isTTY) {
      err("mcp-prism: the chat app needs a terminal (use -p PROMPT for one turn without it)\n");
      return 2;
    }
    let config: HostConfig;
    try {
      config = await resolveConfig(cli.common.config);
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      err(`mcp-prism: ${e.message}\n`);
      return 1;
    }
    const server = cli.common.server;
    if (server !== undefined && !serverConfig(config, server)) {
      err(
        `mcp-prism: no server named ${JSON.stringify(server)} in ${config.source} (have: ${Object.keys(config.servers).join(", ")})\n`,
      );
      return exitCode("unknown-server");
    }
    let adapter: ModelAdapter;
    try {
      adapter = modelFor(cli.common, config);
    } catch (e) {
      if (!(e instanceof ModelError)) throw e;
      err(`mcp-prism: ${e.message}\n`);
      return 1;
    }
    let serverNames = server !== undefined ? [server] : Object.keys(config.servers);
    let resume: RestoredSession | undefined;
    if (cli.values.continue === true || wanted.id !== undefined) {
      const found = await savedSession(wanted.id);
      if (typeof found === "string") {
        err(`mcp-prism: ${found}\n`);
        return 1;
      }
      resume = found;
      // Its provider and model, unless --model names one (the config still supplies endpoints and limits).
      if (cli.common.model === undefined && found.model) {
        try {
          adapter = modelFor({ ...cli.common, model: found.model }, config);
        } catch (e) {
          // A transcript is untrusted: whatever it names, one line and the chat goes on with the default.
          err(
            `mcp-prism: the session ran with ${JSON.stringify(found.model.slice(0, 80))}, which cannot be used now (${(e as Error).message}); going on with ${adapter.id}\n`,
          );
        }
      }
      // Its servers (those the config still has), unless --server names one.
      const recorded = (found.servers ?? []).filter((n) => n in config.servers);
      if (server === undefined && recorded.length) serverNames = recorded;
    }
    mark("config-loaded");
    const ui = await import("./tui-render.js");
    mark("ui-loaded");
    const startHost = async (input: InputProvider): Promise<Host> => {
      mark("host-start");
      for (const name of serverNames) {
        const s = config.servers[name];
        if (s.kind === "stdio") spawnEarly({ command: s.command, args: s.args, env: s.env, cwd: s.cwd });
      }
      mark("servers-spawned");
      // Opened, not awaited: each server connects on its own; the UI waits (bounded) for them.
      const host = (await import("../start-host.js")).openHost(cli.common, {
        config,
        input,
        signIn: { interactive: false },
      }); // sign-in: /login
      mark("host-open");
      void host.settled(Number.POSITIVE_INFINITY).then(() => mark("host-ready"));
      return host;
    };
    await ui.runTui(startHost, adapter, cli.common, {
      config,
      serverNames,
      mode: cli.common.mode ?? resume?.mode ?? config.mode ?? "chat",
      resume,
      pickSession: wanted.pick,
      onFirstRender: () => {
        mark("first-render");
      },
    });
    return 0;
  });
}

/**
 * `--resume [ID]`: node's parseArgs has no option with an optional value, so it is taken out of
 * argv here (an ID is the next word when it is not an option).
 */
export function resumeWanted(argv: readonly string[]): { argv: string[]; id?: string; pick: boolean } {
  const rest: string[] = [];
  let id: string | undefined;
  let pick = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--") {
      rest.push(...argv.slice(i));
      break;
    }
    if (a.startsWith("--resume=")) id = a.slice("--resume=".length);
    else if (a !== "--resume") rest.push(a);
    else if (argv[i + 1] !== undefined && !argv[i + 1].startsWith("-")) id = argv[++i];
    else pick = true;
  }
  return { argv: rest, id, pick: pick && id === undefined };
}

/** The session --continue (id undefined: the last one in this directory) or --resume ID names, read back; else why not. */
async function savedSession(id: string | undefined): Promise<RestoredSession | string> {
  const { listSessions, findSession, lastSessionIn } = await import("../../ui/sessions.js");
  const { restoreSession } = await import("../../ui/session-restore.js");
  const { stateDir } = await import("../../host/config/paths.js");
  const dir = stateDir();
  const all = listSessions(dir);
  const s = id === undefined ? lastSessionIn(all, process.cwd()) : findSession(all, id);
  if (s === undefined)
    return `no saved session in ${process.cwd()} to continue (mcp-prism sessions lists them all; --resume ID picks one)`;
  if (typeof s === "string") return `--resume: ${s}`;
  try {
    return restoreSession(s.path);
  } catch (e) {
    return `cannot read the session ${s.path}: ${(e as Error).message}`;
  }
}
