// The scenario servers of `mcp-prism check-client`: small 2026-12-01 servers built with the
// reference toolkit (so the wire itself is right), each bent in the one way its scenario tests,
// with a canary in every output so the model requests show which outputs a client forwarded.
// Shaped like the official conformance suite's client scenarios (a name, a description, a server
// to start, checks read afterwards) so they can be proposed upstream; the model script is ours.
import { createHash } from "node:crypto";
import { ErrorCode, UI_EXTENSION, type ContentBlock } from "../../protocol/index.js";
import { isObject } from "../../protocol/is-object.js";
import { RpcError, ToolError, ToolkitServer, defineTool, type RequestContext } from "../../server/index.js";

export const CLIENT_PROTOCOL_VERSION = "2026-12-01";
export const SCENARIO_SERVER_INFO = { name: "mcp-prism-client-scenario", version: "1.0.0" };

/** What a scenario server saw, in order: each request, and the declared variants of each tools/list it answered. */
export type Observation =
  | {
      kind: "request";
      method: string;
      /** The request's protocol version (its `_meta`, or the initialize-era session's). */
      version?: string;
      /** Extensions the client advertised on the request. */
      extensions: string[];
      tool?: string;
      /** True when the params carried `requestedOutputs` at all. */
      sentRequestedOutputs: boolean;
      /** The selectors as sent ("audience/format"; a malformed entry as its JSON). */
      requestedOutputs?: string[];
    }
  | {
      kind: "listed";
      version?: string;
      /** Each listed tool's declared selectors; null: the tool carried no outputVariants. */
      tools: Record<string, string[] | null>;
    }
  | { kind: "result"; tool: string; version?: string; isError: boolean; outputs: string[] };

/** The per-run secret strings, one per output; any of them in a model request shows where it came from. */
export interface Canaries {
  assistant: string;
  userContent: string;
  userStructured: string;
  programmatic: string;
  app: string;
  meta: string;
  unrequested: string;
  userError: string;
}

export function canaries(seed: string): Canaries {
  const c = (tag: string) => `PRISM-${tag}-${createHash("sha256").update(`${seed}/${tag}`).digest("hex").slice(0, 12)}`;
  return {
    assistant: c("ASSISTANT"),
    userContent: c("USERCONTENT"),
    userStructured: c("USERSTRUCT"),
    programmatic: c("PROGRAMMATIC"),
    app: c("APPVIEW"),
    meta: c("RESULTMETA"),
    unrequested: c("UNREQUESTED"),
    userError: c("USERERROR"),
  };
}

export interface ClientScenario {
  name: string;
  description: string;
  /** The tool the scripted model calls, with these arguments. */
  tool: string;
  args: Record<string, unknown>;
  /** What the client is asked to tell its model (the scripted model calls the tool whatever it is told). */
  prompt: string;
  /** The scenario's server; `observe` receives what it sees. */
  server(c: Canaries, observe: (o: Observation) => void): ToolkitServer;
}

const META_KEY = "com.example.conformance/trace";
const ORDER_INPUT = {
  type: "object",
  properties: { id: { type: "string", description: "The order id" } },
  required: ["id"],
} as const;
const USER_SCHEMA = {
  type: "object",
  properties: { id: { type: "string" }, note: { type: "string" } },
  required: ["id", "note"],
};
const PROGRAMMATIC_SCHEMA = {
  type: "object",
  properties: { id: { type: "string" }, ref: { type: "string" } },
  required: ["id", "ref"],
};
const APP_SCHEMA = { type: "object", properties: { view: { type: "string" } }, required: ["view"] };
const ASSISTANT_SCHEMA = {
  type: "object",
  properties: { id: { type: "string" }, status: { type: "string" } },
  required: ["id", "status"],
};

const orderId = (args: Record<string, unknown>) => (typeof args.id === "string" ? args.id.slice(0, 40) : "A-1");
const selectorsOf = (v: unknown): string[] =>
  Array.isArray(v)
    ? v.map((s) =>
        isObject(s) && typeof s.audience === "string" && typeof s.format === "string"
          ? `${s.audience}/${s.format}`
          : JSON.stringify(s).slice(0, 80),
      )
    : [];

interface Bends {
  /** Versions answered with UnsupportedProtocolVersionError (and left out of server/discover). */
  refuse?: string[];
  /** Rewrites a tools/list result (its version given). */
  list?: (tools: Record<string, unknown>[], version: string | undefined) => void;
  /** Rewrites a tools/call result, given the selectors requested. */
  call?: (result: Record<string, unknown>, requested: string[] | undefined, version: string | undefined) => void;
}

