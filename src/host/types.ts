// Core host types shared by the host, the model layer and the UI.
// Sinks are typed by audience, and only the router can mint the branded entries the model
// context accepts: a user, programmatic or App output cannot reach the model at compile time.
import type { Rule } from "../protocol/rules.js";
import type {
  ContentToolResultOutput,
  Era,
  JsonSchema,
  StructuredToolResultOutput,
  ToolResultOutput,
  ToolResultOutputSelector,
  ToolResultVariant,
  ToolBase,
} from "../protocol/index.js";
import type { HostError } from "./host-error.js";
import type { ValidatedLegacyResult } from "./result/validate.js";

export type { Era };

export type Mode = "chat" | "structured" | "code" | "app" | "minimal";
export const MODES: readonly Mode[] = ["chat", "structured", "code", "app", "minimal"];

/** How a host reads a legacy (2026-07-28 or older) result; `sep` is mcp-prism's own rule. */
export type LegacyProfile = "sep" | "content-only" | "structured-replaces-content" | "both" | "annotation-audience";
export const LEGACY_PROFILES: readonly LegacyProfile[] = [
  "sep",
  "content-only",
  "structured-replaces-content",
  "both",
  "annotation-audience",
];

declare const routedBrand: unique symbol;
/** Marks a value that came out of the router (nothing else may construct one). */
type Routed_<T, Sink extends string> = T & { readonly [routedBrand]: Sink };

export type AssistantOutput = ToolResultOutput<"assistant">;
export type UserOutput = ToolResultOutput<"user">;
export type ProgrammaticOutput = StructuredToolResultOutput<"programmatic">;
/** Output for an extension audience such as io.modelcontextprotocol/ui. */
export type ExtensionOutput = ToolResultOutput<`${string}/${string}`>;

export type ModelSinkEntry = Routed_<AssistantOutput, "model">;
export type UserSinkEntry = Routed_<UserOutput, "user">;
export type ProgrammaticSinkEntry = Routed_<ProgrammaticOutput, "programmatic">;
export type AppSinkEntry = Routed_<ExtensionOutput, "app">;
/** How the View receives its data: a reduced CallToolResult (`result`) or the ui output object alone (`output`). */
export type ViewProjection = "result" | "output";
/** What a View (MCP Apps iframe) is given for one call: built by the router from the App sink alone. */
export type ViewSinkEntry = Routed_<
  { readonly projection: ViewProjection; readonly payload: Readonly<Record<string, unknown>> },
  "view"
>;

export interface Routed {
  // Read-only: the router is the only writer, and an empty sink may be a shared frozen array.
  readonly model: readonly ModelSinkEntry[];
  readonly user: readonly UserSinkEntry[];
  readonly programmatic: readonly ProgrammaticSinkEntry[];
  readonly app: readonly AppSinkEntry[];
  /** Result `_meta` entries in a negotiated extension's namespace, for that extension's pane only. */
  readonly appMeta: Readonly<Record<string, unknown>>;
}
export type SinkName = "model" | "user" | "programmatic" | "app";
export const SINKS: readonly SinkName[] = ["model", "user", "programmatic", "app"];

/** Text the host writes for the model when a result went elsewhere (e.g. code mode). Never server data. */
export interface HostReceipt {
  kind: "receipt";
  text: string;
}

/**
 * Something the host found about a tool or a call that is not an error but must be seen: which
 * server, which tool, which rule, what (e.g. an outputSchema that does not compile).
 */
export type HostWarning = HostError;

/** A declared structured variant the host will not request, and why (e.g. its schema does not compile). */
export type DeclinedVariant = ToolResultVariant & { rule: string; detail: string };

/** A tool as the host knows it, after era-aware listing and declaration checks (`name` is its own name on its server). */
export interface ToolEntry extends ToolBase {
  server: string;
  /** Unique across servers: the name itself, or `server__name` on a clash. */
  qualifiedName: string;
  /** The tool's `execution` as listed (e.g. `taskSupport`). */
  execution?: Record<string, unknown>;
  era: Era;
  /** The variants the host may request (2026-12-01), or the legacy inference (content → assistant/content). */
  variants: ToolResultVariant[];
  /** Declared variants the host declines to request (never in `variants`), each with its rule. */
  declined?: DeclinedVariant[];
  /** Legacy outputSchema (2026-07-28 and older), if any. */
  legacyOutputSchema?: JsonSchema;
  /** What the host noticed about the declaration (the tool stays usable). */
  warnings?: HostWarning[];
  /** Set when the host will not call the tool at all (it is listed, not offered to the model). */
  unavailable?: { rule: Rule; detail: string };
}

export interface CallPlan {
  server: string;
  tool: string;
  args: Record<string, unknown>;
  /** What is sent as requestedOutputs; undefined = not sent (fallback or legacy era). */
  requested: ToolResultOutputSelector[] | undefined;
  era: Era;
  protocolVersion: string;
  mode: Mode;
  legacyProfile?: LegacyProfile;
}

/** A failed call: the fields (host-error.ts) and the line rendered from them. */
export interface CallError extends HostError {
  /** errorLine(this): the one line a user reads (host-written; no server stderr). Never parsed. */
  message: string;
  /** The server's last stderr lines, for the user, when they explain the failure (never for the model). */
  stderr?: string[];
  /**
   * The server's own JSON-RPC error message (rule `server-error`), bounded and made plain: the
   * one piece of server text a model may read about a failure (src/model/failure.ts).
   */
  serverMessage?: string;
}

export type SinkBytes = Record<SinkName, number>;

export interface CallSuccess {
  ok: true;
  plan: CallPlan;
  isError: boolean;
  routed: Routed;
  bytes: SinkBytes;
  /** Present when the model sink is empty: the host's receipt is what the model gets. */
  receipt?: HostReceipt;
  /** What the host did not pass on as it came, and why (e.g. structuredContent dropped). */
  warnings?: HostWarning[];
  /** A legacy result's `_meta`, kept for the record (call --json, transcript); routed to no sink. */
  resultMeta?: Record<string, unknown>;
  /**
   * A legacy-shaped era's result as validated (content, structuredContent, isError, _meta),
   * before mcp-prism's reading of it: compare reads it as other clients would.
   */
  legacyResult?: ValidatedLegacyResult;
  durationMs: number;
}

export type CallOutcome = CallSuccess | { ok: false; plan: CallPlan; error: CallError; durationMs: number };

export type { ContentToolResultOutput, StructuredToolResultOutput };

export interface ProgressUpdate {
  progress: number;
  total?: number;
  message?: string;
}

export interface CallOptions {
  mode?: Mode;
  /** Explicit selectors overriding the mode for this call (validated locally before sending). */
  select?: ToolResultOutputSelector[];
  signal?: AbortSignal;
  onProgress?: (p: ProgressUpdate) => void;
  /** The tool the caller resolved the name to (and asked approval for): refused as `tool-moved` if the name now means another. */
  target?: { server: string; tool: string };
}

/**
 * What the model layer needs from the host: the tools it may expose and a way to run one.
 * The host implements it; the model layer depends only on this interface.
 */
export interface ToolExecutor {
  /** Tools the model may call (App-only tools, `_meta.ui.visibility: ["app"]`, and unavailable ones are excluded). */
  modelTools(): ToolEntry[];
  /** Server instructions, for the system prompt. */
  instructions(): { server: string; text: string }[];
  call(qualifiedName: string, args: Record<string, unknown>, opts?: CallOptions): Promise<CallOutcome>;
}
