// One server connection: its transports (from a TransportFactory: stdio or Streamable HTTP by
// default, transport-factory.ts), era detection, the modern `_meta`
// envelope on every request, stderr tail, and restart after an exit.
import type { Rule } from "../../protocol/rules.js";
import {
  AnyResultSchema,
  eraOf,
  InitializeResultLooseSchema,
  isModernVersion,
  LEGACY_VERSIONS,
  META,
  MODERN_ERROR_CODES,
  MODERN_VERSIONS,
  negotiatedAudiences,
  type Capabilities,
  UI_EXTENSION,
  type Era,
} from "../../protocol/index.js";
import type { Limits, ServerConfig } from "../config/config.js";
import type { EraCache, RememberedEra } from "./era-cache.js";
import {
  clientCapabilities,
  DEFAULT_CLIENT_SIDE,
  serveClientRequests,
  type ClientSide,
} from "./client-capabilities.js";
import { authRequired, classifyProbe } from "./era-classifier.js";
import { oneLine, outcomeOf } from "./probe-outcome.js";
import { refusalOf } from "./reply-guard.js";
import { RpcClient } from "./rpc-client.js";
import { endSession } from "./session-end.js";
import type { InputAsker } from "../call/input-required.js";
import { TailBuffer } from "./tail-buffer.js";
import { defaultTransport, httpStatusOf, type TransportContext, type TransportFactory } from "./transport-factory.js";
import { HttpStatusError } from "./http-transport.js";

import { CLIENT_NAME, CLIENT_VERSION } from "./client-info.js";

export { CLIENT_NAME, CLIENT_VERSION };

const NO_EXTENSIONS: Record<string, Record<string, unknown>> = {};

export { ConnectionError, type ConnectionState, type RequestOpts } from "./connection-types.js";
import {
  ConnectionError,
  type ConnectionState,
  type Detection,
  type Probed,
  type RequestOpts,
} from "./connection-types.js";
type Json = Record<string, unknown>;

const MAX_RESTARTS = 5;
/** A connection that stayed up this long earns a fresh restart budget (crashes hours apart are not a loop). */
const STABLE_MS = 60_000;

/** What a Connection is built from: the server, the host's limits and what the host offers it. */
export interface ConnectionOptions {
  name: string;
  config: ServerConfig;
  limits: Limits;
  /** Forces one protocol version (no fallback, no retry, no era cache). */
  forcedVersion?: string;
  /** Where detected eras are remembered between runs (none: always probe). */
  eraCache?: EraCache;
  /** Builds each transport this connection opens (default: the real stdio / HTTP ones). */
  transports?: TransportFactory;
  /** What the host advertises and answers (roots, …): client-capabilities.ts. */
  side?: ClientSide;
}

export class Connection {
  state: ConnectionState = "idle";
  era: Era | undefined;
  protocolVersion: string | undefined;
  serverCapabilities: Capabilities = {};
  serverInfo: { name: string; version: string } | undefined;
  instructions: string | undefined;
  /** Turned off for this session (Host.setEnabled): nothing connects it until it is turned on. */
  disabled = false;
  /** Why the server is not connected (rule, detail with any stderr tail), while it is not. */
  lastFailure: { rule: Rule; detail: string } | undefined;
  /** lastFailure's line: `server S: detail`. */
  get lastError(): string | undefined {
    return this.lastFailure && `server ${this.name}: ${this.lastFailure.detail}`;
  }
  private client: RpcClient | undefined;
  /** The server's last stderr lines and the host's diagnostics about it (bounded, whatever it floods). */
  private readonly stderr = new TailBuffer();
  private readonly diagnostics = new TailBuffer();
  private restarts = 0;
  private connectedAt = 0;
  private connecting: Promise<void> | undefined;
  /** The era the cache had for this server when the current connect began. */
  private remembered: RememberedEra | undefined;
  /** The last legacy HTTP 401/403 challenge seen and why signing in did not pass it (reset at each legacy connect). */
  private challenge: { header?: string; signIn?: string } | undefined;
  private seen = () => this.challenge; // (read through a call: set by the transport meanwhile)

