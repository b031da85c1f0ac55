// Everything the checks share: the connections to the server under test, and memoized
// observations (discovery, tools/list per version, each distinct tools/call), so that the many
// checks reading one call's reply cost one request.
import {
  META,
  MODERN_LEGACY_SHAPE_VERSION,
  UI_EXTENSION,
  VARIANTS_VERSION,
  selectorKey,
  type ToolResultOutputSelector,
} from "../protocol/index.js";
import { MissingPrerequisite } from "./check.js";
import { HttpConnection, paramHeadersFor } from "./http-client.js";
import { sampleArguments } from "./sample-args.js";
import { StdioConnection } from "./stdio-client.js";
import { isObject, type RawConnection, type RpcReply } from "./wire.js";

export type Target = { kind: "stdio"; command: string; args: string[] } | { kind: "http"; url: string };

export interface ContextOptions {
  target: Target;
  timeoutMs: number;
  /** --args TOOL=JSON overrides of the generated arguments. */
  argOverrides?: Record<string, Record<string, unknown>>;
  /** --allow-writes: call tools that are not marked readOnlyHint too (with made-up arguments). */
  allowWrites?: boolean;
  /** --call TOOL: tools to call whatever their annotations say. */
  calls?: string[];
}

/** What the server offers, from server/discover (or, without it, from a 2026-12-01 tools/list). */
export interface Offer {
  /** Answers modern (per-request `_meta`) requests. */
  modern: boolean;
  /** Offers 2026-12-01, so the SEP-3279 checks apply. */
  variants: boolean;
  /** One line for a check that does not apply. */
  summary: string;
}

export const CLIENT_INFO = { name: "mcp-prism-check", version: "0.1.0" };
/** The legacy version the initialize-era checks negotiate. */
export const LEGACY_CHECK_VERSION = "2025-11-25";
export type LegacyEra = "2026-07-28" | "2025-11-25";

/** A tool as listed under 2026-12-01; `variants` keeps only well-formed selectors (the declaration checks read `raw`). */
export interface ListedTool {
  name: string;
  inputSchema: unknown;
  raw: Record<string, unknown>;
  variants: { audience: string; format: "content" | "structured"; schema?: unknown }[];
}

/** One observed exchange: the reply, or why there was none. */
export interface Exchange {
  params: Record<string, unknown>;
  reply?: RpcReply;
  failure?: Error;
}

export interface CallSpec {
  tool: string;
  args: Record<string, unknown>;
  requested?: ToolResultOutputSelector[];
  /** Extension ids the client advertises on this request. */
  extensions?: string[];
  version?: string;
}

export type ProbeOutcome =
  | { kind: "success"; exchange: Exchange }
  | { kind: "isError"; exchange: Exchange }
  | { kind: "refused"; exchange: Exchange; why: string };

const EXTENSION_SETTINGS: Record<string, Record<string, unknown>> = {
  [UI_EXTENSION]: { mimeTypes: ["text/html;profile=mcp-app"] },
};

export function describeFailure(x: Exchange): string {
  if (x.failure) return x.failure.message;
  if (x.reply?.kind === "error") return `error ${x.reply.error.code} ${JSON.stringify(x.reply.error.message)}`;
  return "no reply";
}

export class CheckContext {
  readonly timeoutMs: number;
  private shared: Promise<RawConnection> | undefined;
  private readonly opened: RawConnection[] = [];
  private readonly memo = new Map<string, Promise<unknown>>();
  /** Per tool name, whether its listing marks it readOnlyHint (calls to a tool known to write are refused locally). */
  private readonly readOnly = new Map<string, boolean>();
  /** Per tool, the selectors of its answered calls ("legacy" for a legacy-era call). */
  private readonly answered = new Map<string, Set<string>>();

  constructor(readonly options: ContextOptions) {
    this.timeoutMs = options.timeoutMs;
  }

  get transport(): "stdio" | "http" {
    return this.options.target.kind;
  }

  /** A new connection: a fresh process (stdio) or a new client without a session (HTTP). */
  async openConnection(): Promise<RawConnection> {
    const t = this.options.target;
    const c =
      t.kind === "stdio"
        ? await StdioConnection.start(t.command, t.args, this.timeoutMs)
        : new HttpConnection(t.url, this.timeoutMs);
    this.opened.push(c);
    return c;
  }

