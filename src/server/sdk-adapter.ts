// withOutputVariants: SEP-3279 variants for a server built on the official SDK 1.x `McpServer`.
// The tools stay registered with `registerTool` (zod schemas, callbacks unchanged); the adapter
// reads them through the SDK's own tools/list and tools/call request handlers (so the SDK still
// validates arguments and outputSchema) and serves them through the toolkit, which speaks all
// three eras: 2026-12-01 clients get negotiated `outputs`; 2026-07-28 and initialize-era clients
// get the callback's `content` and `structuredContent` exactly as the SDK returns them today.
// Its registered prompts and resources (static and level-1 templates) are served as they are, each
// get or read through the SDK's handler; they are listed once, when the toolkit is built.
// The SDK's own Server cannot serve 2026-12-01: it re-validates tools/call results against its
// schema (stripping `outputs`) and its HTTP transport refuses the 2026-07-28 version header.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { ContentBlock, Implementation, JsonSchema, ToolAnnotations } from "../protocol/index.js";
import { isObject } from "../protocol/is-object.js";
import { ToolkitServer, type ToolkitServerOptions } from "./engine.js";
import { defineTool, ToolError, type DefinedTool, type RunContext, type VariantDefinition } from "./tool.js";
import { definePrompt, type PromptDefinition, type PromptMessage } from "./prompt.js";
import {
  defineResource,
  defineResourceTemplate,
  type CompiledTemplate,
  type ResourceBody,
  type ResourceDefinition,
} from "./resource.js";

/** What an SDK tool callback returned (after the SDK's own checks). */
export interface SdkToolResult {
  content: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

/** One declared variant beyond the inferred assistant ones: a projection of the SDK result. */
export type SdkVariant =
  | {
      audience: string;
      format: "content";
      project: (result: SdkToolResult, args: Record<string, unknown>) => ContentBlock[];
    }
  | {
      audience: string;
      format: "structured";
      schema?: z.ZodType;
      project: (result: SdkToolResult, args: Record<string, unknown>) => unknown;
    };

/** A content variant for `audience`. */
export function contentVariant(
  audience: string,
  project: (result: SdkToolResult, args: Record<string, unknown>) => ContentBlock[],
): SdkVariant {
  return { audience, format: "content", project };
}

/** A structured variant for `audience`, its schema a zod schema (declared as JSON Schema, checked on every call). */
export function structuredVariant<S extends z.ZodType>(
  audience: string,
  schema: S,
  project: (result: SdkToolResult, args: Record<string, unknown>) => z.input<S>,
): SdkVariant {
  return { audience, format: "structured", schema, project };
}

export interface DeclareOptions {
  /** Declare assistant/structured from the tool's outputSchema (default true when it has one, the SEP's migration inference). */
  assistantStructured?: boolean;
}

export interface OutputVariantsOptions
  extends Pick<ToolkitServerOptions, "extensions" | "cache" | "stateSecret" | "pageSize"> {
  /** Default: the McpServer's own serverInfo. */
  info?: Implementation;
  instructions?: string;
}

export interface OutputVariants {
  /** Declares `variants` for the registered tool `name`, next to its registerTool call. */
  declare(name: string, variants: SdkVariant[], options?: DeclareOptions): OutputVariants;
  /** The toolkit server for serveStdio / serveHttp: every enabled registered tool, as registered now. */
  toolkit(): Promise<ToolkitServer>;
}

type Handler = (request: Record<string, unknown>, extra: Record<string, unknown>) => Promise<unknown>;

/** The SDK's installed request handler for `method` (its wrapped, validating one). */
/** The SDK's handler for `method`, or undefined when the McpServer registered nothing that needs it. */
function optionalHandler(mcp: McpServer, method: string): Handler | undefined {
  const handlers = (mcp.server as unknown as { _requestHandlers?: Map<string, Handler> })._requestHandlers;
  return handlers instanceof Map ? handlers.get(method) : undefined;
}

function sdkHandler(mcp: McpServer, method: string): Handler {
  const h = optionalHandler(mcp, method);
  if (!h)
    throw new Error(
      `withOutputVariants: the McpServer has no ${method} handler (register a tool first; SDK 1.x McpServer expected)`,
    );
  return h;
}

interface ListedTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: { type: "object"; [key: string]: unknown };
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
  _meta?: Record<string, unknown>;
}

let nextId = 0;