  readonly name: string;
  readonly config: ServerConfig;
  private readonly limits: Limits;
  private readonly forcedVersion?: string;
  private readonly eraCache?: EraCache;
  private readonly transports: TransportFactory;
  private readonly side: ClientSide;

  constructor(opts: ConnectionOptions) {
    this.name = opts.name;
    this.config = opts.config;
    this.limits = opts.limits;
    this.forcedVersion = opts.forcedVersion;
    this.eraCache = opts.eraCache;
    this.transports = opts.transports ?? defaultTransport;
    this.side = opts.side ?? DEFAULT_CLIENT_SIDE;
  }
  /** Who answers this server's MRTR input requests: the host's provider and roots. */
  inputAsker(signal?: AbortSignal): InputAsker {
    return {
      server: this.name,
      provider: this.side.input,
      roots: this.side.features.roots ? this.side.roots() : undefined,
      signal,
    };
  }

  private transport(era: TransportContext["era"]) {
    return this.transports(this.config, {
      name: this.name,
      limits: this.limits,
      era,
      onStderr: (text) => this.stderr.write(text),
      onDiagnostic: (text) => this.diagnostics.push(text),
      onChallenge: (header, signIn) => (this.challenge = { header, signIn }),
    });
  }

  stderrTail(): string[] {
    return this.stderr.lines();
  }

  /** The stderr lines that explain a failure (tail-buffer.ts explainingLines). */
  stderrExplaining(): string[] {
    return this.stderr.explaining();
  }

  /** The server process's first error line this run, if any. */
  stderrFirstError(): string | undefined {
    return this.stderr.firstError();
  }

  /** Host diagnostics about this server (e.g. ignored non-JSON stdout lines), newest last. */
  diagnosticsTail(): string[] {
    return this.diagnostics.lines();
  }

  /** A notification (roots/list_changed) to a connected legacy server: only a session has someone to tell. */
  async notifySession(method: string): Promise<void> {
    if (this.era === "legacy" && this.state === "connected")
      await this.client?.notification({ method }).catch(() => {});
  }

