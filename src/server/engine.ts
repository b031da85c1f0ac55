// ToolkitServer: the transport-independent dual-era dispatcher. A request carrying the
// per-request `_meta` envelope is served statelessly under its version (2026-12-01 or
// 2026-07-28); `initialize` opens a legacy session (per stdio process or HTTP session) in which
// requests without the envelope are served under the negotiated legacy version.
import {
  ALL_VERSIONS,
  DeclarationError,
  ErrorCode,
  LEGACY_VERSIONS,
  META,
  MODERN_VERSIONS,
  eraOf,
  isExtensionAudience,
  negotiatedExtensions,
  projectToolToLegacy,
  type Capabilities,
  type Implementation,
} from "../protocol/index.js";
import { callLegacy, callWithVariants, type CallEnvironment } from "./call.js";
import { RpcError, invalidParams, methodNotFound } from "./errors.js";
import { checkCacheHint, listEntry, type CacheHint, type ResourceDefinition } from "./resource.js";
import { LOG_LEVELS, type DefinedTool, type LogLevel } from "./tool.js";
import { isObject } from "../protocol/is-object.js";

export interface ToolkitServerOptions {
  info: Implementation;
  instructions?: string;
  tools: DefinedTool<any>[];
  resources?: ResourceDefinition[];
  /** Extensions the server advertises, e.g. {"io.modelcontextprotocol/ui": {}}. */
  extensions?: Record<string, Record<string, unknown>>;
  /**
   * The caching hint of every cacheable modern result (server/discover, tools/list,
   * resources/list, resources/templates/list, resources/read unless the resource has its own);
   * default 5 minutes, public (nothing the demo lists depends on who asks).
   */
  cache?: CacheHint;
}

export const DEFAULT_CACHE_HINT: CacheHint = { ttlMs: 300_000, cacheScope: "public" };

/** Per-connection state of the initialize era (one per stdio process or HTTP session). */
export interface LegacySession {
  version?: string;
}

export interface Notification {
  method: string;
  params?: Record<string, unknown>;
}

export interface RequestContext {
  signal: AbortSignal;
  /** Sends a notification related to this request (progress). */
  notify: (n: Notification) => Promise<void>;
  /** The connection's legacy session, when the transport supports the initialize era. */
  session?: LegacySession;
}

export interface Envelope {
  version: string;
  clientCapabilities: Capabilities;
  clientInfo?: unknown;
}

type Params = Record<string, unknown>;

const MODERN_METHODS = new Set(["server/discover", "tools/list", "tools/call", "resources/list", "resources/templates/list", "resources/read"]);
const LEGACY_METHODS = new Set(["ping", "tools/list", "tools/call", "resources/list", "resources/templates/list", "resources/read"]);

export class ToolkitServer {
  private readonly tools = new Map<string, DefinedTool<any>>();
  private readonly resources = new Map<string, ResourceDefinition>();
  readonly capabilities: Capabilities;
  private readonly cache: CacheHint;

  constructor(readonly options: ToolkitServerOptions) {
    this.cache = checkCacheHint(options.cache ?? DEFAULT_CACHE_HINT, "server cache hint");
    const advertised = new Set(Object.keys(options.extensions ?? {}));
    for (const t of options.tools) {
      if (this.tools.has(t.name)) throw new Error(`tool ${JSON.stringify(t.name)} is registered twice`);
      const missing = [...t.extensions()].filter((id) => !advertised.has(id));
      if (missing.length > 0) {
        throw new DeclarationError(t.name, missing.map((id) => ({ rule: "unnegotiated-extension-audience" as const, message: `uses extension ${id}, which the server does not advertise` })));
      }
      this.tools.set(t.name, t);
    }
    for (const r of options.resources ?? []) this.resources.set(r.uri, r);
    this.capabilities = { tools: {}, resources: {}, ...(options.extensions ? { extensions: options.extensions } : {}) };
  }