/** The SDK handler's `extra`: cancellation, and progress and logs passed on through the toolkit's context. */
function extraFor(ctx: RunContext): Record<string, unknown> {
  return {
    signal: ctx.signal,
    requestId: `prism-adapter-${++nextId}`,
    _meta: { progressToken: "prism-adapter" },
    sendNotification: async (n: { method: string; params?: Record<string, unknown> }) => {
      const p = n.params ?? {};
      if (n.method === "notifications/progress" && typeof p.progress === "number") {
        await ctx.progress(
          p.progress,
          typeof p.total === "number" ? p.total : undefined,
          typeof p.message === "string" ? p.message : undefined,
        );
      } else if (n.method === "notifications/message" && typeof p.level === "string") {
        await ctx.log(
          p.level as Parameters<RunContext["log"]>[0],
          p.data,
          typeof p.logger === "string" ? p.logger : undefined,
        );
      }
    },
    sendRequest: async (r: { method: string }) => {
      throw new Error(
        `withOutputVariants: ${r.method} from a tool callback is not bridged; use the toolkit's ctx.elicit / ctx.sample`,
      );
    },
  };
}

function toolFrom(
  mcp: McpServer,
  listed: ListedTool,
  extra: SdkVariant[],
  options: DeclareOptions,
): DefinedTool<SdkToolResult> {
  const call = sdkHandler(mcp, "tools/call");
  const variants: VariantDefinition<SdkToolResult>[] = [
    { audience: "assistant", format: "content", project: (r) => r.content },
  ];
  if (listed.outputSchema && options.assistantStructured !== false) {
    variants.push({
      audience: "assistant",
      format: "structured",
      schema: listed.outputSchema,
      project: (r) => r.structuredContent,
    });
  }
  const ownAssistantContent = extra.some((v) => v.audience === "assistant" && v.format === "content");
  const argsOf = new WeakMap<SdkToolResult, Record<string, unknown>>();
  for (const v of extra) {
    // A declared variant replaces the inferred one of its selector (e.g. prose for the model instead of serialized JSON).
    const at = variants.findIndex((d) => d.audience === v.audience && d.format === v.format);
    if (at >= 0) variants.splice(at, 1);
    if (v.format === "content")
      variants.push({ audience: v.audience, format: "content", project: (r) => v.project(r, argsOf.get(r) ?? {}) });
    else {
      const schema = v.schema ? (z.toJSONSchema(v.schema, { io: "input" }) as JsonSchema) : undefined;
      variants.push({
        audience: v.audience,
        format: "structured",
        schema,
        project: (r) => v.project(r, argsOf.get(r) ?? {}),
      });
    }
  }
  return defineTool<Record<string, unknown>, SdkToolResult>({
    name: listed.name,
    title: listed.title,
    description: listed.description ?? "",
    inputSchema: listed.inputSchema,
    annotations: listed.annotations,
    _meta: listed._meta,
    outputVariants: variants,
    // Older clients get the SDK's outputSchema and structuredContent, and assistant/content as
    // content: the SDK's own content unless a declared assistant/content replaces it — then, as the
    // SEP asks of legacy results, followed by the serialized structuredContent they had before.
    legacy: {
      outputSchema: listed.outputSchema,
      structured: listed.outputSchema ? (r) => r.structuredContent : undefined,
      mirror: ownAssistantContent,
    },
    async run(args, ctx) {
      const raw = await call(
        { jsonrpc: "2.0", id: 0, method: "tools/call", params: { name: listed.name, arguments: args } },
        extraFor(ctx),
      );
      if (!isObject(raw) || !Array.isArray(raw.content))
        throw new Error(`${listed.name}: the SDK returned no CallToolResult`);
      const result = raw as unknown as SdkToolResult;
      if (result.isError) {
        const text = result.content
          .map((b) => (b.type === "text" ? b.text : ""))
          .join(" ")
          .trim();
        return new ToolError(text || `${listed.name} failed`, { "assistant/content": result.content });
      }
      argsOf.set(result, args);
      return result;
    },
  });
}

/**
 * Wraps an SDK 1.x McpServer: declare variants per tool, then serve `await adapter.toolkit()`
 * with serveStdio or serveHttp. Tools without declared variants get the SEP's inference alone
 * (content → assistant/content, outputSchema → assistant/structured).
 */
export function withOutputVariants(mcp: McpServer, options: OutputVariantsOptions = {}): OutputVariants {
  const declared = new Map<string, { variants: SdkVariant[]; options: DeclareOptions }>();
  const adapter: OutputVariants = {
    declare(name, variants, opts = {}) {
      if (declared.has(name))
        throw new Error(`withOutputVariants: variants for ${JSON.stringify(name)} are declared twice`);
      declared.set(name, { variants, options: opts });
      return adapter;
    },
    async toolkit() {
      const listing = await sdkHandler(mcp, "tools/list")(
        { jsonrpc: "2.0", id: 0, method: "tools/list", params: {} },
        {},
      );
      const tools = isObject(listing) && Array.isArray(listing.tools) ? (listing.tools as ListedTool[]) : [];
      const unknown = [...declared.keys()].filter((n) => !tools.some((t) => t.name === n));
      if (unknown.length > 0)
        throw new Error(
          `withOutputVariants: variants declared for tools the McpServer does not list: ${unknown.join(", ")}`,
        );
      const server = mcp.server as unknown as { _serverInfo?: Implementation; _instructions?: string };
      return new ToolkitServer({
        info: options.info ?? server._serverInfo ?? { name: "mcp-server", version: "0.0.0" },
        instructions: options.instructions ?? server._instructions,
        tools: tools.map((t) =>
          toolFrom(mcp, t, declared.get(t.name)?.variants ?? [], declared.get(t.name)?.options ?? {}),
        ),
        prompts: await promptsFrom(mcp),
        resources: await resourcesFrom(mcp),
        resourceTemplates: await templatesFrom(mcp),
        extensions: options.extensions,
        cache: options.cache,
        stateSecret: options.stateSecret,
        pageSize: options.pageSize,
      });
    },
  };
  return adapter;
}