/**
 * Wraps `server.handle` (the same seam over stdio and HTTP): records each request, refuses the
 * versions the scenario does not speak, bends results, and records what was listed and returned.
 */
function instrument(server: ToolkitServer, observe: (o: Observation) => void, bends: Bends = {}): ToolkitServer {
  const handle = server.handle.bind(server);
  server.handle = async (method: string, params: unknown, ctx: RequestContext) => {
    const p = isObject(params) ? params : {};
    const meta = isObject(p._meta) ? p._meta : {};
    const declared = meta["io.modelcontextprotocol/protocolVersion"];
    const version = typeof declared === "string" ? declared : ctx.session?.version;
    const caps = meta["io.modelcontextprotocol/clientCapabilities"];
    const extensions = isObject(caps) && isObject(caps.extensions) ? Object.keys(caps.extensions).slice(0, 50) : [];
    const tool = method === "tools/call" && typeof p.name === "string" ? p.name.slice(0, 200) : undefined;
    const sent = method === "tools/call" && p.requestedOutputs !== undefined;
    observe({
      kind: "request",
      method: method.slice(0, 100),
      version,
      extensions,
      ...(tool === undefined ? {} : { tool }),
      sentRequestedOutputs: sent,
      ...(sent ? { requestedOutputs: selectorsOf(p.requestedOutputs).slice(0, 50) } : {}),
    });
    if (typeof declared === "string" && bends.refuse?.includes(declared))
      throw new RpcError(
        ErrorCode.UnsupportedProtocolVersion,
        "Unsupported protocol version",
        { supported: ["2026-07-28", "2025-11-25"].filter((v) => !bends.refuse?.includes(v)), requested: declared },
        400,
      );
    const result = await handle(method, params, ctx);
    if (method === "server/discover" && bends.refuse && Array.isArray(result.supportedVersions))
      result.supportedVersions = result.supportedVersions.filter((v: unknown) => !bends.refuse?.includes(String(v)));
    if (method === "tools/list" && Array.isArray(result.tools)) {
      bends.list?.(result.tools as Record<string, unknown>[], version);
      const tools: Record<string, string[] | null> = {};
      for (const t of result.tools as Record<string, unknown>[])
        tools[String(t.name)] = Array.isArray(t.outputVariants) ? selectorsOf(t.outputVariants) : null;
      observe({ kind: "listed", version, tools });
    }
    if (method === "tools/call" && tool !== undefined) {
      bends.call?.(result, sent ? selectorsOf(p.requestedOutputs) : undefined, version);
      observe({
        kind: "result",
        tool,
        version,
        isError: result.isError === true,
        outputs: selectorsOf(result.outputs),
      });
    }
    return result;
  };
  return server;
}

/** What every scenario's lookup_order has in common (its outputs are the scenario's). */
const orderToolBase = () => ({
  name: "lookup_order",
  description: "Looks up an order by id and says when it ships.",
  inputSchema: { ...ORDER_INPUT },
  annotations: { readOnlyHint: true },
});

/** The assistant/content variant, carrying the assistant canary (the routing checks' positive control). */
const assistantProse = (c: Canaries) => ({
  audience: "assistant",
  format: "content" as const,
  project: (id: string): ContentBlock[] => [
    { type: "text", text: `Order ${id} ships on Friday. Reference ${c.assistant}.` },
  ],
});

/** lookup_order: one variant per audience, each output carrying its own canary, and a canary in result `_meta`. */
function orderTool(c: Canaries, withApp = true) {
  return defineTool<Record<string, unknown>, string>({
    ...orderToolBase(),
    run: (args) => orderId(args),
    outputVariants: [
      { ...assistantProse(c), resultMeta: () => ({ [META_KEY]: { trace: c.meta } }) },
      {
        audience: "user",
        format: "content",
        project: (id) => [{ type: "text", text: `Order ${id}: ships Friday (${c.userContent})` }],
      },
      {
        audience: "user",
        format: "structured",
        schema: USER_SCHEMA,
        project: (id) => ({ id, note: c.userStructured }),
      },
      {
        audience: "programmatic",
        format: "structured",
        schema: PROGRAMMATIC_SCHEMA,
        project: (id) => ({ id, ref: c.programmatic }),
      },
      ...(withApp
        ? [
            {
              audience: UI_EXTENSION,
              format: "structured" as const,
              schema: APP_SCHEMA,
              project: () => ({ view: c.app }),
            },
          ]
        : []),
    ],
  });
}

