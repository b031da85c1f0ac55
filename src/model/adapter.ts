// The provider seam: what every model (offline, Anthropic, OpenAI-compatible) implements: take the provider-neutral messages that
// context.ts built, stream back text and tool calls.
import type { ModelCapabilities, ModelMessage } from "./context.js";
import type { TokenUsage } from "./usage.js";

export interface ModelToolSpec {
  /** Provider-valid unique name (tool-names.ts). */
  name: string;
  description?: string;
  inputSchema: { type: "object"; [key: string]: unknown };
}

export interface ModelRequest {
  system: string;
  messages: ModelMessage[];
  tools: ModelToolSpec[];
  signal?: AbortSignal;
  /** A server's sampling settings (model/sampling.ts): a lower token bound, temperature, stop sequences. */
  sampling?: { maxTokens?: number; temperature?: number; stopSequences?: string[] };
}

export type ModelStreamEvent =
  | { type: "text"; text: string }
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> }
  /** What the request cost, once, after its reply (the API's count, or the offline model's estimate). */
  | { type: "usage"; usage: TokenUsage }
  /** One line for the user while the request goes on (tools dropped for a model without them). */
  | { type: "notice"; text: string }
  /** The request failed before anything streamed and goes again after `waitMs` (retry.ts): retry `attempt` of `of`. */
  | { type: "retry"; text: string; reason: string; waitMs: number; attempt: number; of: number };

export interface ModelAdapter {
  /** e.g. "offline", "anthropic:claude-sonnet-4-5". */
  readonly id: string;
  readonly capabilities: ModelCapabilities;
  /** One model request; text streams as it comes, tool calls when complete. */
  respond(request: ModelRequest): AsyncIterable<ModelStreamEvent>;
  /** The provider's models (/model); absent where there is no list (offline). */
  listModels?(signal?: AbortSignal): Promise<string[]>;
}

export type ModelErrorKind =
  | "auth"
  | "rate-limit"
  | "overloaded"
  | "network"
  | "stream"
  | "bad-request"
  /** The request was over the model's context window (the line has the numbers when the API gave them). */
  | "context-length"
  | "api"
  | "aborted"
  | "config"
  /** A bad --model flag: the command's usage error (exit 2), not a config error. */
  | "usage";

/**
 * The provider refused the request for what it carried (HTTP 400/413): an image it could not
 * take, a request too large, or other content. `detail` is the provider's own words (bounded).
 */
export interface RefusedContent {
  what: "image" | "too-large" | "content";
  detail: string;
}

/** One clear, one-line message for anything that went wrong talking to a model. */
export class ModelError extends Error {
  constructor(
    readonly kind: ModelErrorKind,
    message: string,
    /** Set when the request's content was refused (turn.ts replaces it and retries once). */
    readonly refused?: RefusedContent,
  ) {
    super(message);
    this.name = "ModelError";
  }
}

/** The deepest `code` (ECONNREFUSED, ENOTFOUND…) or message in an error's cause chain (every provider's network errors). */
export function rootCause(e: unknown): string {
  let best = (e as Error)?.message ?? String(e);
  let cur: unknown = e;
  for (let i = 0; i < 5 && cur && typeof cur === "object"; i++) {
    const c = cur as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof c.code === "string") best = c.code;
    else if (typeof c.message === "string" && c.message) best = c.message;
    cur = c.cause;
  }
  return best;
}
