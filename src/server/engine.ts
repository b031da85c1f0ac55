// ToolkitServer: the transport-independent dual-era dispatcher. A request carrying the
// per-request `_meta` envelope is served statelessly under its version (2026-12-01 or
// 2026-07-28); `initialize` opens a legacy session (per stdio process or HTTP session) in which
// requests without the envelope are served under the negotiated legacy version.
import { createHash } from "node:crypto";
import {
  ALL_VERSIONS,
  DeclarationError,
  ErrorCode,
  LEGACY_VERSIONS,
  META,
  MODERN_VERSIONS,
  eraOf,
  isExtensionAudience,
  negotiatedAudiences,
  extensionOfAudience,
  projectToolToLegacy,
  type Capabilities,
  type Implementation,
} from "../protocol/index.js";
import { CancelledError, callLegacy, callWithVariants, type CallEnvironment } from "./call.js";
import { ChangeFeed, MAX_SUBSCRIPTIONS, type ListKind } from "./changes.js";
import { complete } from "./completion.js";
import { RpcError, invalidParams, methodNotFound } from "./errors.js";
import {
  InputRequiredSignal,
  StateSealer,
  legacyInput,
  mrtrInput,
  type ClientRequester,
  type InputContext,
} from "./input.js";
import { DEFAULT_PAGE_SIZE } from "./pagination.js";
import { PromptCatalog, type PromptDefinition } from "./prompt.js";
import { checkCacheHint, type CacheHint, type CompiledTemplate, type ResourceDefinition } from "./resource.js";
import { ResourceCatalog } from "./resources.js";
import { logSender, progressSender, requestedLogLevel } from "./senders.js";
import { LOG_LEVELS, type DefinedTool, type LogLevel } from "./tool.js";
import { isObject } from "../protocol/is-object.js";

export interface ToolkitServerOptions {
  info: Implementation;
  instructions?: string;
  tools: DefinedTool<any>[];
  resources?: ResourceDefinition[];
  /** Built with defineResourceTemplate. */
  resourceTemplates?: CompiledTemplate[];
  prompts?: PromptDefinition[];
  /** Extensions the server advertises, e.g. {"io.modelcontextprotocol/ui": {}}. */
  extensions?: Record<string, Record<string, unknown>>;
  /**
   * The caching hint of every cacheable modern result (server/discover, tools/list,
   * resources/list, resources/templates/list, resources/read unless the resource has its own,
   * prompts/list); default 5 minutes, public (nothing the demo lists depends on who asks).
   */
  cache?: CacheHint;
  /** Entries per page of resources/list, resources/templates/list and prompts/list (default 100). */
  pageSize?: number;
  /** The HMAC key of MRTR `requestState` (default: random per process; share it across replicas). */
  stateSecret?: string;
}

export const DEFAULT_CACHE_HINT: CacheHint = { ttlMs: 300_000, cacheScope: "public" };

/** Per-connection state of the initialize era (one per stdio process or HTTP session). */
export interface LegacySession {
  version?: string;
  /** What the client declared in `initialize`. */
  clientCapabilities?: Capabilities;
  /** Set by logging/setLevel; until then no notifications/message is sent. */
  logLevel?: LogLevel;
  /** The URIs subscribed with resources/subscribe (sessions that can be pushed to). */
  subscribed?: string[];
  /** Ends the session's change notifications (its connection closed). */
  unlisten?: () => void;
}

export interface Notification {
  method: string;
  params?: Record<string, unknown>;
}

export interface RequestContext {
  signal: AbortSignal;
  /** Sends a notification related to this request (progress, logs). */
  notify: (n: Notification) => Promise<void>;
  /** The connection's legacy session, when the transport supports the initialize era. */
  session?: LegacySession;
  /** Sends a request to the client related to this one (legacy sessions: elicitation, sampling, roots). */
  request?: ClientRequester;
  /** The request's JSON-RPC id (a listen stream's subscriptionId). */
  requestId?: string | number;
  /** Sends a notification outside any request (a legacy session on a connection that can: stdio). */
  push?: (n: Notification) => void;
}

