// The Host: connection registry, tool registry and the call pipeline
// (policy → local selection check → request → validate → route). Implements ToolExecutor.
import { EventEmitter } from "node:events";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { ErrorCode, exceedsJsonDepth, sameSelector, selectorKey, tooDeepDetail } from "../protocol/index.js";
import { callError, wireError } from "./call-errors.js";
import { Connection, ConnectionError } from "./connection.js";
import { PendingCall, planOf, unknownPlan } from "./pending-call.js";
import { EraCache } from "./era-cache.js";
import { applyLegacyProfile } from "./legacy/index.js";
import { policyFor } from "./policy/index.js";
import { writeReceipt } from "./receipt.js";
import { answerInputRequests, isInputRequired, MAX_INPUT_ROUNDS, type Retry } from "./input-required.js";
import { CallSuccess } from "./outcome.js";
import { route, RoutingError } from "./router.js";
import { offeredToModel } from "./app-only.js";
import { listTools, qualifyNames, settleAllSchemas, settleSchemas, type ToolError, type ToolListing } from "./tools.js";
import type { CallError, CallOptions, CallOutcome, CallPlan, HostWarning, LegacyProfile, Mode, ProgressUpdate, Routed, ToolEntry, ToolExecutor } from "./types.js";
import { ResultValidationError, validateLegacyResult, validateVariantResult } from "./validate.js";
import { SelectionCache, selectionOf } from "./selections.js";
import type { CallFailure, HostEvent, HostOptions, PlannedRequest, ServerEvent, ServerStatus } from "./host-types.js";

export type { CallFailure, HostEvent, HostOptions, PlannedRequest, ServerEvent, ServerStatus } from "./host-types.js";

/** `p`, or `otherwise` after `ms` (Infinity: no bound). */
function within<T, U>(ms: number, p: Promise<T>, otherwise: U): Promise<T | U> {
  if (!Number.isFinite(ms)) return p;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<U>((r) => (timer = setTimeout(() => r(otherwise), ms)));
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}


const extensionsKeys = new Map<Mode, string>();
/** The listing cache key of a mode's advertised extensions (policies are constants). */
function extensionsKey(mode: Mode): string {
  let key = extensionsKeys.get(mode);
  if (key === undefined) extensionsKeys.set(mode, (key = JSON.stringify(policyFor(mode).advertiseExtensions)));
  return key;
}

const NO_OPTIONS: CallOptions = Object.freeze({});

export class Host extends EventEmitter implements ToolExecutor {
  readonly mode: Mode;
  readonly profile: LegacyProfile;
  private readonly conns = new Map<string, Connection>();
  /** Per server, one listing per advertised extension set. */
  private readonly listings = new Map<string, Map<string, ToolListing>>();
  private callIds = 0;
  /** Per tool entry and mode: the selection, for the negotiated Set it was made for. */
  private readonly selections = new SelectionCache();
  /** Per mode, the qualified tool list and the listings it was built from (valid while they are the same objects). */
  private readonly qualified = new Map<Mode, { from: (ToolListing | undefined)[]; byName: Map<string, ToolEntry> }>();
  /** Per server, its first connect and listing (Host.open); settles, never rejects. */
  private readonly starts = new Map<string, Promise<void>>();

  private constructor(readonly opts: HostOptions) {
    super();
    this.mode = opts.mode ?? opts.config.mode ?? "chat";
    this.profile = opts.profile ?? opts.config.profile ?? "sep";
    const names = opts.servers ?? Object.keys(opts.config.servers);
    const eraCache = opts.eraCache === false ? undefined : (opts.eraCache ?? EraCache.fromEnv());
    for (const name of names) {
      const cfg = Object.hasOwn(opts.config.servers, name) ? opts.config.servers[name] : undefined;
      if (!cfg) throw new ConnectionError("unknown-server", `no server named ${JSON.stringify(name)} in ${opts.config.source}`);
      this.conns.set(name, new Connection(name, cfg, opts.config.limits, opts.protocol ?? opts.config.protocol, eraCache, opts.transport));
    }
  }

