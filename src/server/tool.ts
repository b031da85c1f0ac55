// defineTool: a tool computes ONE internal result per call; each declared variant projects it
// into its audience's output, so the server computes only the outputs a request selected.
import {
  assertDeclaration,
  isExtensionAudience,
  type ContentBlock,
  type Era,
  type JsonSchema,
  type ToolAnnotations,
  type ToolResultOutputSelector,
  type ToolResultVariant,
  type VariantTool,
} from "../protocol/index.js";
import type { InputContext } from "./input.js";

/** What a projector knows about the call it projects for. */
export interface ProjectionContext {
  /** The protocol version of the request. */
  version: string;
  era: Era;
  /** The outputs this call returns (the fallback assistant/content when none were requested). */
  selection: readonly ToolResultOutputSelector[];
  /** Extension identifiers both sides advertised on this request. */
  negotiatedExtensions: ReadonlySet<string>;
}

/** RFC 5424 severities, lowest first (the MCP LoggingLevel). */
export const LOG_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * What `run` gets. From InputContext: `elicit`, `sample`, `listRoots`, `input` ask the client
 * (MRTR in 2026-07-28+, where `run` runs again with the answers; a real request in the
 * initialize era) and `clientCapabilities` says what may be asked.
 */
export interface RunContext extends ProjectionContext, InputContext {
  /** Aborted on notifications/cancelled (stdio) or when the HTTP response stream closes. */
  signal: AbortSignal;
  /** Sends notifications/progress when the request carried a progressToken; a no-op otherwise. */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /**
   * Sends notifications/message when the request asked for logs at this level or a lower one
   * (2026-07-28: its `_meta` io.modelcontextprotocol/logLevel; the initialize era: the session's
   * logging/setLevel); a no-op otherwise.
   */
  log(level: LogLevel, data: unknown, logger?: string): Promise<void>;
  /** True when the selection includes this selector (lets `run` skip work nobody asked for). */
  wants(audience: string, format: "content" | "structured"): boolean;
}

interface VariantBase<R> {
  audience: string;
  /** Result-level `_meta` entries this variant contributes when it is selected (e.g. an extension's namespace). */
  resultMeta?: (result: R, ctx: ProjectionContext) => Record<string, unknown>;
}
export interface ContentVariantDefinition<R> extends VariantBase<R> {
  format: "content";
  project: (result: R, ctx: ProjectionContext) => ContentBlock[];
}
export interface StructuredVariantDefinition<R> extends VariantBase<R> {
  format: "structured";
  schema?: JsonSchema;
  /**
   * Prototype of SEP-3279 open question 2 (opt-in): the schema of this variant's error output
   * (`isError: true`), declared on the wire as `errorSchema` under 2026-12-01 only and checked
   * before sending. Not part of the SEP; hosts that do not know it ignore it.
   */
  errorSchema?: JsonSchema;
  project: (result: R, ctx: ProjectionContext) => unknown;
}
export type VariantDefinition<R> = ContentVariantDefinition<R> | StructuredVariantDefinition<R>;

/** Error outputs keyed by selector ("assistant/content", "programmatic/structured", …). */
export type ErrorOutputs = Record<string, ContentBlock[] | unknown>;

/**
 * A tool execution error (`isError: true`) carrying audience-specific error outputs. `run` may
 * return or throw it. The server returns the outputs matching the requested selectors; if it
 * has none of them, the call fails with a protocol-level error instead of empty outputs.
 */
export class ToolError extends Error {
  constructor(
    message: string,
    readonly outputs: ErrorOutputs,
  ) {
    super(message);
    this.name = "ToolError";
  }
}

export interface LegacyBehaviour<R> {
  /** The tool's established legacy outputSchema (else: the assistant/structured schema, if any). */
  outputSchema?: JsonSchema;
  /** The legacy structuredContent (else: the assistant/structured projection). */
  structured?: (result: R) => unknown;
  /** Append the serialized structuredContent as a text block (default true, as 2025-11-25 and 2026-07-28 recommend). */
  mirror?: boolean;
}

export interface ToolDefinition<A = Record<string, unknown>, R = unknown> {
  name: string;
  title?: string;
  description: string;
  inputSchema: { type: "object"; [key: string]: unknown };
  annotations?: ToolAnnotations;
  _meta?: Record<string, unknown>;
  outputVariants: VariantDefinition<R>[];
  run: (args: A, ctx: RunContext) => Promise<R | ToolError> | R | ToolError;
  legacy?: LegacyBehaviour<R>;
}

/** A checked tool definition, ready to register on a ToolkitServer. */
export interface DefinedTool<R = unknown> extends ToolDefinition<Record<string, unknown>, R> {
  /** The wire declaration (outputVariants without projectors). */
  declaration(): VariantTool;
  variant(sel: ToolResultOutputSelector): VariantDefinition<R> | undefined;
  /** The extension identifiers the tool's variants use. */
  extensions(): Set<string>;
}

export function wireVariant(v: VariantDefinition<unknown>): ToolResultVariant {
  if (v.format === "content") return { audience: v.audience, format: "content" };
  const out: ToolResultVariant =
    v.schema === undefined
      ? { audience: v.audience, format: "structured" }
      : { audience: v.audience, format: "structured", schema: v.schema };
  if (v.errorSchema !== undefined) Object.assign(out, { errorSchema: v.errorSchema });
  return out;
}

/**
 * Checks the declaration rules of src/protocol/declaration.ts (assistant/content present, no
 * duplicates, valid audiences and combinations, compilable schemas) and throws DeclarationError.
 * Extension negotiation is checked per request by the server, not here.
 */
export function defineTool<A = Record<string, unknown>, R = unknown>(def: ToolDefinition<A, R>): DefinedTool<R> {
  const variants = def.outputVariants.map((v) => wireVariant(v as VariantDefinition<unknown>));
  const usedExtensions = new Set(variants.filter((v) => isExtensionAudience(v.audience)).map((v) => v.audience));
  assertDeclaration(def.name, variants, { negotiatedExtensions: usedExtensions });
  const hasAssistantStructured = variants.some((v) => v.audience === "assistant" && v.format === "structured");
  if (def.legacy?.outputSchema && !def.legacy.structured && !hasAssistantStructured) {
    throw new Error(
      `tool ${JSON.stringify(def.name)}: legacy.outputSchema needs legacy.structured or an assistant/structured variant to fill structuredContent`,
    );
  }
  const tool = def as unknown as ToolDefinition<Record<string, unknown>, R>;
  return {
    ...tool,
    declaration() {
      const t: VariantTool = {
        name: def.name,
        inputSchema: def.inputSchema,
        outputVariants: variants.map((v) => ({ ...v })),
      };
      if (def.title !== undefined) t.title = def.title;
      t.description = def.description;
      if (def.annotations !== undefined) t.annotations = def.annotations;
      if (def._meta !== undefined) t._meta = def._meta;
      return t;
    },
    variant(sel) {
      return def.outputVariants.find((v) => v.audience === sel.audience && v.format === sel.format);
    },
    extensions() {
      return new Set(usedExtensions);
    },
  };
}