// Prompts and resources registered on the McpServer are served as they are (no variants apply to
// them): listed once when the toolkit is built, each get or read through the SDK's own handler.

/** A plain `extra` for the SDK's prompt and resource handlers (they neither report progress nor ask the client). */
function plainExtra(): Record<string, unknown> {
  return {
    signal: new AbortController().signal,
    requestId: `prism-adapter-${++nextId}`,
    _meta: {},
    sendNotification: async () => {},
    sendRequest: async (r: { method: string }) => {
      throw new Error(`withOutputVariants: ${r.method} from a prompt or resource callback is not bridged`);
    },
  };
}

async function sdkRequest(
  h: Handler,
  method: string,
  params: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const r = await h({ jsonrpc: "2.0", id: ++nextId, method, params }, plainExtra());
  return isObject(r) ? r : {};
}

/** The optional string fields of a listed entry that are strings (a missing or odd one is left out). */
function strings<K extends string>(entry: Record<string, unknown>, ...keys: K[]): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  for (const k of keys) if (typeof entry[k] === "string") out[k] = entry[k] as string;
  return out;
}

async function promptsFrom(mcp: McpServer): Promise<PromptDefinition[]> {
  const list = optionalHandler(mcp, "prompts/list");
  if (!list) return [];
  const get = sdkHandler(mcp, "prompts/get");
  const listed = await sdkRequest(list, "prompts/list", {});
  const prompts = Array.isArray(listed.prompts) ? (listed.prompts as Record<string, unknown>[]) : [];
  return prompts.map((p) =>
    definePrompt({
      name: String(p.name),
      ...strings(p, "title", "description"),
      ...(Array.isArray(p.arguments) ? { arguments: p.arguments as PromptDefinition["arguments"] } : {}),
      get: async (args) => {
        const r = await sdkRequest(get, "prompts/get", { name: p.name, arguments: args });
        return {
          ...strings(r, "description"),
          messages: (Array.isArray(r.messages) ? r.messages : []) as PromptMessage[],
        };
      },
    }),
  );
}

/** The first contents of a resources/read result as the toolkit's body. */
function bodyOf(r: Record<string, unknown>): ResourceBody | undefined {
  const c = Array.isArray(r.contents) ? (r.contents[0] as Record<string, unknown> | undefined) : undefined;
  if (typeof c?.text === "string") return { text: c.text };
  if (typeof c?.blob === "string") return { blob: c.blob };
  return undefined;
}

async function resourcesFrom(mcp: McpServer): Promise<ResourceDefinition[]> {
  const list = optionalHandler(mcp, "resources/list");
  if (!list) return [];
  const read = sdkHandler(mcp, "resources/read");
  const listed = await sdkRequest(list, "resources/list", {});
  const resources = Array.isArray(listed.resources) ? (listed.resources as Record<string, unknown>[]) : [];
  return resources.map((r) =>
    defineResource({
      uri: String(r.uri),
      name: String(r.name ?? r.uri),
      ...strings(r, "title", "description"),
      mimeType: typeof r.mimeType === "string" ? r.mimeType : "application/octet-stream",
      read: async () => bodyOf(await sdkRequest(read, "resources/read", { uri: r.uri })) ?? "",
    }),
  );
}

async function templatesFrom(mcp: McpServer): Promise<CompiledTemplate[]> {
  const list = optionalHandler(mcp, "resources/templates/list");
  if (!list) return [];
  const read = sdkHandler(mcp, "resources/read");
  const listed = await sdkRequest(list, "resources/templates/list", {});
  const templates = Array.isArray(listed.resourceTemplates)
    ? (listed.resourceTemplates as Record<string, unknown>[])
    : [];
  return templates.map((t) =>
    // A template beyond level-1 `{name}` variables is refused here, naming it (the toolkit serves level 1).
    defineResourceTemplate({
      uriTemplate: String(t.uriTemplate),
      name: String(t.name ?? t.uriTemplate),
      ...strings(t, "title", "description", "mimeType"),
      read: async (_vars, uri) => bodyOf(await sdkRequest(read, "resources/read", { uri })),
    }),
  );
}
