// The Host: connection registry, tool registry and the call pipeline
// (policy → local selection check → request → validate → route). Implements ToolExecutor.
import { didYouMean } from "../protocol/suggest.js";
import { EventEmitter } from "node:events";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { ErrorCode } from "../protocol/index.js";
import { wireError } from "./call/call-errors.js";
import { checkCall, failedCall, finishCall } from "./call/call-steps.js";
import { callError } from "./host-error.js";
import { Connection, ConnectionError } from "./connection/connection.js";
import { connectedPlan, unknownPlan, type PendingCall } from "./call/pending-call.js";
import { EraCache } from "./connection/era-cache.js";
import { featuresWith, type ClientSide, type ServerNotice } from "./connection/client-capabilities.js";
import { DEFAULT_LOG_LEVEL, logEntryOf, sendLogLevel, ServerLogs, type LogEntry } from "./connection/server-logs.js";
import { rootsOf, type Root } from "./config/roots.js";
import { policyFor } from "./policy/index.js";
import { withInputRounds, type Retry } from "./call/input-required.js";
import { offeredToModel } from "./catalog/app-only.js";
import {
  listResources,
  readFrom,
  resourceError,
  serverFor,
  type ReadOutcome,
  type ResourceListing,
} from "./catalog/resources.js";
import {
  listTools,
  qualifyNames,
  settleAllSchemas,
  settleSchemas,
  type ToolError,
  type ToolListing,
} from "./catalog/tools.js";
import type { CallError, CallOptions, CallOutcome, Mode, ToolEntry, ToolExecutor } from "./types.js";
import { modeSelection } from "./call/selections.js";
import type { HostEvents, HostOptions, PlannedRequest, ServerEvent, ServerStatus } from "./host-types.js";
import { within } from "./within.js";
import { Coalescer } from "./coalesce.js";
import { SamplingBudget } from "./input/sampling-budget.js";
import { PromptRegistry } from "./catalog/prompt-registry.js";
import { Subscriptions } from "./catalog/subscriptions.js";
import { SignIns } from "./auth/sign-ins.js";
import { requestorTasks, RunningTasks, TaskError, taskHandle, taskSupport } from "./call/tasks.js";

export type { HostOptions, PlannedRequest, ServerEvent, ServerStatus } from "./host-types.js";

/** Only what is known now: servers not connected are neither waited for nor connected. */
export interface KnownOnly {
  knownOnly: boolean;
}

export class Host extends EventEmitter implements ToolExecutor {
  /** Emits one of the HostEvents (typed: an event the type does not declare does not compile). */
  private event<K extends keyof HostEvents>(name: K, e: HostEvents[K]): boolean {
    return this.emit(name, e);
  }
  readonly mode: Mode;
  private readonly conns = new Map<string, Connection>();
  /** Per server, one listing per advertised extension set. */
  private readonly listings = new Map<string, Map<string, ToolListing>>();
  /** Per mode, the qualified tools and the listings they were built from (see byQualifiedName). */
  private readonly qualified = new Map<Mode, { from: (ToolListing | undefined)[]; byName: Map<string, ToolEntry> }>();
  /** Per server, its first connect and listing (Host.open); settles, never rejects. */
  private readonly starts = new Map<string, Promise<void>>();
  /** The servers' prompts (prompts/list, prompts/get, completion/complete). */
  readonly prompts: PromptRegistry;
  /** Resource subscriptions and listen streams (subscriptions.ts); a subscribed resource's change is the `resource-updated` event. */
  readonly subscriptions: Subscriptions;
  /** The roots every server is offered (config `roots` or `--root`); undefined: none, and no roots capability. */
  private rootList: Root[] | undefined;
  /** Each HTTP server's OAuth sign-in (login, logout; its transports carry it). */
  readonly signIns: SignIns;
  /** The task-augmented calls still running (tasks.ts): cancelled when the host closes. */
  readonly tasks = new RunningTasks();
  /** Every server's log messages (notifications/message), for the user only. */
  private readonly serverLogs = new ServerLogs();
  /** Samples servers may draw, per call and per session (limits); a cap reached is the `sampling-limit` event, once. */
  readonly sampling: SamplingBudget;
  /** list_changed re-lists, per server and list: one in flight, one pending. */
  private readonly relists = new Coalescer();
  get logLevel() {
    return this.opts.config.logLevel ?? DEFAULT_LOG_LEVEL;
  }

