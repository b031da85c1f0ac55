// One server connection: transport (stdio or Streamable HTTP), era detection, the modern `_meta`
// envelope on every request, stderr tail, and restart after an exit.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import {
  AnyResultSchema,
  DiscoverResultSchema,
  eraOf,
  ErrorCode,
  InitializeResultLooseSchema,
  isModernVersion,
  LEGACY_VERSIONS,
  META,
  MODERN_ERROR_CODES,
  MODERN_VERSIONS,
  UnsupportedVersionErrorDataSchema,
  type Capabilities,
  type Era,
} from "../protocol/index.js";
import type { Limits, ServerConfig } from "./config.js";
import { HttpStatusError, ModernHttpTransport } from "./http-transport.js";
import { RpcClient } from "./rpc-client.js";
import { SizeLimitedTransport } from "./size-limited-transport.js";
import { LimitedStdioTransport } from "./stdio-transport.js";
import { TailBuffer } from "./tail-buffer.js";

export const CLIENT_NAME = "mcp-prism";
export const CLIENT_VERSION: string = (() => {
  try {
    const pkg = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "package.json");
    return (JSON.parse(readFileSync(pkg, "utf8")) as { version: string }).version;
  } catch {
    return "0.0.0";
  }
})();

const NO_EXTENSIONS: Record<string, Record<string, unknown>> = {};

export class ConnectionError extends Error {
  constructor(
    readonly rule: string,
    message: string,
  ) {
    super(message);
    this.name = "ConnectionError";
  }
}

export type ConnectionState = "idle" | "connecting" | "connected" | "disconnected" | "failed";
type Json = Record<string, unknown>;

export interface RequestOpts {
  /** Client extensions advertised on this (modern) request. */
  extensions?: Record<string, Record<string, unknown>>;
  timeout?: number;
  signal?: AbortSignal;
  onprogress?: RequestOptions["onprogress"];
}

const MAX_RESTARTS = 5;
/** A connection that stayed up this long earns a fresh restart budget (crashes hours apart are not a loop). */
const STABLE_MS = 60_000;

export class Connection {
  state: ConnectionState = "idle";
  era: Era | undefined;
  protocolVersion: string | undefined;
  serverCapabilities: Capabilities = {};
  serverInfo: { name: string; version: string } | undefined;
  instructions: string | undefined;
  lastError: string | undefined;
  private client: RpcClient | undefined;
  /** The server's last stderr lines and the host's diagnostics about it (bounded, whatever it floods). */
  private readonly stderr = new TailBuffer();
  private readonly diagnostics = new TailBuffer();
  private restarts = 0;
  private connectedAt = 0;
  private connecting: Promise<void> | undefined;

  constructor(
    readonly name: string,
    readonly config: ServerConfig,
    private readonly limits: Limits,
    /** Forces one protocol version (no fallback, no retry). */
    private readonly forcedVersion?: string,
  ) {}

  stderrTail(): string[] {
    return this.stderr.lines();
  }

  /** Host diagnostics about this server (e.g. ignored non-JSON stdout lines), newest last. */
  diagnosticsTail(): string[] {
    return this.diagnostics.lines();
  }