  /** True when the params carry the modern per-request envelope (any of its keys). */
  static isModern(params: unknown): boolean {
    const meta = isObject(params) ? params._meta : undefined;
    return isObject(meta) && (META.protocolVersion in meta || META.clientCapabilities in meta || META.clientInfo in meta);
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
      throw new RpcError(ErrorCode.UnsupportedProtocolVersion, "Unsupported protocol version", { supported: [...ALL_VERSIONS], requested: version }, 400);
    }
  }

  static isModernMethod(method: string): boolean {
    return MODERN_METHODS.has(method);
  }

  /** Handles one request; throws RpcError (or CancelledError when the request was cancelled). */
  async handle(method: string, params: unknown, ctx: RequestContext): Promise<Record<string, unknown>> {
    const p: Params = isObject(params) ? params : {};
    // An initialize carrying the modern envelope is a modern request for a removed method (-32601).
    if (method === "initialize" && !ToolkitServer.isModern(params)) return this.initialize(p, ctx);
    if (ToolkitServer.isModern(params)) {
      const env = ToolkitServer.readEnvelope(params);
      ToolkitServer.checkVersion(env.version);
      if (!MODERN_METHODS.has(method)) throw methodNotFound(method, 404);
      return this.modern(method, p, env, ctx);
    }
    if (ctx.session?.version) {
      if (!LEGACY_METHODS.has(method)) throw methodNotFound(method);
      return this.legacy(method, p, ctx.session.version, ctx);
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
    const result: Record<string, unknown> = {
      protocolVersion: version,
      capabilities: { tools: {}, resources: {} },
      serverInfo: { ...this.options.info },
    };
    if (this.options.instructions) result.instructions = this.options.instructions;
    return result;
  }

  private async modern(method: string, p: Params, env: Envelope, ctx: RequestContext): Promise<Record<string, unknown>> {
    const negotiated = negotiatedExtensions(env.clientCapabilities, this.capabilities);
    let body: Record<string, unknown>;
    // 2026-07-28 (SEP-2549): every result but tools/call's is a CacheableResult (ttlMs, cacheScope).
    let cache: CacheHint = this.cache;
    switch (method) {
      case "server/discover":
        body = { supportedVersions: [...ALL_VERSIONS], capabilities: this.capabilities };
        if (this.options.instructions) body.instructions = this.options.instructions;
        break;
      case "tools/list":
        body = { tools: this.listTools(env.version, negotiated) };
        break;
      case "tools/call": {
        const call = await this.callTool(p, env.version, negotiated, ctx);
        return { resultType: "complete", ...call, _meta: this.serverMeta(call._meta as Record<string, unknown> | undefined) };
      }
      case "resources/list":
        body = { resources: [...this.resources.values()].map(listEntry) };
        break;
      case "resources/templates/list":
        body = { resourceTemplates: [] };
        break;
      case "resources/read": {
        const r = this.resource(p, ErrorCode.InvalidParams);
        body = await readContents(r);
        cache = r.cache ?? cache;
        break;
      }
      default:
        throw methodNotFound(method, 404);
    }
    return { resultType: "complete", ...body, ttlMs: cache.ttlMs, cacheScope: cache.cacheScope, _meta: this.serverMeta() };
  }

  private async legacy(method: string, p: Params, version: string, ctx: RequestContext): Promise<Record<string, unknown>> {
    switch (method) {
      case "ping":
        return {};
      case "tools/list":
        return { tools: this.listTools(version, new Set()) };
      case "tools/call":
        return { ...(await this.callTool(p, version, new Set(), ctx)) };
      case "resources/list":
        return { resources: [...this.resources.values()].map(listEntry) };
      case "resources/templates/list":
        return { resourceTemplates: [] };
      default:
        return readContents(this.resource(p, -32002)); // resource not found, as the initialize era defines it
    }
  }

  /** Tool declarations in the shape of the requested version. */
  listTools(version: string, negotiated: ReadonlySet<string>): Record<string, unknown>[] {
    return [...this.tools.values()].map((t) => {
      const decl = t.declaration();
      if (eraOf(version) !== "2026-12-01") return projectToolToLegacy(decl, t.legacy?.outputSchema) as unknown as Record<string, unknown>;
      // An extension audience is listed only when both sides advertised the extension on this request.
      decl.outputVariants = decl.outputVariants.filter((v) => !isExtensionAudience(v.audience) || negotiated.has(v.audience));
      return decl as unknown as Record<string, unknown>;
    });
  }

  private async callTool(p: Params, version: string, negotiated: ReadonlySet<string>, ctx: RequestContext): Promise<Record<string, unknown>> {
    if (typeof p.name !== "string") throw invalidParams("tools/call needs params.name");
    const tool = this.tools.get(p.name);
    if (!tool) throw invalidParams(`Unknown tool: ${p.name}`);
    if (p.arguments !== undefined && !isObject(p.arguments)) throw invalidParams("tools/call arguments must be an object");
    const args = (p.arguments ?? {}) as Record<string, unknown>;
    const era = eraOf(version);
    const env: CallEnvironment = {
      version,
      era,
      negotiatedExtensions: negotiated,
      signal: ctx.signal,
      progress: progressSender(p, ctx),
      log: logSender(era === "legacy" ? undefined : p, ctx),
    };
    if (era !== "2026-12-01") return { ...(await callLegacy(tool, args, env)) };
    const r = await callWithVariants(tool, p, args, env);
    const result: Record<string, unknown> = { outputs: r.outputs };
    if (r.isError) result.isError = true;
    if (Object.keys(r.meta).length > 0) result._meta = r.meta;
    return result;
  }

  private resource(p: Params, notFoundCode: number): ResourceDefinition {
    if (typeof p.uri !== "string") throw invalidParams("resources/read needs params.uri");
    const r = this.resources.get(p.uri);
    if (!r) throw new RpcError(notFoundCode, `Resource not found: ${p.uri}`, { uri: p.uri });
    return r;
  }
}

