// What every model (offline, Anthropic) implements: take the provider-neutral messages that
// context.ts built, stream back text and tool calls.
import type { ModelCapabilities, ModelMessage } from "./context.js";

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
}

export type ModelStreamEvent =
  | { type: "text"; text: string }
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> };

export interface ModelAdapter {
  /** e.g. "offline", "anthropic:claude-sonnet-4-5". */
  readonly id: string;
  readonly capabilities: ModelCapabilities;
  /** One model request; text streams as it comes, tool calls when complete. */
  respond(request: ModelRequest): AsyncIterable<ModelStreamEvent>;
}

export type ModelErrorKind =
  | "auth"
  | "rate-limit"
  | "overloaded"
  | "network"
  | "stream"
  | "bad-request"
  | "api"
  | "aborted"
  | "config";

/** One clear, one-line message for anything that went wrong talking to a model. */
export class ModelError extends Error {
  constructor(
    readonly kind: ModelErrorKind,
    message: string,
  ) {
    super(message);
    this.name = "ModelError";
  }
}
