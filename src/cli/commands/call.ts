// mcp-prism call TOOL [--server NAME] [--args JSON] [--select a/f]... [--mode M] [--protocol V]
//   [--config FILE] [--profile P] [--json]
// Exit 0 on a routed result (even isError), 1 on protocol/validation/connection errors, 2 on usage errors.
import { ConfigError, loadConfig, type HostConfig } from "../../host/config.js";
import { ConnectionError } from "../../host/connection.js";
import { Host, type HostOptions } from "../../host/host.js";
import type { CallOutcome } from "../../host/types.js";
import { parseCli, parseProfile, parseSelectors, parseToolArgs, withUsage, type CommonOptions } from "../args.js";
import { callDocument, errorDocument, renderCall } from "../output/call.js";
import { terminalSafeJson } from "../output/json.js";

export class StartError extends Error {
  constructor(
    readonly rule: string,
    message: string,
  ) {
    super(message);
  }
}

/** Loads the config and connects; throws StartError (one line) when nothing usable is left. */
export async function startHost(common: CommonOptions, extra: Partial<HostOptions> = {}): Promise<Host> {
  let config: HostConfig;
  try {
    config = loadConfig(common.config);
  } catch (e) {
    if (e instanceof ConfigError) throw new StartError("config", e.message);
    throw e;
  }
  if (common.server !== undefined && !(common.server in config.servers)) {
    throw new StartError("unknown-server", `no server named ${JSON.stringify(common.server)} in ${config.source} (have: ${Object.keys(config.servers).join(", ")})`);
  }
  let host: Host;
  try {
    host = await Host.start({
      config,
      mode: common.mode,
      protocol: common.protocol,
      servers: common.server ? [common.server] : undefined,
      ...extra,
    });
  } catch (e) {
    if (e instanceof ConnectionError) throw new StartError(e.rule, e.message);
    throw e;
  }
  const servers = host.servers();
  if (servers.every((s) => s.state !== "connected")) {
    await host.close();
    throw new StartError("connection-failed", servers.map((s) => s.error ?? `server ${s.name}: not connected`).join("; "));
  }
  return host;
}

/** The qualified name of TOOL, preferring the --server one. */
export async function resolveTool(host: Host, tool: string, server: string | undefined, mode = host.mode): Promise<string> {
  const tools = await host.tools(mode);
  const hit = tools.find((t) => t.qualifiedName === tool) ?? tools.find((t) => t.name === tool && (server === undefined || t.server === server));
  return hit?.qualifiedName ?? tool;
}

export async function run(argv: string[]): Promise<number> {
  return withUsage("call", async () => {
    const cli = parseCli(argv, { args: { type: "string" }, select: { type: "string", multiple: true }, profile: { type: "string" } }, { positionals: [1, 1] });
    const tool = cli.positionals[0];
    const args = parseToolArgs(cli.values.args as string | undefined);
    const select = parseSelectors(cli.values.select);
    const profile = parseProfile(cli.values.profile);
    const write = (outcome: CallOutcome) =>
      process.stdout.write(cli.common.json ? terminalSafeJson(callDocument(outcome)) + "\n" : renderCall(outcome, process.stdout.columns ?? 100));

    let host: Host;
    try {
      host = await startHost(cli.common, { profile });
    } catch (e) {
      if (!(e instanceof StartError)) throw e;
      if (cli.common.json) process.stdout.write(JSON.stringify(errorDocument(tool, e.rule, e.message, cli.common.server)) + "\n");
      else process.stderr.write(`mcp-prism call: ${e.message}\n`);
      return 1;
    }
    try {
      const name = await resolveTool(host, tool, cli.common.server);
      const outcome = await host.call(name, args, { mode: cli.common.mode, select, legacyProfile: profile });
      write(outcome);
      return outcome.ok ? 0 : 1;
    } finally {
      await host.close();
    }
  });
}