  private constructor(readonly opts: HostOptions) {
    super();
    // Never a default (the current directory): a server told of roots may widen its own restriction to them.
    this.rootList = opts.config.roots ? rootsOf(opts.config.roots) : undefined;
    // App mode advertises the Apps extension to legacy servers too (their initialize capabilities).
    const appMode = (opts.mode ?? opts.config.mode) === "app";
    this.sampling = new SamplingBudget(
      opts.config.limits,
      (server, line) => void this.event("sampling-limit", { server, line }),
    );
    const input = opts.input && this.sampling.wrap(opts.input);
    const side: ClientSide = {
      features: { ...featuresWith(input), roots: this.rootList !== undefined, ui: appMode },
      input,
      roots: () => this.rootList ?? [],
      logLevel: this.logLevel,
      onNotification: (server, n) => this.noticed(server, n),
    };
    this.mode = opts.mode ?? opts.config.mode ?? "chat";
    const names = opts.servers ?? Object.keys(opts.config.servers);
    const eraCache = opts.eraCache === false ? undefined : (opts.eraCache ?? EraCache.fromEnv());
    // The configured client's first use with a new issuer is asked through the front end's input.
    const asker = opts.input;
    this.signIns = new SignIns(opts.config, names, {
      confirmIssuer: asker?.confirmIssuer
        ? (q) => (asker.confirmIssuer as NonNullable<typeof asker.confirmIssuer>)(q)
        : undefined,
      ...opts.signIn,
    });
    const transport = this.signIns.transport(opts.transport);
    for (const name of names) {
      const cfg = Object.hasOwn(opts.config.servers, name) ? opts.config.servers[name] : undefined;
      if (!cfg)
        throw new ConnectionError(
          "unknown-server",
          "",
          `no server named ${JSON.stringify(name)} in ${opts.config.source}`,
        );
      this.conns.set(
        name,
        new Connection({
          name,
          config: cfg,
          limits: opts.config.limits,
          forcedVersion: opts.protocol ?? opts.config.protocol,
          eraCache,
          transports: transport,
          side,
        }),
      );
    }
    this.prompts = new PromptRegistry(this.conns, opts.config.limits);
    this.subscriptions = new Subscriptions(this.conns, (server, uri) =>
      this.event("resource-updated", { server, uri }),
    );
  }

  /**
   * The host with every server connecting (and listing its tools for the default mode) in the
   * background, each on its own: a `server` event (ServerEvent) says when each first settles.
   */
  static open(opts: HostOptions): Host {
    const host = new Host(opts);
    for (const name of host.conns.keys()) {
      const first = host.listing(name, host.mode).then(
        () => void host.event("server", { name, state: "connected" } satisfies ServerEvent),
        () => void host.event("server", { name, state: "failed" } satisfies ServerEvent),
      );
      host.starts.set(name, first);
    }
    return host;
  }

  /** Connects every server in parallel and lists tools for the default mode; waits for all. Failures stay per server. */
  static async start(opts: HostOptions): Promise<Host> {
    const host = Host.open(opts);
    await host.settled(Number.POSITIVE_INFINITY);
    return host;
  }

  /** limits.connectWaitMs: how long a prompt waits for servers still connecting. */
  get connectWaitMs(): number {
    return this.opts.config.limits.connectWaitMs;
  }

  /** True once every server's first connect settled, false after `waitMs` (the slow ones join later). */
  settled(waitMs = this.connectWaitMs): Promise<boolean> {
    return within(
      waitMs,
      Promise.all(this.starts.values()).then(() => true as const),
      false as const,
    );
  }

  /** The tool list as soon as `found` accepts it (the other servers not waited for), or once all settled. */
  async toolsWhen(found: (tools: ToolEntry[]) => boolean, mode: Mode = this.mode): Promise<ToolEntry[]> {
    const pending = new Set(
      [...this.conns.keys()].map((n) =>
        this.listing(n, mode).then(
          () => {},
          () => {},
        ),
      ),
    );
    for (;;) {
      const tools = qualifyNames(this.cached(mode), this.serverNames());
      if (found(tools) || pending.size === 0) return tools;
      const done = await Promise.race([...pending].map((p) => p.then(() => ({ p }))));
      pending.delete(done.p);
    }
  }

