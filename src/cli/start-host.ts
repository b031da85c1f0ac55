// What every one-shot subcommand (call, tools, compare, -p) and the chat app start with: the
// config (asked about or refused), the host opened on it, and the one-line StartError when either fails.
import { exitCode, type Rule } from "../protocol/rules.js";
import { ConfigError, loadConfig, serverConfig, type HostConfig } from "../host/config/config.js";
import { ConnectionError } from "../host/connection/connection.js";
import { Host, type HostOptions } from "../host/host.js";
import type { CommonOptions } from "./args.js";
import { resolveConfig } from "./config-gate.js";
import { sanitizeInline } from "../protocol/sanitize.js";
import { err } from "./output/terminal.js";
import { readAs } from "../compare/profiles/index.js";
import { LegacyConnections } from "../compare/legacy-connection.js";

// The app loads the host's side late through this module (tui-render.ts; the bundle's split point):
// /compare's second connection and the config's legacy profile come with it.
export { LegacyConnections, readAs };

/** A start that failed: fields (rule, detail, the server when one is named; "" otherwise) and its line. */
export class StartError extends Error {
  constructor(
    readonly rule: Rule,
    readonly detail: string,
    readonly server = "",
  ) {
    super(server ? `server ${server}: ${detail}` : detail);
  }
}

/**
 * The config a one-shot command runs with: a directory config the user has not trusted is asked
 * about on a terminal, else refused (StartError "config", one line). Its notices go to stderr.
 */
export async function commandConfig(common: CommonOptions): Promise<HostConfig> {
  let config: HostConfig;
  try {
    config = await resolveConfig(common.config);
  } catch (e) {
    if (e instanceof ConfigError) throw new StartError("config", e.message);
    throw e;
  }
  for (const n of config.notices ?? []) err(`mcp-prism: ${sanitizeInline(n)}\n`);
  return config;
}

/**
 * Opens the host on `extra.config` (else the config loaded without asking: an untrusted directory
 * config is refused): every server starts connecting on its own. Throws StartError (config, --server).
 */
export function openHost(common: CommonOptions, extra: Partial<HostOptions> = {}): Host {
  let config: HostConfig;
  try {
    config = extra.config ?? loadConfig(common.config);
  } catch (e) {
    if (e instanceof ConfigError) throw new StartError("config", e.message);
    throw e;
  }
  if (common.roots) config = { ...config, roots: common.roots };
  if (common.server !== undefined && !serverConfig(config, common.server)) {
    throw new StartError(
      "unknown-server",
      `no server named ${JSON.stringify(common.server)} in ${config.source} (have: ${Object.keys(config.servers).join(", ")})`,
    );
  }
  try {
    // A one-shot command signs in when a server asks (browser, URL on stderr); the app passes its own.
    return Host.open({
      mode: common.mode,
      protocol: common.protocol,
      servers: common.server ? [common.server] : undefined,
      signIn: { interactive: true },
      ...extra,
      config,
    });
  } catch (e) {
    if (e instanceof ConnectionError) throw new StartError(e.rule, e.detail, e.server);
    throw e;
  }
}

/**
 * Opens the host and waits for its servers, at most limits.connectWaitMs for the slow ones (they
 * join when they connect); throws StartError (one line) when every server failed.
 */
export async function startHost(common: CommonOptions, extra: Partial<HostOptions> = {}): Promise<Host> {
  const host = openHost(common, { ...extra, config: extra.config ?? (await commandConfig(common)) });
  // One-shot commands: a sampling cap reached is one line on stderr (the app makes it a notice).
  host.on("sampling-limit", ({ line }: { line: string }) => err(`mcp-prism: ${sanitizeInline(line)}\n`));
  // A sign-in in the browser may take a person longer than connectWaitMs: it is waited for.
  const all = (await host.settled()) || (host.signIns.signingIn && (await host.settled(Number.POSITIVE_INFINITY)));
  const servers = host.servers();
  if (all && servers.every((s) => s.state !== "connected")) {
    await host.close();
    const [one] = servers;
    if (servers.length === 1 && one.failure) throw new StartError(one.failure.rule, one.failure.detail, one.name);
    throw new StartError(
      "connection-failed",
      servers.map((s) => s.error ?? `server ${s.name}: not connected`).join("; "),
    );
  }
  return host;
}

/** One line per server still connecting after the start's wait (a prompt runs without its tools). */
export function stillConnecting(host: Host): string[] {
  const s = Math.round(host.connectWaitMs / 100) / 10;
  return host
    .servers()
    .filter((x) => x.state === "connecting")
    .map((x) => `server ${x.name}: still connecting after ${s} s; its tools are left out until it connects`);
}

/** A failed start as `--json` carries it: the fields and the line. */
export const startErrorFields = (e: StartError) => ({
  server: e.server,
  rule: e.rule,
  detail: e.detail,
  message: e.message,
});

/**
 * Runs `body` on a started host and closes the host after it, returning its exit code; a failed
 * start (StartError) goes to `failed`, which says it, and ends with its rule's exit code.
 */
export async function withHost(
  common: CommonOptions,
  failed: (e: StartError) => void,
  body: (host: Host) => Promise<number>,
  extra: Partial<HostOptions> = {},
): Promise<number> {
  let host: Host;
  try {
    host = await startHost(common, extra);
  } catch (e) {
    if (!(e instanceof StartError)) throw e;
    failed(e);
    return exitCode(e.rule);
  }
  try {
    return await body(host);
  } finally {
    await host.close();
  }
}