async function readContents(r: ResourceDefinition): Promise<Record<string, unknown>> {
  const content: Record<string, unknown> = { uri: r.uri, mimeType: r.mimeType, text: await r.read() };
  if (r._meta) content._meta = r._meta;
  return { contents: [content] };
}

/** notifications/progress for the request's progressToken, strictly increasing; no token → no-op. */
function progressSender(p: Params, ctx: RequestContext): CallEnvironment["progress"] {
  const meta = isObject(p._meta) ? p._meta : {};
  const token = meta.progressToken;
  let last = -Infinity;
  return async (progress, total, message) => {
    if ((typeof token !== "string" && typeof token !== "number") || progress <= last || ctx.signal.aborted) return;
    last = progress;
    const params: Record<string, unknown> = { progressToken: token, progress };
    if (total !== undefined) params.total = total;
    if (message !== undefined) params.message = message;
    await ctx.notify({ method: "notifications/progress", params });
  };
}

/** The request's minimum log level (modern `_meta` logLevel); undefined = send no logs. */
export function requestedLogLevel(params: unknown): LogLevel | undefined {
  const meta = isObject(params) && isObject(params._meta) ? params._meta : undefined;
  const level = meta?.[META.logLevel];
  return (LOG_LEVELS as readonly unknown[]).includes(level) ? (level as LogLevel) : undefined;
}

/** notifications/message at or above the requested level; no level asked for → no-op (a MUST NOT). */
function logSender(p: Params | undefined, ctx: RequestContext): CallEnvironment["log"] {
  const min = p ? requestedLogLevel(p) : undefined;
  return async (level, data, logger) => {
    if (min === undefined || LOG_LEVELS.indexOf(level) < LOG_LEVELS.indexOf(min) || ctx.signal.aborted) return;
    const params: Record<string, unknown> = { level, data };
    if (logger !== undefined) params.logger = logger;
    await ctx.notify({ method: "notifications/message", params });
  };
}