  servers(): ServerStatus[] {
    return [...this.conns.values()].map((c) => {
      const key = this.listingKey(c, this.mode);
      return {
        name: c.name,
        state: c.state,
        era: c.era,
        protocolVersion: c.protocolVersion,
        error: c.lastError,
        failure: c.lastFailure,
        toolErrors: this.listings.get(c.name)?.get(key)?.errors ?? [],
        ...(c.disabled ? { disabled: true as const } : {}),
        stderr: c.stderrTail(),
        ...(c.stderrFirstError() !== undefined ? { stderrFirstError: c.stderrFirstError() } : {}),
        diagnostics: c.diagnosticsTail(),
        ...(this.rootList ? { roots: this.rootList.map((r) => r.uri) } : {}),
      };
    });
  }

  private listingKey(c: Connection, mode: Mode): string {
    return c.era === "legacy" ? "legacy" : JSON.stringify(policyFor(mode).advertiseExtensions);
  }

  /** A server's tools as listed with the mode's extensions advertised (cached per extension set), signing in when it asks. */
  private listing(server: string, mode: Mode): Promise<ToolListing> {
    return this.signIns.withSignIn(this.conns.get(server), server, () => this.listingOnce(server, mode));
  }

  private async listingOnce(server: string, mode: Mode): Promise<ToolListing> {
    const conn = this.conns.get(server);
    if (!conn) throw new ConnectionError("unknown-server", "", `no server named ${JSON.stringify(server)}`);
    await conn.ensureConnected();
    sendLogLevel(this.logLevel, conn);
    this.subscriptions.ensure(conn);
    const key = this.listingKey(conn, mode);
    let byKey = this.listings.get(server);
    if (!byKey) this.listings.set(server, (byKey = new Map()));
    const hit = byKey.get(key);
    if (hit) return hit;
    const fresh = await listTools(conn, policyFor(mode).advertiseExtensions, this.opts.config.limits.maxJsonDepth);
    byKey.set(key, fresh);
    return fresh;
  }