  /** Connects (or reconnects after an exit, with backoff). Throws ConnectionError. */
  async ensureConnected(): Promise<void> {
    if (this.state === "connected") return;
    // Concurrent callers share one attempt (one backoff, one process).
    this.connecting ??= this.restart().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private async restart(): Promise<void> {
    if (this.state === "disconnected") {
      if (this.restarts >= MAX_RESTARTS) {
        throw new ConnectionError("connection-failed", `server ${this.name}: exited ${this.restarts} times; not restarting`);
      }
      await new Promise((r) => setTimeout(r, Math.min(100 * 2 ** this.restarts, 2000)));
      this.restarts++;
    }
    await this.connect();
  }

  private async connect(): Promise<void> {
    this.state = "connecting";
    try {
      if (this.config.kind === "stdio") await this.connectStdio();
      else await this.connectHttp();
      this.state = "connected";
      this.connectedAt = Date.now();
      this.lastError = undefined;
    } catch (e) {
      this.state = "failed";
      await this.client?.close().catch(() => {});
      this.client = undefined;
      const err = e instanceof ConnectionError ? e : new ConnectionError("connection-failed", this.describe(e));
      this.lastError = err.message;
      throw err;
    }
  }

  private describe(e: unknown): string {
    const why = e instanceof Error ? e.message : String(e);
    const last = this.stderr.lines().slice(-3);
    const tail = last.length ? ` (server stderr: ${last.join(" | ")})` : "";
    return `server ${this.name}: ${why}${tail}`;
  }

  private newClient(): RpcClient {
    const client = new RpcClient();
    client.onclose = () => {
      if (this.client === client && this.state === "connected") {
        this.state = "disconnected";
        this.lastError = `server ${this.name}: the server exited; it will be restarted on the next call`;
        if (Date.now() - this.connectedAt > STABLE_MS) this.restarts = 0;
      }
    };
    client.onerror = () => {}; // stray/malformed lines are not fatal; requests fail on their own
    return client;
  }

  private async connectStdio(): Promise<void> {
    const cfg = this.config as Extract<ServerConfig, { kind: "stdio" }>;
    this.stderr.flush();
    const transport = new LimitedStdioTransport(
      { command: cfg.command, args: cfg.args, env: cfg.env, cwd: cfg.cwd },
      {
        maxLineBytes: this.limits.maxResultBytes,
        onStderr: (chunk) => this.stderr.write(chunk.toString("utf8")),
        onDiagnostic: (text) => this.diagnostics.push(text),
      },
    );
    const client = this.newClient();
    this.client = client;
    await client.connect(transport);
    await this.detectEra(client, this.limits.discoverTimeoutMs, async (pending) => {
      await this.initialize(client, pending);
    });
  }

  private async connectHttp(): Promise<void> {
    const cfg = this.config as Extract<ServerConfig, { kind: "http" }>;
    const url = new URL(cfg.url);
    const modern = this.newClient();
    this.client = modern;
    await modern.connect(new ModernHttpTransport(url, cfg.headers, this.limits.maxResultBytes));
    await this.detectEra(modern, Math.max(this.limits.discoverTimeoutMs, 10_000), async () => {
      await modern.close().catch(() => {});
      const legacy = this.newClient();
      this.client = legacy;
      const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers: cfg.headers } });
      // The SDK's transport parses whole bodies: the size rule is applied to what it delivers.
      await legacy.connect(new SizeLimitedTransport(transport, this.limits.maxResultBytes, (text) => this.diagnostics.push(text)));
      const version = await this.initialize(legacy);
      transport.setProtocolVersion(version);
    });
  }

  /**
   * Probes `server/discover` with the preferred modern version. A result or a recognized modern
   * error (-32022 → retry with a supported version) means modern; anything else → legacy.
   */
  private async detectEra(
    client: RpcClient,
    probeTimeout: number,
    fallBackToLegacy: (pendingInitialize?: Promise<Json>) => Promise<void>,
  ): Promise<void> {
    const forced = this.forcedVersion;
    if (forced !== undefined && !isModernVersion(forced)) return fallBackToLegacy();
    let version: string = forced ?? MODERN_VERSIONS[0];
    for (let attempt = 0; attempt < 2; attempt++) {
      let pendingInitialize: Promise<Json> | undefined;
      try {
        const raw = await this.probe(client, version, probeTimeout, attempt === 0, (p) => (pendingInitialize = p));
        if (raw === "legacy") return fallBackToLegacy(pendingInitialize);
        pendingInitialize?.catch(() => {}); // a dual-era server answered both: stay modern
        const parsed = DiscoverResultSchema.safeParse(raw);
        if (!parsed.success) throw new ConnectionError("invalid-discover", `server ${this.name}: malformed server/discover result`);
        const d = parsed.data;
        if (!d.supportedVersions.includes(version)) {
          const best = MODERN_VERSIONS.find((v) => d.supportedVersions.includes(v));
          if (forced !== undefined || best === undefined) throw this.noCommonVersion(version, d.supportedVersions);
          version = best;
        }
        this.setModern(version, d);
        return;
      } catch (e) {
        if (e instanceof ConnectionError) throw e;
        if (e instanceof McpError && MODERN_ERROR_CODES.has(e.code)) {
          pendingInitialize?.catch(() => {});
          if (e.code !== ErrorCode.UnsupportedProtocolVersion) throw new ConnectionError("modern-error", this.describe(e));
          const data = UnsupportedVersionErrorDataSchema.safeParse(e.data);
          const supported = data.success ? data.data.supported : [];
          const best = MODERN_VERSIONS.find((v) => supported.includes(v));
          if (forced !== undefined || best === undefined || best === version) throw this.noCommonVersion(version, supported);
          version = best; // a modern server: retry, never fall back to initialize
          continue;
        }
        if (forced !== undefined) {
          throw new ConnectionError("connection-failed", this.describe(new Error(`--protocol ${forced}: server/discover failed: ${(e as Error).message}`)));
        }
        const transportDown = !(e instanceof McpError) && !(e instanceof HttpStatusError);
        if (transportDown && this.config.kind === "http") throw new ConnectionError("connection-failed", this.describe(e));
        if (e instanceof McpError && e.code === -32000 && this.config.kind === "stdio") {
          throw new ConnectionError("connection-failed", this.describe(new Error("the server exited before answering")));
        }
        return fallBackToLegacy(pendingInitialize);
      }
    }
    throw new ConnectionError("connection-failed", `server ${this.name}: version negotiation did not converge`);
  }

  /**
   * Sends `server/discover`. On stdio (first probe, no forced version) a probe unanswered after
   * `probeTimeout` sends `initialize` WITHOUT giving up on the probe: a slow-starting modern server
   * still answers discover (a dual-era one answers both), a legacy one answers only initialize.
   * Returns the discover result, or "legacy" when initialize answered first.
   */
  private async probe(
    client: RpcClient,
    version: string,
    probeTimeout: number,
    firstAttempt: boolean,
    onInitializeSent: (p: Promise<Json>) => void,
  ): Promise<Json | "legacy"> {
    const forced = this.forcedVersion !== undefined;
    const race = this.config.kind === "stdio" && !forced && firstAttempt;
    const abort = new AbortController();
    const request = client.request(
      { method: "server/discover", params: { _meta: this.envelope(version, NO_EXTENSIONS) } },
      AnyResultSchema,
      // A forced version has no fallback: give the probe the full call timeout.
      { timeout: race ? probeTimeout + this.limits.callTimeoutMs : forced ? Math.max(probeTimeout, this.limits.callTimeoutMs) : probeTimeout, signal: abort.signal },
    );
    if (!race) return request;
    type Settled = { from: "probe" | "init"; ok: boolean; value?: Json; error?: unknown };
    const settle = (from: Settled["from"], p: Promise<Json>): Promise<Settled> =>
      p.then((value) => ({ from, ok: true, value }), (error: unknown) => ({ from, ok: false, error }));
    const probed = settle("probe", request);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), probeTimeout)));
    let first = await Promise.race([probed, timedOut]);
    clearTimeout(timer);
    if (first === undefined) {
      const init = this.sendInitialize(client);
      onInitializeSent(init);
      first = await Promise.race([probed, settle("init", init)]);
      if (first.from === "init") {
        // Replies may come out of order: a dual-era server can answer initialize just before
        // discover. A server alive enough to answer initialize gets a short grace for the probe.
        const initOk = first;
        const grace = new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), Math.min(probeTimeout, 1000))));
        const late = await Promise.race([probed, grace]);
        clearTimeout(timer);
        if (late?.ok) first = late;
        else if (late && late.error instanceof McpError && MODERN_ERROR_CODES.has(late.error.code)) first = late;
        else {
          abort.abort(); // the probe is moot now (sends notifications/cancelled)
          if (initOk.ok) return "legacy";
          throw new ConnectionError("connection-failed", this.describe(new Error(`no answer to server/discover, and initialize failed: ${(initOk.error as Error).message}`)));
        }
      }
    }
    if (!first.ok) throw first.error;
    return first.value as Json;
  }

  private noCommonVersion(requested: string, supported: string[]): ConnectionError {
    return new ConnectionError(
      "unsupported-version",
      `server ${this.name}: does not support protocol ${requested} (it supports ${supported.join(", ") || "nothing we know"})`,
    );
  }

  private setModern(version: string, d: { capabilities: Capabilities; instructions?: string; _meta?: Json }): void {
    this.era = eraOf(version);
    this.protocolVersion = version;
    this.serverCapabilities = d.capabilities;
    this.instructions = d.instructions;
    const info = d._meta?.[META.serverInfo] as { name?: unknown; version?: unknown } | undefined;
    if (info && typeof info.name === "string") this.serverInfo = { name: info.name, version: String(info.version ?? "") };
  }

  private sendInitialize(client: RpcClient): Promise<Json> {
    const requested = this.forcedVersion ?? LEGACY_VERSIONS[0];
    return client.request(
      {
        method: "initialize",
        params: { protocolVersion: requested, capabilities: {}, clientInfo: { name: CLIENT_NAME, version: CLIENT_VERSION } },
      },
      AnyResultSchema,
      { timeout: this.limits.callTimeoutMs },
    );
  }

  /** The legacy handshake (reusing an initialize already in flight); returns the negotiated version. */
  private async initialize(client: RpcClient, pending?: Promise<Json>): Promise<string> {
    const requested = this.forcedVersion ?? LEGACY_VERSIONS[0];
    const raw = await (pending ?? this.sendInitialize(client));
    const parsed = InitializeResultLooseSchema.safeParse(raw);
    if (!parsed.success) throw new ConnectionError("invalid-initialize", `server ${this.name}: malformed initialize result`);
    const r = parsed.data;
    const ok = (LEGACY_VERSIONS as readonly string[]).includes(r.protocolVersion);
    if (!ok || (this.forcedVersion !== undefined && r.protocolVersion !== this.forcedVersion)) {
      throw this.noCommonVersion(requested, [r.protocolVersion]);
    }
    await client.notification({ method: "notifications/initialized" });
    this.era = "legacy";
    this.protocolVersion = r.protocolVersion;
    this.serverCapabilities = r.capabilities;
    this.instructions = r.instructions;
    if (r.serverInfo) this.serverInfo = { name: r.serverInfo.name, version: r.serverInfo.version };
    return r.protocolVersion;
  }

  private envelope(version: string, extensions: Record<string, Record<string, unknown>>): Json {
    const hit = this.envelopes.get(extensions);
    if (hit?.version === version) return hit.envelope;
    const caps: Json = Object.keys(extensions).length ? { extensions } : {};
    const envelope = {
      [META.protocolVersion]: version,
      [META.clientInfo]: { name: CLIENT_NAME, version: CLIENT_VERSION },
      [META.clientCapabilities]: caps,
    };
    this.envelopes.set(extensions, { version, envelope });
    return envelope;
  }
  /** The envelope per extensions object (a policy constant); requests copy it, never change it. */
  private readonly envelopes = new WeakMap<object, { version: string; envelope: Json }>();

  /** Extensions both sides advertise for a request made with these client extensions. */
  negotiated(extensions: Record<string, Record<string, unknown>>): ReadonlySet<string> {
    // Asked on every call: the same Set while the extensions object (a policy constant) and the
    // server's capabilities (replaced on reconnect) are the same objects.
    const hit = this.negotiatedCache.get(extensions);
    if (hit && hit.caps === this.serverCapabilities && hit.era === this.era) return hit.set;
    const server = this.serverCapabilities.extensions ?? {};
    const set = this.era === "legacy" ? new Set<string>() : new Set(Object.keys(extensions).filter((id) => id in server));
    this.negotiatedCache.set(extensions, { caps: this.serverCapabilities, era: this.era, set });
    return set;
  }
  private readonly negotiatedCache = new WeakMap<object, { caps: Capabilities; era: string | undefined; set: ReadonlySet<string> }>();

  /**
   * Sends a request (modern: with the `_meta` envelope). Throws McpError / ConnectionError.
   * `params` is the request's own object (every caller builds it for this one request): the
   * envelope is set on it, not on a copy, as this runs for every tool call.
   */
  request(method: string, params: Json, opts: RequestOpts = {}): Promise<Json> {
    // Not async: on the hot path (connected) the SDK's promise is returned as it is.
    if (this.state !== "connected") return this.ensureConnected().then(() => this.send(method, params, opts));
    return this.send(method, params, opts);
  }

  private send(method: string, params: Json, opts: RequestOpts): Promise<Json> {
    const client = this.client;
    if (!client || !this.protocolVersion) return Promise.reject(new ConnectionError("not-connected", `server ${this.name}: not connected`));
    if (this.era !== "legacy") {
      const envelope = this.envelope(this.protocolVersion, opts.extensions ?? NO_EXTENSIONS);
      // Object.assign, not a spread: adding to a spread copy is a slow runtime path in Node 20's V8.
      params._meta = params._meta ? Object.assign({}, params._meta as Json, envelope) : envelope;
    }
    return client.request({ method, params }, AnyResultSchema, {
      timeout: opts.timeout ?? this.limits.callTimeoutMs,
      signal: opts.signal,
      onprogress: opts.onprogress,
    });
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.state = "idle";
    if (client) await endSession(client);
    await client?.close().catch(() => {});
  }
}

/** How long a legacy HTTP session's DELETE may take on close (then the close aborts it). */
const END_SESSION_MS = 2000;

/**
 * Ends a legacy Streamable HTTP session with DELETE (the SDK transport's terminateSession; a 405,
 * "the server does not end sessions", counts as done), bounded in time, errors ignored. Other
 * transports have no session to end.
 */
async function endSession(client: RpcClient): Promise<void> {
  const transport = client.transport as { terminateSession?: () => Promise<void> } | undefined;
  if (typeof transport?.terminateSession !== "function") return;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((r) => (timer = setTimeout(r, END_SESSION_MS)));
  await Promise.race([transport.terminateSession().catch(() => {}), timeout]);
  clearTimeout(timer);
}