  /**
   * The host with every server connecting (and listing its tools for the default mode) in the
   * background, each on its own: a `server` event (ServerEvent) says when each first settles.
   */
  static open(opts: HostOptions): Host {
    const host = new Host(opts);
    for (const name of host.conns.keys()) {
      const first = host.listing(name, host.mode).then(
        () => void host.emit("server", { name, state: "connected" } satisfies ServerEvent),
        () => void host.emit("server", { name, state: "failed" } satisfies ServerEvent),
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
    return within(waitMs, Promise.all(this.starts.values()).then(() => true as const), false as const);
  }

  /** The tool list as soon as `found` accepts it (the other servers not waited for), or once all settled. */
  async toolsWhen(found: (tools: ToolEntry[]) => boolean, mode: Mode = this.mode): Promise<ToolEntry[]> {
    const pending = new Set([...this.conns.keys()].map((n) => this.listing(n, mode).then(() => {}, () => {})));
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
        toolErrors: this.listings.get(c.name)?.get(key)?.errors ?? [],
        stderr: c.stderrTail(),
        diagnostics: c.diagnosticsTail(),
      };
    });
  }

  private listingKey(c: Connection, mode: Mode): string {
    return c.era === "legacy" ? "legacy" : extensionsKey(mode);
  }

  /** A server's tools as listed with the mode's extensions advertised (cached per extension set). */
  private async listing(server: string, mode: Mode): Promise<ToolListing> {
    const conn = this.conns.get(server);
    if (!conn) throw new ConnectionError("unknown-server", `no server named ${JSON.stringify(server)}`);
    await conn.ensureConnected();
    const key = this.listingKey(conn, mode);
    let byKey = this.listings.get(server);
    if (!byKey) this.listings.set(server, (byKey = new Map()));
    const hit = byKey.get(key);
    if (hit) return hit;
    const fresh = await listTools(conn, policyFor(mode).advertiseExtensions, this.opts.config.limits.maxJsonDepth);
    byKey.set(key, fresh);
    return fresh;
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
   * The call path's tool lookup without re-listing and re-qualifying every tool per call: the
   * qualified list is rebuilt only when some server's listing object changed (new listing,
   * restart with another era, invalidation). undefined = not cached or the server is not
   * connected: take the slow path, which (re)connects and lists.
   */
  private cachedEntry(qualifiedName: string, mode: Mode): ToolEntry | undefined {
    let hit = this.qualified.get(mode);
    let same = hit !== undefined && hit.from.length === this.conns.size;
    let i = 0;
    for (const c of this.conns.values()) {
      if (!same) break;
      same = hit!.from[i++] === this.listingOf(c, mode);
    }
    if (!same) {
      const from = [...this.conns.values()].map((c) => this.listingOf(c, mode));
      const byName = new Map(qualifyNames(from.map((l) => l?.tools ?? []), this.serverNames()).map((t) => [t.qualifiedName, t]));
      this.qualified.set(mode, (hit = { from, byName }));
    }
    const entry = hit!.byName.get(qualifiedName);
    return entry && this.conns.get(entry.server)?.state === "connected" ? entry : undefined;
  }

  /**
   * Every usable tool (names unique across servers) as listed for a mode; `waitMs` bounds the
   * wait for servers not connected yet (what they have not listed by then is left out).
   */
  async tools(mode: Mode = this.mode, waitMs = Number.POSITIVE_INFINITY): Promise<ToolEntry[]> {
    await Promise.all(
      [...this.conns.entries()].map(([n, c]) => {
        const listed = this.listing(n, mode).catch(() => undefined);
        return c.state === "connected" ? listed : within(waitMs, listed, undefined);
      }),
    );
    return qualifyNames(this.cached(mode), this.serverNames());
  }

  /** tools() with every schema compiled (declined variants and schema warnings known), in slices that yield. */
  async settledTools(mode: Mode = this.mode, waitMs = Number.POSITIVE_INFINITY): Promise<ToolEntry[]> {
    return settleAllSchemas(await this.tools(mode, waitMs));
  }

  async toolErrors(mode: Mode = this.mode, waitMs = Number.POSITIVE_INFINITY): Promise<ToolError[]> {
    await this.tools(mode, waitMs);
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
    return { requested: this.selections.forMode(settleSchemas(entry), mode, conn.negotiated(policy.advertiseExtensions)).requested, advertised };
  }

  modelTools(): ToolEntry[] {
    return qualifyNames(this.cached(this.mode), this.serverNames()).filter(offeredToModel);
  }

  instructions(): { server: string; text: string }[] {
    return [...this.conns.values()].filter((c) => c.instructions).map((c) => ({ server: c.name, text: c.instructions as string }));
  }

  call(qualifiedName: string, args: Record<string, unknown>, opts: CallOptions = NO_OPTIONS): Promise<CallOutcome> {
    return this.run(qualifiedName, args, opts, [opts.legacyProfile ?? this.profile]);
  }

  /** One wire call; its legacy result read under each profile (for compare). Variant-era tools give one outcome. */
  async callWithProfiles(qualifiedName: string, args: Record<string, unknown>, profiles: readonly LegacyProfile[], opts: CallOptions = NO_OPTIONS) {
    const each: Partial<Record<LegacyProfile, CallOutcome>> = {};
    await this.run(qualifiedName, args, opts, profiles, each);
    return each;
  }

  // The pipeline: run (tool lookup) → send (policy, local selection check) → complete (request,
  // awaits the reply) → finish (validation, routing, outcome). Only `complete` and the slow lookup
  // are async: a suspended async function keeps its frame on the heap, so the one that waits for
  // every reply holds one PendingCall, not the whole pipeline's variables (~15% of the host's
  // allocation per call).

  /** Returns the outcome under profiles[0]; `each`, when given, gets the outcome under every profile. */
  private run(
    qualifiedName: string,
    args: Record<string, unknown>,
    opts: CallOptions,
    profiles: readonly LegacyProfile[],
    each?: Partial<Record<LegacyProfile, CallOutcome>>,
  ): Promise<CallOutcome> {
    const started = performance.now();
    const id = ++this.callIds;
    const mode = opts.mode ?? this.mode;
    try {
      const entry = this.cachedEntry(qualifiedName, mode);
      if (entry === undefined) return this.runListed(new PendingCall(id, started, unknownPlan(qualifiedName, args, mode), opts, profiles, each));
      const conn = this.conns.get(entry.server) as Connection;
      return this.send(new PendingCall(id, started, planOf(entry, conn, args, mode), opts, profiles, each), entry, conn);
    } catch (e) {
      return Promise.reject(e);
    }
  }

  /** The lookup's slow path: (re)connects and lists, then sends. */
  private async runListed(call: PendingCall): Promise<CallOutcome> {
    const name = call.plan.tool;
    const mode = call.plan.mode;
    // Bounded: a call never waits on a server that is still connecting past connectWaitMs.
    const entry = (await this.tools(mode, this.connectWaitMs)).find((t) => t.qualifiedName === name);
    if (!entry) return this.failed(call, await this.unknownTool(name, mode));
    const conn = this.conns.get(entry.server) as Connection;
    return this.send(new PendingCall(call.id, call.started, planOf(entry, conn, call.plan.args, mode), call.opts, call.profiles, call.each), entry, conn);
  }

  /** Policy and local selection check (a refused selection is never sent), then the request. */
  private send(call: PendingCall, listed: ToolEntry, conn: Connection): Promise<CallOutcome> {
    const { plan, opts } = call;
    // Schemas compile when a tool is first called (a listing compiles none), at most once.
    const entry = settleSchemas(listed);
    const policy = policyFor(plan.mode);
    const negotiated = conn.negotiated(policy.advertiseExtensions);
    call.entry = entry;
    call.conn = conn;
    // A call approved (and drawn) for one server's tool never runs another's, even when names
    // moved between the approval and the call (a server connected or restarted meanwhile).
    const target = opts.target;
    if (target !== undefined && (target.server !== entry.server || target.tool !== entry.name)) {
      return Promise.resolve(this.failed(call, callError(target.server, target.tool, "tool-moved", `the name ${JSON.stringify(entry.qualifiedName)} now means server ${entry.server}, tool ${entry.name}; not run`)));
    }
    if (entry.unavailable !== undefined) return Promise.resolve(this.failed(call, callError(plan.server, plan.tool, entry.unavailable.rule, entry.unavailable.detail)));
    // Arguments (from the model, --args or a UI form) are untrusted JSON like a result.
    const maxDepth = this.opts.config.limits.maxJsonDepth;
    if (exceedsJsonDepth(plan.args, maxDepth)) return Promise.resolve(this.failed(call, callError(plan.server, plan.tool, "too-deep", `${tooDeepDetail("the arguments", maxDepth)}; not sent`)));
    if (entry.era === "2026-12-01") {
      const declined = opts.select && entry.declined?.find((d) => opts.select!.some((s) => sameSelector(s, d)));
      if (declined) {
        plan.requested = opts.select;
        const why = `${selectorKey(declined)} is declined: ${declined.detail} [${declined.rule}]`;
        return Promise.resolve(this.failed(call, callError(plan.server, plan.tool, "declined-variant", why)));
      }
      const chosen = opts.select ? selectionOf(opts.select, entry, negotiated) : this.selections.forMode(entry, plan.mode, negotiated);
      call.appExtensions = chosen.extensions;
      call.effective = chosen.effective;
      plan.requested = chosen.requested;
      const issue = chosen.issue;
      if (issue) {
        const hint = issue.rule === "unnegotiated-selector" ? " (the Apps extension is advertised only with --mode app)" : "";
        return Promise.resolve(this.failed(call, callError(plan.server, plan.tool, issue.rule, `${issue.message}${hint}`)));
      }
    } else if (opts.select) {
      const why = `the server speaks ${plan.protocolVersion}: output selection needs protocol 2026-12-01`;
      return Promise.resolve(this.failed(call, callError(plan.server, plan.tool, "selection-unsupported", why)));
    } else plan.legacyProfile = call.profiles[0];
    // Events are built only for listeners; progress is asked for only when something shows it
    // (the app always listens): a progressToken makes a server send notifications nobody reads.
    call.listened = this.listenerCount("event") > 0;
    if (call.listened) this.emit("event", { type: "call-start", id: call.id, plan } satisfies HostEvent);
    return this.complete(call);
  }

  private request(call: PendingCall, retry?: Retry): Promise<Record<string, unknown>> {
    const { plan, opts } = call;
    const params: Record<string, unknown> = { name: plan.tool, arguments: plan.args };
    if (plan.requested !== undefined) params.requestedOutputs = plan.requested;
    if (retry !== undefined) Object.assign(params, retry);
    return (call.conn as Connection).request("tools/call", params, {
      extensions: policyFor(plan.mode).advertiseExtensions,
      signal: opts.signal,
      onprogress: opts.onProgress !== undefined || call.listened ? this.progressHandler(call.id, opts) : undefined,
    });
  }

  private async complete(call: PendingCall): Promise<CallOutcome> {
    let raw: Record<string, unknown>;
    try {
      raw = await this.requestListed(call);
      // Multi round-trip (modern eras): answer the input requests and retry, a bounded number of times.
      for (let round = 1; call.plan.era !== "legacy" && isInputRequired(raw); round++) {
        const { plan } = call;
        if (round > MAX_INPUT_ROUNDS) return this.failed(call, callError(plan.server, plan.tool, "input-required-rounds", `still input_required after ${MAX_INPUT_ROUNDS} rounds`));
        const answer = answerInputRequests(raw);
        if (!answer.ok) return this.failed(call, callError(plan.server, plan.tool, answer.rule, answer.detail));
        raw = await this.requestListed(call, answer.retry);
      }
    } catch (e) {
      return this.failed(call, wireError(e, call.conn as Connection, call.plan.tool, this.opts.config.limits.callTimeoutMs, call.opts.signal));
    }
    return this.finish(call, raw);
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

  /** The whole result validated before anything is routed. */
  private finish(call: PendingCall, raw: Record<string, unknown>): CallOutcome {
    const { plan, profiles, each } = call;
    const entry = call.entry as ToolEntry;
    const limits = this.opts.config.limits;
    // No size step here: every transport refused a reply over limits.maxResultBytes already.
    let first: CallOutcome;
    try {
      if (entry.era === "2026-12-01") {
        const v = validateVariantResult(raw, call.effective, entry.variants, limits);
        const routed = route(v.outputs, { appExtensions: call.appExtensions, meta: v.meta });
        first = this.success(plan, routed, v.isError, entry, call.started);
        if (each) for (const p of profiles) each[p] = first;
      } else first = this.legacyOutcomes(call, raw);
    } catch (e) {
      if (e instanceof ResultValidationError) return this.failed(call, callError(plan.server, plan.tool, e.rule, `invalid result: ${e.message}`));
      if (e instanceof RoutingError) return this.failed(call, callError(plan.server, plan.tool, "unroutable-output", e.message));
      throw e;
    }
    if (call.listened) this.emit("event", { type: "call-end", id: call.id, outcome: first } satisfies HostEvent);
    return first;
  }

  /** The legacy result read under each profile; every profile is read (and may fail) before any outcome is handed out. */
  private legacyOutcomes(call: PendingCall, raw: Record<string, unknown>): CallOutcome {
    const { plan, profiles, each } = call;
    const entry = call.entry as ToolEntry;
    const v = validateLegacyResult(raw, entry.legacyOutputSchema, this.opts.config.limits);
    const warnings = v.warnings?.map((w): HostWarning => ({ server: plan.server, tool: plan.tool, rule: w.rule, detail: w.detail }));
    const outcomes = profiles.map((p) => {
      const o = this.success({ ...plan, legacyProfile: p }, route(applyLegacyProfile(p, v), { appExtensions: [] }), v.isError, entry, call.started);
      if (warnings) o.warnings = warnings;
      if (v.meta !== undefined && Object.keys(v.meta).length > 0) o.resultMeta = v.meta;
      return o;
    });
    if (each) profiles.forEach((p, i) => (each[p] = outcomes[i]));
    return outcomes[0];
  }

  private progressHandler(id: number, opts: CallOptions): (p: { progress: number; total?: number; message?: string }) => void {
    return (p) => {
      const progress: ProgressUpdate = { progress: p.progress, total: p.total, message: p.message };
      opts.onProgress?.(progress);
      this.emit("event", { type: "call-progress", id, progress } satisfies HostEvent);
    };
  }

  private failed(call: PendingCall, error: CallError): CallOutcome {
    const { plan, each } = call;
    const outcome: CallOutcome = { ok: false, plan, error, durationMs: performance.now() - call.started };
    const failure: CallFailure = { server: plan.server, tool: plan.tool, rule: error.rule, message: error.message };
    this.emit("event", { type: "call-end", id: call.id, outcome, failure } satisfies HostEvent);
    if (each) for (const p of call.profiles) each[p] = outcome;
    return outcome;
  }

  private success(plan: CallPlan, routed: Routed, isError: boolean, entry: ToolEntry, started: number): CallSuccess {
    const outcome = new CallSuccess(plan, isError, routed, performance.now() - started);
    if (routed.model.length === 0) outcome.receipt = writeReceipt(entry.name, routed, outcome.bytes, entry.variants, isError);
    return outcome;
  }

  private async unknownTool(name: string, mode: Mode): Promise<CallError> {
    const rejected = (await this.toolErrors(mode, this.connectWaitMs)).find((e) => e.tool === name || `${e.server}__${e.tool}` === name);
    if (rejected) return { rule: "rejected-tool", message: rejected.message };
    const down = [...this.conns.values()].filter((c) => c.state !== "connected" && c.lastError);
    const slow = [...this.conns.values()].filter((c) => c.state === "connecting").map((c) => `server ${c.name}: still connecting`);
    const reasons = [...down.map((c) => c.lastError as string), ...slow];
    const why = reasons.length ? ` (${reasons.join("; ")})` : "";
    return { rule: "unknown-tool", message: `no tool named ${JSON.stringify(name)}${why}` };
  }

  async close(): Promise<void> {
    await Promise.all([...this.conns.values()].map((c) => c.close()));
  }
}
