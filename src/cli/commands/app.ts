// mcp-prism [--config FILE] [--server NAME] [--mode M] [--model offline|anthropic[:ID]] [--protocol V] [--yes]
// The chat app (Ink). `-p PROMPT` (no app) is handed to the one-shot command.
// Start-up: the host (server spawn + discovery) is started BEFORE the UI modules (Ink, React,
// the App) are imported, so the servers boot while this process loads the UI.
import { appendFileSync } from "node:fs";
import { loadConfig } from "../../host/config.js";
import type { Host } from "../../host/host.js";
import { ModelError, type ModelAdapter } from "../../model/adapter.js";
import { createModel } from "../../model/select.js";
import { parseCli, UsageError, withUsage } from "../args.js";
import { startHost, StartError } from "./call.js";

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
    let adapter: ModelAdapter;
    try {
      let configModel: unknown;
      try {
        configModel = loadConfig(cli.common.config).model;
      } catch {
        configModel = undefined; // startHost reports config errors below
      }
      adapter = createModel({ flag: cli.common.model, config: configModel });
    } catch (e) {
      if (e instanceof ModelError) {
        if (e.message.startsWith("--model")) throw new UsageError(e.message);
        process.stderr.write(`mcp-prism: ${e.message}\n`);
        return 1;
      }
      throw e;
    }
    let host: Host;
    mark("host-start");
    const starting = startHost(cli.common).then((h) => {
      mark("host-ready");
      return h;
    });
    starting.catch(() => {}); // awaited below; never an unhandled rejection while the UI loads
    const ui = import("./app-ui.js");
    ui.catch(() => {}); // a failed UI import is reported where it is awaited
    try {
      host = await starting;
    } catch (e) {
      if (e instanceof StartError) {
        process.stderr.write(`mcp-prism: ${e.message}\n`);
        return 1;
      }
      throw e;
    }
    try {
      await (await ui).runApp(host, adapter, cli.common, () => mark("first-render"));
    } finally {
      await host.close();
    }
    return 0;
  });
}