  /**
   * For this session (the config untouched): `reconnect` closes a server (its process group
   * stopped) and connects and lists it afresh for `mode`; `disable` closes it and nothing connects
   * it again (its tools, prompts and resources are gone) until `enable` (a reconnect). Rejects
   * with the ConnectionError of a connect that fails.
   */
  async setServer(
    server: string,
    action: "reconnect" | "enable" | "disable",
    mode: Mode = this.mode,
    signal?: AbortSignal,
  ): Promise<void> {
    const conn = this.conns.get(server);
    if (!conn) throw new ConnectionError("unknown-server", "", `no server named ${JSON.stringify(server)}`);
    conn.disabled = action === "disable";
    this.listings.delete(server);
    await conn.close();
    if (conn.disabled) {
      conn.lastFailure = { rule: "server-disabled", detail: "disabled for this session" };
      return;
    }
    if (signal?.aborted) throw new ConnectionError("cancelled", server, "reconnect cancelled");
    // Cancelled (Esc): the attempt is closed (its process group stopped) and the server left failed.
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => {
        conn.lastFailure = { rule: "cancelled", detail: "reconnect cancelled" };
        void conn.close().finally(() => (conn.lastFailure = { rule: "cancelled", detail: "reconnect cancelled" }));
        reject(new ConnectionError("cancelled", server, "reconnect cancelled"));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
    });
    aborted.catch(() => {});
    try {
      await Promise.race([this.listing(server, mode), aborted]);
    } finally {
      if (onAbort) signal?.removeEventListener("abort", onAbort);
    }
  }

  /**
   * A server's log message (kept, emitted as `log`), list change (the list fetched again, then
   * `list-changed`: the model's next request has the new tools) or resource update.
   */
  private noticed(server: string, n: ServerNotice): void {
    if (n.kind === "updated") return this.subscriptions.updated(server, n.uri);
    const entry = n.kind === "log" ? logEntryOf(server, n.params) : undefined;
    if (entry) this.serverLogs.add(entry), this.event("log", entry);
    if (n.kind === "log") return;
    const changed = () => void this.event("list-changed", { server, list: n.list });
    this.relists.trigger(`${n.list}\0${server}`, () => this.relist(server, n.list, changed));
  }

  private async relist(server: string, list: "tools" | "prompts" | "resources", changed: () => void): Promise<void> {
    // Resources are listed afresh each time: only the line is said, at most 4 times a second.
    if (list === "resources") return new Promise<void>((r) => setTimeout(r, 250).unref()).then(changed);
    if (list === "prompts") return this.prompts.relist(server).then(changed);
    const conn = this.conns.get(server);
    if (!conn || conn.state !== "connected") return;
    // The fresh listing replaces the old one whole: the tools never vanish in between.
    return listTools(conn, policyFor(this.mode).advertiseExtensions, this.opts.config.limits.maxJsonDepth).then(
      (fresh) => {
        this.listings.set(server, new Map([[this.listingKey(conn, this.mode), fresh]]));
        changed();
      },
      () => this.listings.get(server)?.clear(),
    );
  }

  /** Each log message as it comes (the `log` event). */
  onLog = (listener: (e: LogEntry) => void): void => void this.on("log", listener);

  /** One server's log messages, or every server's, oldest first (bounded per server). */
  logs(server?: string): LogEntry[] {
    return this.serverLogs.entries(server);
  }

  /** A server's cached listing for a mode, if any. */
  private listingOf(c: Connection, mode: Mode): ToolListing | undefined {
    return this.listings.get(c.name)?.get(this.listingKey(c, mode));
  }

  /** Every configured server's name: a tool named `S__…` is qualified even before S connects. */
  private serverNames(): string[] {
    return [...this.conns.keys()];
  }

  private cached(mode: Mode): ToolEntry[][] {
    return [...this.conns.values()].map((c) => this.listingOf(c, mode)?.tools ?? []);
  }

  /**
   * Every usable tool (names unique across servers) as listed for a mode; `waitMs` bounds the
   * wait for servers not connected yet (what they have not listed by then is left out).
   */
  async tools(mode: Mode = this.mode, waitMs = Number.POSITIVE_INFINITY, known?: KnownOnly): Promise<ToolEntry[]> {
    await Promise.all(
      [...this.conns.entries()].map(([n, c]) => {
        // Known only: a server not connected is not connected here (that is /mcp reconnect's job).
        if (known?.knownOnly && c.state !== "connected") return undefined;
        const listed = this.listing(n, mode).catch(() => undefined);
        return c.state === "connected" ? listed : within(waitMs, listed, undefined);
      }),
    );
    return qualifyNames(this.cached(mode), this.serverNames());
  }

  /** tools() with every schema compiled (declined variants and schema warnings known), in slices that yield. */
  async settledTools(
    mode: Mode = this.mode,
    waitMs = Number.POSITIVE_INFINITY,
    known?: KnownOnly,
  ): Promise<ToolEntry[]> {
    return settleAllSchemas(await this.tools(mode, waitMs, known));
  }

  async toolErrors(mode: Mode = this.mode, waitMs = Number.POSITIVE_INFINITY, known?: KnownOnly): Promise<ToolError[]> {
    await this.tools(mode, waitMs, known);
    return [...this.conns.values()].flatMap((c) => this.listingOf(c, mode)?.errors ?? []);
  }

  /**
   * What a call of this tool in `mode` would send, without sending it: its requestedOutputs and
   * the client extensions advertised (compare runs one call per distinct request).
   */
  requestFor(entry: ToolEntry, mode: Mode): PlannedRequest {
    const policy = policyFor(mode);
    const advertised = entry.era === "legacy" ? [] : Object.keys(policy.advertiseExtensions);
    const conn = this.conns.get(entry.server);
    if (!conn || entry.era !== "2026-12-01") return { requested: undefined, advertised };
    return {
      requested: modeSelection(settleSchemas(entry), mode, conn.negotiated(policy.advertiseExtensions)).requested,
      advertised,
    };
  }

  modelTools(): ToolEntry[] {
    return qualifyNames(this.cached(this.mode), this.serverNames()).filter(offeredToModel);
  }

  /** The roots offered to every server ([] when none are: config `roots` or `--root`). */
  roots(): Root[] {
    return this.rootList ?? [];
  }

  /**
   * New roots (absolute directories): legacy sessions are told (roots/list_changed) and ask again.
   * Only where roots were offered from the start (the capability is fixed at connect).
   */
  async setRoots(dirs: string[]): Promise<void> {
    if (this.rootList === undefined)
      throw new Error('no roots are offered in this session (config "roots" or --root DIR)');
    this.rootList = rootsOf(dirs);
    await Promise.all([...this.conns.values()].map((c) => c.notifySession("notifications/roots/list_changed")));
  }

  instructions(): { server: string; text: string }[] {
    return [...this.conns.values()]
      .filter((c) => c.instructions)
      .map((c) => ({ server: c.name, text: c.instructions as string }));
  }

  /**
   * One call: lookup → policy and local selection check (a refused selection is never sent) →
   * request → whole-result validation → routing. A legacy-shaped result is read mcp-prism's way
   * (legacyOutputs); the validated result itself rides on the outcome (`legacyResult`), so other
   * readings (compare's client profiles) need no second wire call.
   */
  async call(qualifiedName: string, args: Record<string, unknown>, opts: CallOptions = {}): Promise<CallOutcome> {
    const started = performance.now();
    const mode = opts.mode ?? this.mode;
    const listed = this.connectedTool(qualifiedName, mode) ?? (await this.listedTool(qualifiedName, mode));
    if (!listed)
      return failedCall(
        { started, plan: unknownPlan(qualifiedName, args, mode) },
        await this.unknownTool(qualifiedName, mode),
      );
    const conn = this.conns.get(listed.server) as Connection;
    this.sampling.callStarted(listed.server);
    // Schemas compile when a tool is first called (a listing compiles none), at most once.
    const call: PendingCall = {
      started,
      plan: connectedPlan(listed, conn, args, mode),
      opts,
      entry: settleSchemas(listed),
      conn,
      effective: [],
      appExtensions: [],
      relisted: false,
    };
    const refused = checkCall(call, this.opts.config.limits.maxJsonDepth);
    if (refused) return failedCall(call, refused);
    let raw: Record<string, unknown>;
    try {
      // Multi round-trip (modern eras): the input requests answered and the call retried, bounded.
      // A 401/403 (token revoked, step-up): sign in where interactive, outside the request's timeout, and send once more.
      const send = (retry?: Retry) => this.signIns.withSignIn(conn, conn.name, () => this.requestListed(call, retry));
      const got = await withInputRounds(send, () => call.plan.era === "legacy", conn.inputAsker(opts.signal));
      if (!got.ok) return failedCall(call, callError(call.plan.server, call.plan.tool, got.rule, got.detail));
      raw = got.raw;
      const handle = taskHandle(raw, conn.era);
      if (handle)
        raw = await this.tasks.follow(conn, call.plan.tool, handle, {
          signal: opts.signal,
          asker: conn.inputAsker(opts.signal),
          onProgress: opts.onProgress,
          maxMs: this.opts.config.limits.maxCallTimeoutMs,
        });
    } catch (e) {
      if (e instanceof TaskError)
        return failedCall(call, callError(call.plan.server, call.plan.tool, e.rule, e.message));
      return failedCall(
        call,
        wireError(conn.authRefusal(e) ?? e, conn, call.plan.tool, this.opts.config.limits.callTimeoutMs, opts.signal),
      );
    }
    return finishCall(call, raw, this.opts.config.limits);
  }

  /** The tool a name means, when a connected server listed it already. */
  private connectedTool(qualifiedName: string, mode: Mode): ToolEntry | undefined {
    const cached = this.byQualifiedName(mode).get(qualifiedName);
    return cached && this.conns.get(cached.server)?.state === "connected" ? cached : undefined;
  }

  /** The tool a name means after (re)connecting and listing, bounded by connectWaitMs. */
  private async listedTool(qualifiedName: string, mode: Mode): Promise<ToolEntry | undefined> {
    return (await this.tools(mode, this.connectWaitMs)).find((t) => t.qualifiedName === qualifiedName);
  }

  /**
   * The cached listings' tools by qualified name, re-qualified only when some server's listing
   * object changed (new listing, restart with another era, invalidation): qualifying every tool
   * on every call cost more than the rest of the lookup.
   */
  private byQualifiedName(mode: Mode): Map<string, ToolEntry> {
    const from = [...this.conns.values()].map((c) => this.listingOf(c, mode));
    const hit = this.qualified.get(mode);
    if (hit && hit.from.length === from.length && hit.from.every((l, i) => l === from[i])) return hit.byName;
    const byName = new Map(
      qualifyNames(
        from.map((l) => l?.tools ?? []),
        this.serverNames(),
      ).map((t) => [t.qualifiedName, t]),
    );
    this.qualified.set(mode, { from, byName });
    return byName;
  }

  /** The checks made before anything is sent; sets the call's selection. A CallError: not sent. */
  private request(call: PendingCall, retry?: Retry): Promise<Record<string, unknown>> {
    const { plan, opts } = call;
    const params: Record<string, unknown> = { name: plan.tool, arguments: plan.args };
    if (plan.requested !== undefined) params.requestedOutputs = plan.requested;
    // 2025-11-25 asks for a task; the 2026-07-28 extension is declared in every modern request's
    // capabilities instead, and the server decides.
    if (taskSupport(call.entry) && requestorTasks(call.conn)) params.task = {};
    if (retry !== undefined) Object.assign(params, retry);
    return call.conn.request("tools/call", params, {
      extensions: policyFor(plan.mode).advertiseExtensions,
      signal: opts.signal,
      // Always: progress keeps a long call alive (the timeout restarts, up to limits.maxCallTimeoutMs).
      onprogress: (p) => opts.onProgress?.({ progress: p.progress, total: p.total, message: p.message }),
      maxTotalTimeout: Math.max(this.opts.config.limits.maxCallTimeoutMs, this.opts.config.limits.callTimeoutMs),
    });
  }

  /**
   * The request; after a HeaderMismatch (-32020: the tool's x-mcp-header parameters may have
   * changed since it was listed) the server's tools are listed again, teaching the transport the
   * current Mcp-Param headers, and the request is sent once more if the tool is still usable.
   */
  private async requestListed(call: PendingCall, retry?: Retry): Promise<Record<string, unknown>> {
    try {
      return await this.request(call, retry);
    } catch (e) {
      if (!(e instanceof McpError) || e.code !== ErrorCode.HeaderMismatch || call.relisted) throw e;
      call.relisted = true;
      const { server, tool, mode } = call.plan;
      this.listings.get(server)?.clear();
      const fresh = await this.listing(server, mode).catch(() => undefined);
      if (!fresh?.tools.some((t) => t.name === tool)) throw e;
      return this.request(call, retry);
    }
  }

  private async unknownTool(name: string, mode: Mode): Promise<CallError> {
    const rejected = (await this.toolErrors(mode, this.connectWaitMs)).find(
      (e) => e.tool === name || `${e.server}__${e.tool}` === name,
    );
    if (rejected)
      return callError(rejected.server, rejected.tool, "rejected-tool", `${rejected.detail} [${rejected.rule}]`);
    const down = [...this.conns.values()].filter((c) => c.state !== "connected" && c.lastError);
    const slow = [...this.conns.values()]
      .filter((c) => c.state === "connecting")
      .map((c) => `server ${c.name}: still connecting`);
    const reasons = [...down.map((c) => c.lastError as string), ...slow];
    const why = reasons.length ? ` (${reasons.join("; ")})` : "";
    const names = qualifyNames(this.cached(mode), this.serverNames()).flatMap((t) => [t.name, t.qualifiedName]);
    return callError("", name, "unknown-tool", `no tool named ${JSON.stringify(name)}${why}${didYouMean(name, names)}`);
  }

  /** Each server's resources and templates (resources.ts), or one server's; never rejects. */
  async resources(server?: string): Promise<ResourceListing[]> {
    const conns = [...this.conns.values()].filter((c) => server === undefined || c.name === server);
    return Promise.all(conns.map((c) => listResources(c, this.opts.config.limits)));
  }

  /** Reads a resource from `server`, else from the one server that offers or lists it. */
  async readResource(uri: string, server?: string): Promise<ReadOutcome> {
    const limits = this.opts.config.limits;
    const named = server === undefined ? undefined : this.conns.get(server);
    if (server !== undefined && !named)
      return {
        ok: false,
        error: resourceError("", uri, "unknown-server", `no server named ${JSON.stringify(server)}`),
      };
    const conn = named ?? (await serverFor([...this.conns.values()], uri, limits));
    return conn instanceof Connection ? readFrom(conn, uri, limits) : { ok: false, error: conn };
  }

  /** Signs in to HTTP server `name` now (auth/sign-ins.ts) and lists its tools again. */
  login(name: string, showUrl?: (url: string) => void): Promise<"signed-in" | "not-needed"> {
    return this.signIns.login(
      this.conns.get(name),
      name,
      showUrl,
      () => (this.listings.delete(name), this.listing(name, this.mode)),
    );
  }

  /** The app is quitting: the tasks its calls' aborts cancel from now on are said as cancelled on exit. */
  exiting(): void {
    this.tasks.exiting = true;
  }

  /** Closes every server; the tasks still running are cancelled first (`tasks-cancelled` says which). */
  async close(): Promise<void> {
    const cancelled = await this.tasks.cancelAll();
    if (cancelled.length)
      this.event(
        "tasks-cancelled",
        cancelled.map(({ server, tool, taskId }) => ({ server, tool, taskId })),
      );
    this.subscriptions.close();
    await Promise.all([...this.conns.values()].map((c) => c.close()));
  }
}