  /** The connection every modern (per-request `_meta`) request shares: the protocol is stateless. */
  connection(): Promise<RawConnection> {
    this.shared ??= this.openConnection();
    return this.shared;
  }

  async close(): Promise<void> {
    await Promise.all(this.opened.map((c) => c.close().catch(() => {})));
  }

  private once<T>(key: string, make: () => Promise<T>): Promise<T> {
    let p = this.memo.get(key) as Promise<T> | undefined;
    if (!p) {
      p = make();
      this.memo.set(key, p);
    }
    return p;
  }

  meta(version: string, extensions: readonly string[] = []): Record<string, unknown> {
    const caps: Record<string, unknown> = {};
    if (extensions.length > 0)
      caps.extensions = Object.fromEntries(extensions.map((id) => [id, EXTENSION_SETTINGS[id] ?? {}]));
    return { [META.protocolVersion]: version, [META.clientInfo]: CLIENT_INFO, [META.clientCapabilities]: caps };
  }

  /** Sends one modern request (not memoized). */
  async exchange(method: string, params: Record<string, unknown>, headers?: Record<string, string>): Promise<Exchange> {
    try {
      const conn = await this.connection();
      return { params, reply: await conn.request(method, params, { headers }) };
    } catch (e) {
      return { params, failure: e as Error };
    }
  }

  modern(
    method: string,
    version: string,
    extensions: readonly string[] = [],
    extra: Record<string, unknown> = {},
  ): Promise<Exchange> {
    const key = JSON.stringify(["modern", method, version, extensions, extra]);
    return this.once(key, () => this.exchange(method, { ...extra, _meta: this.meta(version, extensions) }));
  }

  // ---------------------------------------------------------------- discovery

  discover(): Promise<Exchange> {
    return this.modern("server/discover", VARIANTS_VERSION);
  }

  /** The discovery result, or MissingPrerequisite. */
  async discovery(): Promise<{
    supportedVersions: string[];
    extensions: Record<string, unknown>;
    result: Record<string, unknown>;
  }> {
    const x = await this.discover();
    if (x.reply?.kind !== "result") throw new MissingPrerequisite(`needs server/discover: ${describeFailure(x)}`);
    const r = x.reply.result;
    const versions = Array.isArray(r.supportedVersions)
      ? r.supportedVersions.filter((v): v is string => typeof v === "string")
      : [];
    const caps = isObject(r.capabilities) ? r.capabilities : {};
    return { supportedVersions: versions, extensions: isObject(caps.extensions) ? caps.extensions : {}, result: r };
  }

  /**
   * Does the server offer 2026-12-01 (and answer modern requests at all)? By server/discover; a
   * server without it that still lists 2026-12-01 tools (outputVariants) is a modern server whose
   * discover is broken, which the discovery checks report.
   */
  offer(): Promise<Offer> {
    return this.once("offer", async () => {
      const x = await this.discover();
      if (x.reply?.kind === "result") {
        const versions = Array.isArray(x.reply.result.supportedVersions)
          ? x.reply.result.supportedVersions.map(String)
          : [];
        const variants = versions.includes(VARIANTS_VERSION);
        return {
          modern: true,
          variants,
          summary: `the server does not offer ${VARIANTS_VERSION} (supportedVersions: ${versions.join(", ") || "none"})`,
        };
      }
      const list = await this.toolsListExchange(false);
      const tools =
        list.reply?.kind === "result" && Array.isArray(list.reply.result.tools) ? list.reply.result.tools : [];
      if (tools.some((t) => isObject(t) && Array.isArray(t.outputVariants)))
        return { modern: true, variants: true, summary: "" };
      try {
        const { version } = await this.legacyConnection();
        return {
          modern: false,
          variants: false,
          summary: `the server does not implement server/discover (${describeFailure(x)}); it speaks ${version} through initialize`,
        };
      } catch (e) {
        if (!(e instanceof MissingPrerequisite)) throw e;
        // Neither discover nor initialize works: not a legacy server; every check runs and says so.
        return { modern: true, variants: true, summary: "" };
      }
    });
  }