  /** Connects (or reconnects after an exit, with backoff). Throws ConnectionError. */
  async ensureConnected(): Promise<void> {
    if (this.state === "connected") return;
    if (this.disabled) throw new ConnectionError("server-disabled", this.name, "disabled for this session");
    // Concurrent callers share one attempt (one backoff, one process).
    this.connecting ??= this.restart().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private async restart(): Promise<void> {
    if (this.state === "disconnected") {
      if (this.restarts >= MAX_RESTARTS) {
        throw new ConnectionError("connection-failed", this.name, `exited ${this.restarts} times; not restarting`);
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
      this.lastFailure = undefined;
      if (this.forcedVersion === undefined && this.protocolVersion) {
        this.eraCache?.set(
          this.config,
          { era: this.era === "legacy" ? "legacy" : "modern", version: this.protocolVersion },
          (t) => this.diagnostics.push(t),
        );
      }
    } catch (e) {
      this.state = "failed";
      if (this.remembered) this.eraCache?.delete(this.config); // detect afresh next time
      this.remembered = undefined;
      if (this.client) await endSession(this.client); // a legacy session opened before the failure
      await this.client?.close().catch(() => {});
      this.client = undefined;
      const refused = refusalOf(e); // a malformed initialize reply, refused at once (reply-guard.ts)
      const err =
        e instanceof ConnectionError
          ? e
          : refused
            ? new ConnectionError(refused.rule, this.name, `refused the reply to initialize: ${refused.detail}`)
            : new ConnectionError("connection-failed", this.name, oneLine(e));
      // The stderr tail travels beside the message: the user sees it (status, /servers), a
      // failed call's CallError carries it as `stderr`, and nothing of it can reach the model.
      // The lines that explain it: the first error line (a crash's cause) and the last ones.
      const last = this.stderr.explaining();
      if (last.length) err.stderr ??= last;
      this.lastFailure = {
        rule: err.rule,
        detail: err.stderr ? `${err.detail} (server stderr: ${err.stderr.join(" | ")})` : err.detail,
      };
      throw err;
    }
  }

  private newClient(): RpcClient {
    const client = new RpcClient();
    client.onclose = () => {
      if (this.client === client && this.state === "connected") {
        this.state = "disconnected";
        this.lastFailure = {
          rule: "connection-closed",
          detail: "the server exited; it will be restarted on the next call",
        };
        if (Date.now() - this.connectedAt > STABLE_MS) this.restarts = 0;
      }
    };
    client.onerror = () => {}; // stray/malformed lines are not fatal; requests fail on their own
    serveClientRequests(client, this.side, this.name);
    return client;
  }

  private async connectStdio(): Promise<void> {
    this.stderr.flush();
    const client = this.newClient();
    this.client = client;
    await client.connect(this.transport("any"));
    await this.detectEra({
      probeTimeout: this.limits.discoverTimeoutMs,
      probeClient: async () => client,
      legacy: async (pending) => void (await this.initialize(client, pending)),
    });
  }

  private async connectHttp(): Promise<void> {
    await this.detectEra({
      probeTimeout: Math.max(this.limits.discoverTimeoutMs, 10_000),
      probeClient: async () => {
        await this.client?.close().catch(() => {});
        const modern = this.newClient();
        this.client = modern;
        await modern.connect(this.transport("modern"));
        return modern;
      },
      legacy: async () => {
        await this.client?.close().catch(() => {});
        const legacy = this.newClient();
        this.client = legacy;
        this.challenge = undefined;
        const transport = this.transport("legacy");
        await legacy.connect(transport);
        try {
          transport.setProtocolVersion?.(await this.initialize(legacy));
        } catch (e) {
          const status = httpStatusOf(e);
          if (status === 401 || status === 403)
            throw this.refused(authRequired(status, this.seen()?.header, this.seen()?.signIn, this.name));
          throw e;
        }
      },
    });
  }

  /**
   * The era, from the remembered one when there is one (a legacy server: initialize at once; a
   * modern one: discover with its version), else by probing; every decision is classifyProbe's.
   */
  private async detectEra(d: Detection): Promise<void> {
    const forced = this.forcedVersion;
    if (forced !== undefined && !isModernVersion(forced)) return d.legacy();
    const remembered =
      forced === undefined ? this.eraCache?.get(this.config, (t) => this.diagnostics.push(t)) : undefined;
    this.remembered = remembered;
    if (remembered?.era === "legacy") {
      try {
        return await d.legacy();
      } catch (e) {
        if (e instanceof ConnectionError && e.rule === "auth-required") throw e;
        this.diagnostics.push(`remembered as legacy, but initialize failed (${oneLine(e)}): detecting the era again`);
      }
    }
    await this.probeLoop(await d.probeClient(), d, remembered?.era === "modern" ? remembered.version : undefined);
  }

  private async probeLoop(client: RpcClient, d: Detection, startVersion: string | undefined): Promise<void> {
    const forced = this.forcedVersion;
    let version: string = forced ?? startVersion ?? MODERN_VERSIONS[0];
    for (let attempt = 0; attempt < 2; attempt++) {
      const probed = await this.probe(client, version, d.probeTimeout, attempt === 0);
      const verdict = classifyProbe(probed.outcome, {
        transport: this.config.kind,
        version,
        forced: forced !== undefined,
        retried: attempt > 0,
        server: this.name,
      });
      if (verdict.kind !== "legacy") probed.initialize?.catch(() => {}); // a dual-era server answered both: the probe decided
      switch (verdict.kind) {
        case "modern":
          return this.setModern(verdict.version, verdict.discover);
        case "retry":
          version = verdict.version; // a modern server: retry, never fall back to initialize
          continue;
        case "legacy":
          this.diagnostics.push(`legacy server: ${verdict.evidence}`);
          if (probed.outcome.kind !== "timeout" || !probed.initialize) return d.legacy(probed.initialize);
          return d.legacy(probed.initialize).catch((e: unknown) => {
            if (e instanceof ConnectionError) throw e;
            throw new ConnectionError(
              "connection-failed",
              this.name,
              `no answer to server/discover, and initialize failed: ${oneLine(e)}`,
            );
          });
        default:
          throw this.refused(verdict);
      }
    }
    throw new ConnectionError("connection-failed", this.name, "version negotiation did not converge");
  }

  /**
   * A request refused with HTTP 401/403 that signing in did not pass (the token expired or was
   * revoked, a step-up not signed in), as the auth-required ConnectionError it is; after a 401 the
   * connection is "failed" ("sign-in needed") until a connect signs in. Else undefined.
   */
  authRefusal(e: unknown): ConnectionError | undefined {
    let err: ConnectionError | undefined;
    const status = e instanceof HttpStatusError ? e.status : httpStatusOf(e);
    if (e instanceof ConnectionError) err = e.rule === "auth-required" ? e : undefined;
    else if (status === 401 || status === 403) {
      const seen = e instanceof HttpStatusError ? { header: e.wwwAuthenticate, signIn: e.signIn } : this.seen();
      err = this.refused(authRequired(status, seen?.header, seen?.signIn, this.name));
    }
    if (!err || status === 403) return err; // a step-up refused: the token still serves the rest
    if (this.state === "connected") this.state = "failed";
    this.lastFailure = { rule: err.rule, detail: err.detail };
    return err;
  }

  private refused(v: { rule: Rule; detail: string }): ConnectionError {
    return new ConnectionError(v.rule, this.name, v.detail);
  }
  /**
   * Sends `server/discover` and says what came back. On stdio (first probe, no forced version) a
   * probe unanswered after `probeTimeout` sends `initialize` WITHOUT giving up on the probe: a
   * slow-starting modern server still answers discover (a dual-era one answers both), a legacy one
   * answers only initialize ("timeout", with that initialize to finish the handshake).
   */
  private async probe(
    client: RpcClient,
    version: string,
    probeTimeout: number,
    firstAttempt: boolean,
  ): Promise<Probed> {
    const forced = this.forcedVersion !== undefined;
    const race = this.config.kind === "stdio" && !forced && firstAttempt;
    const abort = new AbortController();
    const request = client.request(
      { method: "server/discover", params: { _meta: this.envelope(version, NO_EXTENSIONS) } },
      AnyResultSchema,
      // A forced version has no fallback: give the probe the full call timeout.
      {
        timeout: race
          ? probeTimeout + this.limits.callTimeoutMs
          : forced
            ? Math.max(probeTimeout, this.limits.callTimeoutMs)
            : probeTimeout,
        signal: abort.signal,
      },
    );
    if (!race) return { outcome: await outcomeOf(request) };
    const probed = outcomeOf(request);
    let timer: NodeJS.Timeout | undefined;
    const after = (ms: number) => new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), ms)));
    const first = await Promise.race([probed, after(probeTimeout)]);
    clearTimeout(timer);
    if (first !== undefined) return { outcome: first };
    const initialize = this.sendInitialize(client);
    const init = initialize.then(
      () => "init" as const,
      () => "init" as const,
    );
    const next = await Promise.race([probed, init]);
    if (next !== "init") return { outcome: next, initialize };
    // Replies may come out of order: a dual-era server can answer initialize just before
    // discover. A server alive enough to answer initialize gets a short grace for the probe.
    const late = await Promise.race([probed, after(Math.min(probeTimeout, 1000))]);
    clearTimeout(timer);
    if (
      late !== undefined &&
      (late.kind === "result" || (late.kind === "rpc-error" && MODERN_ERROR_CODES.has(late.code)))
    )
      return { outcome: late, initialize };
    abort.abort(); // the probe is moot now (sends notifications/cancelled)
    return { outcome: { kind: "timeout", ms: probeTimeout }, initialize };
  }

  private setModern(version: string, d: { capabilities: Capabilities; instructions?: string; _meta?: Json }): void {
    this.era = eraOf(version);
    this.protocolVersion = version;
    this.serverCapabilities = d.capabilities;
    this.instructions = d.instructions;
    const info = d._meta?.[META.serverInfo] as { name?: unknown; version?: unknown } | undefined;
    if (info && typeof info.name === "string")
      this.serverInfo = { name: info.name, version: String(info.version ?? "") };
  }

  private sendInitialize(client: RpcClient): Promise<Json> {
    const requested = this.forcedVersion ?? LEGACY_VERSIONS[0];
    return client.request(
      {
        method: "initialize",
        params: {
          protocolVersion: requested,
          capabilities: clientCapabilities(this.side.features, true),
          clientInfo: { name: CLIENT_NAME, version: CLIENT_VERSION },
        },
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
    if (!parsed.success) throw new ConnectionError("invalid-initialize", this.name, "malformed initialize result");
    const r = parsed.data;
    const ok = (LEGACY_VERSIONS as readonly string[]).includes(r.protocolVersion);
    if (!ok || (this.forcedVersion !== undefined && r.protocolVersion !== this.forcedVersion)) {
      throw new ConnectionError(
        "unsupported-version",
        this.name,
        `does not support protocol ${requested} (it supports ${r.protocolVersion})`,
      );
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
    const caps = clientCapabilities({ ...this.side.features, ui: UI_EXTENSION in extensions });
    // Every extension the mode advertises: the Apps one and any registered client extension (policy/extensions.ts).
    caps.extensions = { ...(caps.extensions as Json), ...structuredClone(extensions) };
    const envelope = {
      [META.protocolVersion]: version,
      [META.clientInfo]: { name: CLIENT_NAME, version: CLIENT_VERSION },
      [META.clientCapabilities]: caps,
      ...(this.side.logLevel ? { [META.logLevel]: this.side.logLevel } : {}),
    };
    this.envelopes.set(extensions, { version, envelope });
    return envelope;
  }
  /** The envelope per extensions object (a policy constant); requests copy it, never change it. */
  private readonly envelopes = new WeakMap<object, { version: string; envelope: Json }>();

  /** The audiences negotiated for a request made with these client extensions (those of the extensions both sides advertise). */
  negotiated(extensions: Record<string, Record<string, unknown>>): ReadonlySet<string> {
    // Asked on every call: the same Set while the extensions object (a policy constant) and the
    // server's capabilities (replaced on reconnect) are the same objects.
    const hit = this.negotiatedCache.get(extensions);
    if (hit && hit.caps === this.serverCapabilities && hit.era === this.era) return hit.set;
    const server = this.serverCapabilities.extensions ?? {};
    const set = this.era === "legacy" ? new Set<string>() : negotiatedAudiences(extensions, server);
    this.negotiatedCache.set(extensions, { caps: this.serverCapabilities, era: this.era, set });
    return set;
  }
  private readonly negotiatedCache = new WeakMap<
    object,
    { caps: Capabilities; era: string | undefined; set: ReadonlySet<string> }
  >();

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
    if (!client || !this.protocolVersion)
      return Promise.reject(new ConnectionError("not-connected", this.name, "not connected"));
    if (this.era !== "legacy") {
      const envelope = this.envelope(this.protocolVersion, opts.extensions ?? NO_EXTENSIONS);
      // Object.assign, not a spread: adding to a spread copy is a slow runtime path in Node 20's V8.
      params._meta = params._meta ? Object.assign({}, params._meta as Json, envelope) : envelope;
    }
    return client.request({ method, params }, AnyResultSchema, {
      timeout: opts.timeout ?? this.limits.callTimeoutMs,
      signal: opts.signal,
      onprogress: opts.onprogress,
      ...(opts.maxTotalTimeout ? { resetTimeoutOnProgress: true, maxTotalTimeout: opts.maxTotalTimeout } : {}),
    });
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.remembered = undefined; // a connect cut short by close() is no reason to forget its era
    this.state = "idle";
    this.restarts = 0; // a reconnect after close starts with a fresh budget
    if (client) await endSession(client);
    await client?.close().catch(() => {});
  }
}