export interface Envelope {
  version: string;
  clientCapabilities: Capabilities;
  clientInfo?: unknown;
}

type Params = Record<string, unknown>;

/** JSON with sorted keys: the same arguments hash the same whatever their order. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (isObject(v))
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
      .join(",")}}`;
  return JSON.stringify(v) ?? "null";
}

export class ToolkitServer {
  private readonly tools = new Map<string, DefinedTool<any>>();
  readonly resources: ResourceCatalog;
  readonly prompts: PromptCatalog;
  readonly capabilities: Capabilities;
  private readonly cache: CacheHint;
  private readonly sealer: StateSealer;
  private readonly modernMethods: Set<string>;
  private readonly legacyMethods: Set<string>;
  /** Change notifications to listen streams and legacy sessions (changes.ts). */
  private readonly changes = new ChangeFeed();

  constructor(readonly options: ToolkitServerOptions) {
    this.cache = checkCacheHint(options.cache ?? DEFAULT_CACHE_HINT, "server cache hint");
    const advertised = new Set(Object.keys(options.extensions ?? {}));
    for (const t of options.tools) {
      if (this.tools.has(t.name)) throw new Error(`tool ${JSON.stringify(t.name)} is registered twice`);
      const missing = [...new Set([...t.extensions()].map(extensionOfAudience))].filter((id) => !advertised.has(id));
      if (missing.length > 0) {
        throw new DeclarationError(
          t.name,
          missing.map((id) => ({
            rule: "unnegotiated-extension-audience" as const,
            message: `uses extension ${id}, which the server does not advertise`,
          })),
        );
      }
      this.tools.set(t.name, t);
    }
    const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
    if (!Number.isSafeInteger(pageSize) || pageSize < 1) throw new Error("pageSize must be a positive integer");
    this.resources = new ResourceCatalog(options.resources ?? [], options.resourceTemplates ?? [], pageSize);
    this.prompts = new PromptCatalog(options.prompts ?? [], pageSize);
    this.sealer = new StateSealer(options.stateSecret);
    // Advertise exactly what is served: prompts and completions only when there are some.
    // listChanged and subscribe: every list may change (addTool, …) and every resource be updated (resourceUpdated).
    const caps: Capabilities = {
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      logging: {},
    };
    const methods = ["tools/list", "tools/call", "resources/list", "resources/templates/list", "resources/read"];
    if (!this.prompts.empty) {
      caps.prompts = { listChanged: true };
      methods.push("prompts/list", "prompts/get");
    }
    if (this.prompts.completes || this.resources.completes) {
      caps.completions = {};
      methods.push("completion/complete");
    }
    this.capabilities = { ...caps, ...(options.extensions ? { extensions: options.extensions } : {}) };
    this.modernMethods = new Set(["server/discover", "subscriptions/listen", ...methods]);
    this.legacyMethods = new Set([
      "ping",
      "logging/setLevel",
      "resources/subscribe",
      "resources/unsubscribe",
      ...methods,
    ]);
  }

  /** Tells every listener that opted in that a list changed. */
  listChanged(kind: ListKind): void {
    this.changes.listChanged(kind);
  }

  /** Tells every listener subscribed to `uri` that the resource changed (read it again). */
  resourceUpdated(uri: string): void {
    this.changes.resourceUpdated(uri);
  }

  /** Adds a tool (or replaces the one of the same name) and says the tool list changed. */
  addTool(t: DefinedTool<any>): void {
    this.tools.set(t.name, t);
    this.listChanged("tools");
  }

  removeTool(name: string): void {
    if (this.tools.delete(name)) this.listChanged("tools");
  }

  /** Adds a prompt (a server that started with none serves no prompts: its methods are fixed at construction). */
  addPrompt(p: PromptDefinition): void {
    this.prompts.set(p);
    this.listChanged("prompts");
  }

  removePrompt(name: string): void {
    if (this.prompts.delete(name)) this.listChanged("prompts");
  }

  addResource(r: ResourceDefinition): void {
    this.resources.set(r);
    this.listChanged("resources");
  }

  removeResource(uri: string): void {
    if (this.resources.delete(uri)) this.listChanged("resources");
  }

  /** True when the params carry the modern per-request envelope (any of its keys). */
  static isModern(params: unknown): boolean {
    const meta = isObject(params) ? params._meta : undefined;
    return (
      isObject(meta) && (META.protocolVersion in meta || META.clientCapabilities in meta || META.clientInfo in meta)
    );
  }

  /** Reads the required `_meta` fields; a request missing one is malformed (-32602, HTTP 400). */
  static readEnvelope(params: unknown): Envelope {
    const meta = isObject(params) && isObject(params._meta) ? params._meta : undefined;
    const version = meta?.[META.protocolVersion];
    const caps = meta?.[META.clientCapabilities];
    if (typeof version !== "string" || version === "") {
      throw invalidParams(`request _meta is missing required field ${META.protocolVersion}`, 400);
    }
    if (!isObject(caps)) throw invalidParams(`request _meta is missing required field ${META.clientCapabilities}`, 400);
    return { version, clientCapabilities: caps as Capabilities, clientInfo: meta?.[META.clientInfo] };
  }

  static checkVersion(version: string): void {
    if (!(MODERN_VERSIONS as readonly string[]).includes(version)) {
      throw new RpcError(
        ErrorCode.UnsupportedProtocolVersion,
        "Unsupported protocol version",
        { supported: [...ALL_VERSIONS], requested: version },
        400,
      );
    }
  }

  /** True when this server answers the method in the modern era. */
  servesModern(method: string): boolean {
    return this.modernMethods.has(method);
  }

  /** Handles one request; throws RpcError (or CancelledError when the request was cancelled). */
  async handle(method: string, params: unknown, ctx: RequestContext): Promise<Record<string, unknown>> {
    const p: Params = isObject(params) ? params : {};
    // An initialize carrying the modern envelope is a modern request for a removed method (-32601).
    if (method === "initialize" && !ToolkitServer.isModern(params)) return this.initialize(p, ctx);
    if (ToolkitServer.isModern(params)) {
      const env = ToolkitServer.readEnvelope(params);
      ToolkitServer.checkVersion(env.version);
      if (!this.modernMethods.has(method)) throw methodNotFound(method, 404);
      return this.modern(method, p, env, ctx);
    }
    if (ctx.session?.version) {
      if (!this.legacyMethods.has(method)) throw methodNotFound(method);
      return this.legacy(method, p, ctx.session, ctx);
    }
    // Neither the envelope nor an initialized session: a modern request missing its `_meta`.
    ToolkitServer.readEnvelope(params);
    throw invalidParams("request _meta is missing"); // unreachable: readEnvelope threw
  }

  private serverMeta(extra: Record<string, unknown> = {}): Record<string, unknown> {
    return { ...extra, [META.serverInfo]: { ...this.options.info } };
  }

  private initialize(p: Params, ctx: RequestContext): Record<string, unknown> {
    if (!ctx.session) throw invalidParams("initialize is not available on this connection");
    const requested = typeof p.protocolVersion === "string" ? p.protocolVersion : "";
    const version = (LEGACY_VERSIONS as readonly string[]).includes(requested) ? requested : LEGACY_VERSIONS[0];
    ctx.session.version = version;
    ctx.session.clientCapabilities = isObject(p.capabilities) ? (p.capabilities as Capabilities) : {};
    const { extensions: _ext, ...all } = this.capabilities;
    // Only a connection that can push (stdio) gets list changes and resource subscriptions.
    const capabilities: Capabilities = ctx.push
      ? all
      : { ...all, tools: {}, resources: {}, ...(all.prompts ? { prompts: {} } : {}) };
    if (ctx.push) {
      const subscribed: string[] = (ctx.session.subscribed = []);
      ctx.session.unlisten?.();
      ctx.session.unlisten = this.changes.listen({
        filter: {
          toolsListChanged: true,
          promptsListChanged: true,
          resourcesListChanged: true,
          resourceSubscriptions: subscribed,
        },
        send: ctx.push,
      });
    }
    const result: Record<string, unknown> = {
      protocolVersion: version,
      capabilities,
      serverInfo: { ...this.options.info },
    };
    if (this.options.instructions) result.instructions = this.options.instructions;
    return result;
  }

  /** The MRTR input context of a modern request, bound to its method, name and arguments. */
  private mrtr(method: string, name: string, args: unknown, p: Params, env: Envelope): InputContext {
    const hash = createHash("sha256")
      .update(canonical(args ?? {}))
      .digest("base64url");
    return mrtrInput(p, env.clientCapabilities, `${method}\u0000${name}\u0000${hash}`, this.sealer);
  }

  private async modern(
    method: string,
    p: Params,
    env: Envelope,
    ctx: RequestContext,
  ): Promise<Record<string, unknown>> {
    // The audiences of the extensions both sides advertised (an extension may define several).
    const negotiated = negotiatedAudiences(
      env.clientCapabilities?.extensions ?? {},
      this.capabilities.extensions ?? {},
    );
    let body: Record<string, unknown>;
    // 2026-07-28 (SEP-2549): list and read results are CacheableResults (ttlMs, cacheScope).
    let cache: CacheHint | undefined = this.cache;
    try {
      switch (method) {
        case "server/discover":
          body = { supportedVersions: [...ALL_VERSIONS], capabilities: this.capabilities };
          if (this.options.instructions) body.instructions = this.options.instructions;
          break;
        case "tools/list":
          body = { tools: this.listTools(env.version, negotiated) };
          break;
        case "tools/call": {
          const input = this.mrtr(method, String(p.name), p.arguments, p, env);
          const call = await this.callTool(p, env.version, negotiated, ctx, input, requestedLogLevel(p));
          return {
            resultType: "complete",
            ...call,
            _meta: this.serverMeta(call._meta as Record<string, unknown> | undefined),
          };
        }
        case "resources/list":
          body = this.resources.list(p.cursor);
          break;
        case "resources/templates/list":
          body = this.resources.listTemplates(p.cursor);
          break;
        case "resources/read": {
          const r = await this.resources.read(p, ErrorCode.InvalidParams);
          body = r.body;
          cache = r.cache ?? cache;
          break;
        }
        case "prompts/list":
          body = this.prompts.list(p.cursor);
          break;
        case "subscriptions/listen":
          return await this.listen(p, ctx);
        case "prompts/get":
          body = await this.getPrompt(p, (name) => this.mrtr(method, name, p.arguments, p, env));
          cache = undefined;
          break;
        default: // completion/complete
          body = await complete(p, this.prompts, this.resources);
          cache = undefined;
      }
    } catch (e) {
      if (!(e instanceof InputRequiredSignal)) throw e;
      return {
        resultType: "input_required",
        inputRequests: e.inputRequests,
        requestState: e.requestState,
        _meta: this.serverMeta(),
      };
    }
    const hint = cache ? { ttlMs: cache.ttlMs, cacheScope: cache.cacheScope } : {};
    return { resultType: "complete", ...body, ...hint, _meta: this.serverMeta() };
  }

  private async legacy(
    method: string,
    p: Params,
    session: LegacySession,
    ctx: RequestContext,
  ): Promise<Record<string, unknown>> {
    const input = () => legacyInput(session.clientCapabilities ?? {}, ctx.request);
    switch (method) {
      case "ping":
        return {};
      case "logging/setLevel":
        if (!(LOG_LEVELS as readonly unknown[]).includes(p.level))
          throw invalidParams(`logging/setLevel needs a level: one of ${LOG_LEVELS.join(", ")}`);
        session.logLevel = p.level as LogLevel;
        return {};
      case "tools/list":
        return { tools: this.listTools(session.version!, new Set()) };
      case "tools/call":
        return { ...(await this.callTool(p, session.version!, new Set(), ctx, input(), session.logLevel)) };
      case "resources/list":
        return this.resources.list(p.cursor);
      case "resources/templates/list":
        return this.resources.listTemplates(p.cursor);
      case "resources/read":
        return (await this.resources.read(p, -32002)).body; // resource not found, as the initialize era defines it
      case "prompts/list":
        return this.prompts.list(p.cursor);
      case "resources/subscribe":
      case "resources/unsubscribe": {
        const list = session.subscribed;
        if (!list) throw methodNotFound(method);
        if (typeof p.uri !== "string") throw invalidParams(`${method} needs params.uri`);
        const at = list.indexOf(p.uri);
        if (method === "resources/unsubscribe" && at >= 0) list.splice(at, 1);
        if (method === "resources/subscribe" && at < 0) {
          if (list.length >= MAX_SUBSCRIPTIONS) throw invalidParams(`at most ${MAX_SUBSCRIPTIONS} subscriptions`);
          list.push(p.uri);
        }
        return {};
      }
      case "prompts/get":
        return this.getPrompt(p, input);
      default: // completion/complete
        return complete(p, this.prompts, this.resources);
    }
  }

  /**
   * subscriptions/listen: acknowledges what it agrees to, then sends the changes opted in to until
   * the client closes the stream (cancellation: no response).
   */
  private async listen(p: Params, ctx: RequestContext): Promise<never> {
    const lists = new Set<ListKind>(["tools", "resources", ...(this.prompts.empty ? [] : (["prompts"] as const))]);
    const filter = ChangeFeed.agreed(p.notifications, lists, true);
    const id = ctx.requestId ?? 0;
    await ctx.notify({
      method: "notifications/subscriptions/acknowledged",
      params: { notifications: filter, _meta: { [META.subscriptionId]: id } },
    });
    const off = this.changes.listen({ id, filter, send: (n) => void ctx.notify(n).catch(() => {}) });
    await new Promise<void>((resolve) =>
      ctx.signal.aborted ? resolve() : ctx.signal.addEventListener("abort", () => resolve(), { once: true }),
    );
    off();
    throw new CancelledError();
  }

  private async getPrompt(p: Params, input: (name: string) => InputContext): Promise<Record<string, unknown>> {
    const { prompt, args } = this.prompts.resolve(p);
    const r = await prompt.get(args, input(prompt.name));
    return r.description === undefined
      ? { messages: r.messages }
      : { description: r.description, messages: r.messages };
  }

  /** Tool declarations in the shape of the requested version. */
  listTools(version: string, negotiated: ReadonlySet<string>): Record<string, unknown>[] {
    return [...this.tools.values()].map((t) => {
      const decl = t.declaration();
      if (eraOf(version) !== "2026-12-01")
        return projectToolToLegacy(decl, t.legacy?.outputSchema) as unknown as Record<string, unknown>;
      // An extension audience is listed only when both sides advertised the extension on this request.
      decl.outputVariants = decl.outputVariants.filter(
        (v) => !isExtensionAudience(v.audience) || negotiated.has(v.audience),
      );
      return decl as unknown as Record<string, unknown>;
    });
  }

  private async callTool(
    p: Params,
    version: string,
    negotiated: ReadonlySet<string>,
    ctx: RequestContext,
    input: InputContext,
    logLevel: LogLevel | undefined,
  ): Promise<Record<string, unknown>> {
    if (typeof p.name !== "string") throw invalidParams("tools/call needs params.name");
    const tool = this.tools.get(p.name);
    if (!tool) throw invalidParams(`Unknown tool: ${p.name}`);
    if (p.arguments !== undefined && !isObject(p.arguments))
      throw invalidParams("tools/call arguments must be an object");
    const args = (p.arguments ?? {}) as Record<string, unknown>;
    const era = eraOf(version);
    const env: CallEnvironment = {
      version,
      era,
      negotiatedExtensions: negotiated,
      signal: ctx.signal,
      progress: progressSender(p, ctx),
      log: logSender(logLevel, ctx),
      input,
    };
    if (era !== "2026-12-01") return { ...(await callLegacy(tool, args, env)) };
    const r = await callWithVariants(tool, p, args, env);
    const result: Record<string, unknown> = { outputs: r.outputs };
    if (r.isError) result.isError = true;
    if (Object.keys(r.meta).length > 0) result._meta = r.meta;
    return result;
  }
}