  private remember(raw: Record<string, unknown>): void {
    const annotations = isObject(raw.annotations) ? raw.annotations : {};
    if (typeof raw.name === "string") this.readOnly.set(raw.name, annotations.readOnlyHint === true);
  }

  /** May this tool be called? Only if it is marked readOnlyHint, unless --allow-writes or --call TOOL. */
  mayCall(name: string): boolean {
    return (
      this.options.allowWrites === true ||
      this.options.calls?.includes(name) === true ||
      this.readOnly.get(name) !== false
    );
  }

  /** Is the tool marked readOnlyHint (so two calls with the same arguments should agree)? */
  readOnlyTool(name: string): boolean {
    return this.readOnly.get(name) === true;
  }

  /** Why a tool is left uncalled, for a check's "not exercised: …" note. */
  static notCalled(name: string): string {
    return `${name} (not marked readOnlyHint: not called; --call ${name} --args JSON or --allow-writes calls it)`;
  }

  private record(tool: string, selectors: string[], x: Exchange): Exchange {
    if (x.reply?.kind === "result") {
      const set = this.answered.get(tool) ?? new Set<string>();
      for (const s of selectors) set.add(s);
      this.answered.set(tool, set);
    }
    return x;
  }

  /** The selectors of the answered calls to a tool ("legacy" for a legacy-era call), or undefined if none was answered. */
  answeredSelectors(tool: string): ReadonlySet<string> | undefined {
    return this.answered.get(tool);
  }

  /** Catalog tools that may be called, and the notes for the others. */
  async callable(): Promise<{ tools: ListedTool[]; skipped: string[] }> {
    const all = await this.catalog();
    return {
      tools: all.filter((t) => this.mayCall(t.name)),
      skipped: all.filter((t) => !this.mayCall(t.name)).map((t) => CheckContext.notCalled(t.name)),
    };
  }

  /** Extensions the server advertises (none when discovery failed). */
  async serverExtensions(): Promise<string[]> {
    try {
      return Object.keys((await this.discovery()).extensions);
    } catch {
      return [];
    }
  }

  // ---------------------------------------------------------------- tools/list under 2026-12-01

  /** tools/list under 2026-12-01, with or without the server's extensions advertised by the client. */
  async toolsListExchange(withExtensions: boolean): Promise<Exchange> {
    const ext = withExtensions ? await this.serverExtensions() : [];
    return this.modern("tools/list", VARIANTS_VERSION, ext);
  }

  async listedTools(withExtensions: boolean): Promise<ListedTool[]> {
    const x = await this.toolsListExchange(withExtensions);
    if (x.reply?.kind !== "result") throw new MissingPrerequisite(`needs tools/list: ${describeFailure(x)}`);
    const tools = x.reply.result.tools;
    if (!Array.isArray(tools)) throw new MissingPrerequisite("needs tools/list: the result has no tools array");
    const listed = tools.filter(isObject).filter((t) => typeof t.name === "string");
    for (const t of listed) this.remember(t);
    return listed.map(toListedTool);
  }

  /** The catalog the checks work from: every tool with every variant the server will negotiate. */
  catalog(): Promise<ListedTool[]> {
    return this.listedTools(true);
  }

  argsFor(tool: ListedTool): Record<string, unknown> {
    return this.options.argOverrides?.[tool.name] ?? sampleArguments(tool.inputSchema);
  }

  // ---------------------------------------------------------------- tools/call

  /** One tools/call under 2026-12-01 (or spec.version); memoized per distinct request. */
  call(spec: CallSpec, listed?: ListedTool): Promise<Exchange> {
    const version = spec.version ?? VARIANTS_VERSION;
    const extensions = spec.extensions ?? [];
    const params: Record<string, unknown> = { name: spec.tool, arguments: spec.args };
    if (spec.requested !== undefined) params.requestedOutputs = spec.requested;
    params._meta = this.meta(version, extensions);
    const key = JSON.stringify(["call", params]);
    if (!this.mayCall(spec.tool))
      return Promise.resolve({ params, failure: new Error(`not called: ${CheckContext.notCalled(spec.tool)}`) });
    const headers = this.transport === "http" && listed ? paramHeadersFor(listed.inputSchema, spec.args) : undefined;
    const selectors = (spec.requested ?? [{ audience: "assistant", format: "content" }]).map(selectorKey);
    return this.once(key, async () =>
      this.record(spec.tool, selectors, await this.exchange("tools/call", params, headers)),
    );
  }