const server = (
  tools: ReturnType<typeof defineTool<any, any>>[],
  extensions?: Record<string, Record<string, unknown>>,
) => new ToolkitServer({ info: { ...SCENARIO_SERVER_INFO }, tools, ...(extensions ? { extensions } : {}) });

/** The scripted model's call and the prompt: lookup_order for order `id`. */
const asks = (id: string) => ({
  tool: "lookup_order",
  args: { id },
  prompt: `When does order ${id} ship? Use the lookup_order tool.`,
});

export const CLIENT_SCENARIOS: ClientScenario[] = [
  {
    name: "routing",
    description:
      "A tool with a variant for every audience (the App one when the client advertises the Apps extension), a canary in each output and in result _meta.",
    ...asks("A-1"),
    server: (c, observe) => instrument(server([orderTool(c)], { [UI_EXTENSION]: {} }), observe),
  },
  {
    name: "unnegotiated-extension",
    description:
      "The server does not advertise the Apps extension, yet its tools/list declares an io.modelcontextprotocol/ui variant.",
    ...asks("B-2"),
    server: (c, observe) =>
      instrument(server([orderTool(c, false)]), observe, {
        list: (tools, version) => {
          if (version !== CLIENT_PROTOCOL_VERSION) return;
          for (const t of tools)
            if (Array.isArray(t.outputVariants))
              t.outputVariants.push({ audience: UI_EXTENSION, format: "structured", schema: APP_SCHEMA });
        },
      }),
  },
  {
    name: "earlier-version",
    description: "The server speaks 2026-07-28 and 2025-11-25 only: 2026-12-01 is refused with its supported versions.",
    ...asks("C-3"),
    server: (c, observe) =>
      instrument(server([orderTool(c)], { [UI_EXTENSION]: {} }), observe, { refuse: [CLIENT_PROTOCOL_VERSION] }),
  },
  {
    name: "tool-without-variants",
    description: "Under 2026-12-01 the server lists its one tool without outputVariants (a legacy Tool).",
    ...asks("D-4"),
    server: (c, observe) =>
      instrument(server([orderTool(c)], { [UI_EXTENSION]: {} }), observe, {
        list: (tools, version) => {
          if (version !== CLIENT_PROTOCOL_VERSION) return;
          for (const t of tools) delete t.outputVariants;
        },
      }),
  },
  {
    name: "error-output",
    description: "The tool fails with error outputs for the user audience only (none for the assistant).",
    ...asks("E-5"),
    server: (c, observe) =>
      instrument(
        server([
          defineTool<Record<string, unknown>, string>({
            ...orderToolBase(),
            run: () =>
              new ToolError("the order archive is offline", {
                "user/content": [{ type: "text", text: `The archive is offline (${c.userError}).` }],
                "user/structured": { id: "E-5", note: c.userError },
              }),
            outputVariants: [
              { audience: "assistant", format: "content", project: (id) => [{ type: "text", text: `Order ${id}.` }] },
              { audience: "user", format: "content", project: (id) => [{ type: "text", text: `Order ${id}.` }] },
              { audience: "user", format: "structured", schema: USER_SCHEMA, project: (id) => ({ id, note: "" }) },
            ],
          }),
        ]),
        observe,
      ),
  },
  {
    name: "unrequested-output",
    description:
      "The server adds an assistant/structured output the client did not request (a broken result), carrying a canary.",
    ...asks("F-6"),
    server: (c, observe) =>
      instrument(
        server([
          defineTool<Record<string, unknown>, string>({
            ...orderToolBase(),
            run: (args) => orderId(args),
            outputVariants: [
              assistantProse(c),
              {
                audience: "assistant",
                format: "structured",
                schema: ASSISTANT_SCHEMA,
                project: (id) => ({ id, status: "ships Friday" }),
              },
            ],
          }),
        ]),
        observe,
        {
          call: (result, requested, version) => {
            if (version !== CLIENT_PROTOCOL_VERSION || !Array.isArray(result.outputs) || result.isError) return;
            const extra = (requested ?? ["assistant/content"]).includes("assistant/structured")
              ? { audience: "assistant", format: "content", content: [{ type: "text", text: c.unrequested }] }
              : {
                  audience: "assistant",
                  format: "structured",
                  structuredContent: { id: "F-6", status: c.unrequested },
                };
            if ((requested ?? ["assistant/content"]).length < 2) result.outputs.push(extra);
          },
        },
      ),
  },
];

export function scenarioNamed(name: string): ClientScenario | undefined {
  return CLIENT_SCENARIOS.find((s) => s.name === name);
}
