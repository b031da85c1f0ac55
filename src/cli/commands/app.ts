// mcp-prism [--config FILE] [--server NAME] [--mode M] [--model offline|anthropic[:ID]] [--protocol V] [--yes]
// The chat app (Ink). `-p PROMPT` (no app) is handed to the one-shot command.
// Start-up: the host (server spawn + discovery) is started BEFORE the UI modules (Ink, React,
// the App) are imported, and the first frame does not wait for it: the app draws with every
// configured server `connecting…` and the host's start settles behind it. Only a bad config file
// (or an unknown --server) still exits before the UI, with its one line.
import { appendFileSync } from "node:fs";
import { ConfigError, loadConfig, type HostConfig } from "../../host/config.js";
import { ModelError, type ModelAdapter } from "../../model/adapter.js";
import { createModel } from "../../model/select.js";
import { parseCli, UsageError, withUsage } from "../args.js";
import { startHost } from "./call.js";

/** Opt-in start-up timings for bench/startup.ts: MCP_PRISM_TIMINGS=FILE appends one JSON line per milestone. */
function mark(milestone: string): void {
  const file = process.env.MCP_PRISM_TIMINGS;
  if (!file) return;
  const sinceStartMs = performance.now(); // performance's time origin is the process start
  try {
    appendFileSync(file, `${JSON.stringify({ milestone, sinceStartMs, epochMs: performance.timeOrigin + sinceStartMs })}\n`);
  } catch {
    // timings are best-effort; never disturb the app
  }
}

export async function run(argv: string[]): Promise<number> {
  mark("app-run");
  if (argv.some((a) => a === "-p" || a === "--prompt" || a.startsWith("--prompt="))) return (await import("./oneshot.js")).run(argv);
  return withUsage("app", async () => {
    const cli = parseCli(argv, {}, { positionals: [0, 0] });
    if (!process.stdin.isTTY || !process.stdout.isTTY) {
      process.stderr.write("mcp-prism: the chat app needs a terminal (use -p PROMPT for one turn without it)\n");
      return 2;
    }
    let config: HostConfig;
    try {
      config = loadConfig(cli.common.config);
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      process.stderr.write(`mcp-prism: ${e.message}\n`);
      return 1;
    }
    const server = cli.common.server;
    if (server !== undefined && !(server in config.servers)) {
      process.stderr.write(`mcp-prism: no server named ${JSON.stringify(server)} in ${config.source} (have: ${Object.keys(config.servers).join(", ")})\n`);
      return 1;
    }
    let adapter: ModelAdapter;
    try {
      adapter = createModel({ flag: cli.common.model, config: config.model });
    } catch (e) {
      if (e instanceof ModelError) {
        if (e.message.startsWith("--model")) throw new UsageError(e.message);
        process.stderr.write(`mcp-prism: ${e.message}\n`);
        return 1;
      }
      throw e;
    }
    mark("host-start");
    const starting = startHost(cli.common).then((h) => {
      mark("host-ready");
      return h;
    });
    starting.catch(() => {}); // the UI shows a failed start as one line; never an unhandled rejection
    let ui: typeof import("./app-ui.js");
    try {
      ui = await import("./app-ui.js");
    } catch (e) {
      await (await starting.catch(() => undefined))?.close();
      throw e;
    }
    await ui.runApp(starting, adapter, cli.common, {
      serverNames: server !== undefined ? [server] : Object.keys(config.servers),
      mode: cli.common.mode ?? config.mode ?? "chat",
      onFirstRender: () => mark("first-render"),
    });
    return 0;
  });
}