  /** The fallback call (no requestedOutputs) with generated arguments: does this tool succeed? */
  probe(tool: ListedTool): Promise<ProbeOutcome> {
    return this.once(`probe:${tool.name}`, async () => {
      const exchange = await this.call({ tool: tool.name, args: this.argsFor(tool) }, tool);
      if (exchange.reply?.kind !== "result")
        return { kind: "refused" as const, exchange, why: describeFailure(exchange) };
      return { kind: exchange.reply.result.isError === true ? ("isError" as const) : ("success" as const), exchange };
    });
  }

  /** Tools whose fallback call succeeded, and why the others are left out. */
  async successfulTools(): Promise<{ tools: ListedTool[]; skipped: string[] }> {
    const tools: ListedTool[] = [];
    const { tools: callable, skipped } = await this.callable();
    for (const t of callable) {
      const p = await this.probe(t);
      const args = JSON.stringify(this.argsFor(t));
      if (p.kind === "success") tools.push(t);
      else if (p.kind === "isError")
        skipped.push(`${t.name} (isError on arguments ${args}; pass --args ${t.name}=JSON)`);
      else skipped.push(`${t.name} (call failed: ${p.why})`);
    }
    return { tools, skipped };
  }

  /** Tools whose fallback call returned isError (the error-output checks use these). */
  async failingTools(): Promise<ListedTool[]> {
    const out: ListedTool[] = [];
    for (const t of (await this.callable()).tools) if ((await this.probe(t)).kind === "isError") out.push(t);
    return out;
  }

  /** Selections to exercise: each declared variant alone, then all of them together. */
  async selectionsFor(tool: ListedTool): Promise<CallSpec[]> {
    const advertised = new Set(await this.serverExtensions());
    const usable = dedupe(tool.variants).filter((v) => !isExtension(v.audience) || advertised.has(v.audience));
    const specFor = (sel: ToolResultOutputSelector[]): CallSpec => ({
      tool: tool.name,
      args: this.argsFor(tool),
      requested: sel,
      extensions: [...new Set(sel.filter((s) => isExtension(s.audience)).map((s) => s.audience))],
    });
    const specs = usable.map((v) => specFor([{ audience: v.audience, format: v.format }]));
    if (usable.length > 1) specs.push(specFor(usable.map((v) => ({ audience: v.audience, format: v.format }))));
    return specs;
  }

  // ---------------------------------------------------------------- legacy eras

  /** Is the era served? 2026-07-28 by discovery's list; 2025-11-25 by an initialize handshake on a fresh connection. */
  async legacyConnection(): Promise<{ conn: RawConnection; version: string; result: Record<string, unknown> }> {
    return this.once("legacy-connection", async () => {
      let conn: RawConnection;
      try {
        conn = await this.openConnection();
      } catch (e) {
        throw new MissingPrerequisite(`needs a fresh connection for initialize: ${(e as Error).message}`);
      }
      const params = { protocolVersion: LEGACY_CHECK_VERSION, capabilities: {}, clientInfo: CLIENT_INFO };
      let reply: RpcReply;
      try {
        reply = await conn.request("initialize", params);
      } catch (e) {
        throw new MissingPrerequisite(`initialize (${LEGACY_CHECK_VERSION}): ${(e as Error).message}`);
      }
      if (reply.kind !== "result")
        throw new MissingPrerequisite(
          `server does not serve ${LEGACY_CHECK_VERSION}: initialize was refused (${describeFailure({ params, reply })})`,
        );
      const version =
        typeof reply.result.protocolVersion === "string" ? reply.result.protocolVersion : LEGACY_CHECK_VERSION;
      await conn.notify("notifications/initialized");
      return { conn, version, result: reply.result };
    });
  }

  async requireEra(era: LegacyEra): Promise<void> {
    if (era === "2025-11-25") {
      await this.legacyConnection();
      return;
    }
    const d = await this.discovery();
    if (!d.supportedVersions.includes(MODERN_LEGACY_SHAPE_VERSION)) {
      throw new MissingPrerequisite(
        `server does not list ${MODERN_LEGACY_SHAPE_VERSION} in supportedVersions (supporting earlier versions is optional)`,
      );
    }
  }

  /** A request under a legacy era: modern envelope at 2026-07-28, the initialized session at 2025-11-25. */
  legacyRequest(
    era: LegacyEra,
    method: string,
    params: Record<string, unknown>,
    listed?: ListedTool,
  ): Promise<Exchange> {
    if (method === "tools/call" && typeof params.name === "string" && !this.mayCall(params.name)) {
      return Promise.resolve({ params, failure: new Error(`not called: ${CheckContext.notCalled(params.name)}`) });
    }
    return this.once(JSON.stringify(["legacy", era, method, params]), async () => {
      await this.requireEra(era);
      if (era === "2026-07-28") {
        const full = { ...params, _meta: this.meta(MODERN_LEGACY_SHAPE_VERSION) };
        const args = isObject(params.arguments) ? params.arguments : {};
        const headers = this.transport === "http" && listed ? paramHeadersFor(listed.inputSchema, args) : undefined;
        const x = await this.exchange(method, full, headers);
        return method === "tools/call" && typeof params.name === "string" ? this.record(params.name, ["legacy"], x) : x;
      }
      const { conn } = await this.legacyConnection();
      try {
        const x: Exchange = { params, reply: await conn.request(method, params) };
        return method === "tools/call" && typeof params.name === "string" ? this.record(params.name, ["legacy"], x) : x;
      } catch (e) {
        return { params, failure: e as Error };
      }
    });
  }

  /** Legacy tools/list of one era, by tool name. */
  async legacyTools(era: LegacyEra): Promise<Map<string, Record<string, unknown>>> {
    const x = await this.legacyRequest(era, "tools/list", {});
    if (x.reply?.kind !== "result" || !Array.isArray(x.reply.result.tools)) {
      throw new MissingPrerequisite(
        `needs tools/list under ${era}: ${x.reply?.kind === "result" ? "no tools array" : describeFailure(x)}`,
      );
    }
    const tools = x.reply.result.tools.filter(isObject);
    // A tool the 2026-12-01 listing already marked keeps that mark; a legacy-only listing marks its own.
    for (const t of tools) if (typeof t.name === "string" && !this.readOnly.has(t.name)) this.remember(t);
    return new Map(tools.map((t) => [String(t.name), t]));
  }

  /**
   * A legacy era's tools as the legacy checks call them when the server has no 2026-12-01
   * catalog: those marked readOnlyHint (or all, with --allow-writes) whose call succeeds.
   */
  async legacyCallable(era: LegacyEra): Promise<{ tools: ListedTool[]; skipped: string[] }> {
    const tools: ListedTool[] = [];
    const skipped: string[] = [];
    for (const raw of (await this.legacyTools(era)).values()) {
      const t = toListedTool(raw);
      if (!this.mayCall(t.name)) skipped.push(CheckContext.notCalled(t.name));
      else {
        const x = await this.legacyRequest(era, "tools/call", { name: t.name, arguments: this.argsFor(t) }, t);
        if (x.reply?.kind === "result" && x.reply.result.isError !== true) tools.push(t);
        else
          skipped.push(
            `${t.name} (${x.reply?.kind === "result" ? `isError on arguments ${JSON.stringify(this.argsFor(t))}; pass --args ${t.name}=JSON` : `call failed: ${describeFailure(x)}`})`,
          );
      }
    }
    return { tools, skipped };
  }
}

export const isExtension = (audience: string): boolean => audience.includes("/");

export function dedupe<T extends ToolResultOutputSelector>(variants: T[]): T[] {
  const seen = new Set<string>();
  return variants.filter((v) => {
    const k = selectorKey(v);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

export function toListedTool(raw: Record<string, unknown>): ListedTool {
  const list = Array.isArray(raw.outputVariants) ? raw.outputVariants : [];
  const variants = list
    .filter(isObject)
    .filter((v) => typeof v.audience === "string" && (v.format === "content" || v.format === "structured"))
    .map((v) => ({
      audience: v.audience as string,
      format: v.format as "content" | "structured",
      ...(v.schema !== undefined ? { schema: v.schema } : {}),
    }));
  return { name: raw.name as string, inputSchema: raw.inputSchema, raw, variants };
}
