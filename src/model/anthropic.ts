// Anthropic Messages API adapter: neutral messages (context.ts) → Anthropic params, streamed.
import type Anthropic from "@anthropic-ai/sdk";
import { createHash } from "node:crypto";

// The SDK is loaded on the first request, not at start-up (it is a large share of module loading).
type Sdk = typeof import("@anthropic-ai/sdk").default;
let sdkModule: Promise<Sdk> | undefined;
const loadSdk = () => (sdkModule ??= import("@anthropic-ai/sdk").then((m) => m.default));
import type {
  ContentBlockParam,
  ImageBlockParam,
  MessageParam,
  TextBlockParam,
  Tool,
} from "@anthropic-ai/sdk/resources/messages/messages.js";
import {
  ANTHROPIC_CAPABILITIES,
  type ModelCapabilities,
  type ModelContentBlock,
  type ModelMessage,
} from "./context.js";
import { fromAnthropicUsage } from "./usage.js";
import { afterRetries, withRetries } from "./retry.js";
import {
  ModelError,
  rootCause,
  type ModelAdapter,
  type ModelRequest,
  type ModelStreamEvent,
  type RefusedContent,
} from "./adapter.js";

// claude-sonnet-4-5 is on the SDK's deprecation list (it prints a warning), so 4-6.
export const DEFAULT_ANTHROPIC_MODEL = "claude-sonnet-4-6";
export const DEFAULT_MAX_TOKENS = 4096;
export const DEFAULT_MAX_RETRIES = 2;

export interface AnthropicOptions {
  apiKey: string;
  baseURL?: string;
  model?: string;
  maxTokens?: number;
  /** Retries for 408/409/429/5xx/connection errors (retry.ts; small: a chat user is waiting). */
  maxRetries?: number;
  /** How a retry waits (tests pass their own to observe the delays); default a timer. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  timeoutMs?: number;
  /** The config's `contextWindow`, else Claude's. */
  contextWindow?: number;
}

type ImageMediaType = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

export function toAnthropicMessages(messages: readonly ModelMessage[]): MessageParam[] {
  return messages.map((m): MessageParam => {
    if (m.role === "assistant") {
      return {
        role: "assistant",
        content: m.content.map((b) =>
          b.type === "text"
            ? { type: "text", text: b.text }
            : { type: "tool_use", id: anthropicCallId(b.id), name: b.name, input: b.input },
        ),
      };
    }
    const content: ContentBlockParam[] = m.content.map((b) => {
      if (b.type === "text") return { type: "text", text: b.text };
      return {
        type: "tool_result",
        tool_use_id: anthropicCallId(b.toolUseId),
        ...(b.isError ? { is_error: true } : {}),
        content: b.content.map(toAnthropicBlock),
      };
    });
    return { role: "user", content };
  });
}

const ANTHROPIC_ID = /^[a-zA-Z0-9_-]{1,200}$/;

/** A call id as the Messages API takes it: another provider's id that breaks its pattern is remapped (the same on the call and its result). */
export function anthropicCallId(id: string): string {
  return ANTHROPIC_ID.test(id) ? id : `toolu_${createHash("sha256").update(id).digest("hex").slice(0, 24)}`;
}

function toAnthropicBlock(b: ModelContentBlock): TextBlockParam | ImageBlockParam {
  if (b.type === "text") return { type: "text", text: b.text };
  return { type: "image", source: { type: "base64", media_type: b.mimeType as ImageMediaType, data: b.data } };
}

export class AnthropicModel implements ModelAdapter {
  readonly id: string;
  readonly capabilities: ModelCapabilities;
  private client: Anthropic | undefined;
  private sdk: Sdk | undefined;
  private readonly model: string;
  private readonly maxTokens: number;
  private readonly maxRetries: number;
  private readonly where: string;

  constructor(private readonly opts: AnthropicOptions) {
    this.model = opts.model ?? DEFAULT_ANTHROPIC_MODEL;
    this.id = `anthropic:${this.model}`;
    this.maxTokens = opts.maxTokens ?? DEFAULT_MAX_TOKENS;
    this.maxRetries = opts.maxRetries ?? DEFAULT_MAX_RETRIES;
    this.where = opts.baseURL ?? "https://api.anthropic.com";
    this.capabilities = opts.contextWindow
      ? { ...ANTHROPIC_CAPABILITIES, contextWindow: opts.contextWindow }
      : ANTHROPIC_CAPABILITIES;
  }

  /** The API's models (GET /v1/models), bounded. */
  async listModels(signal?: AbortSignal): Promise<string[]> {
    try {
      const client = await this.connect();
      const out: string[] = [];
      for await (const m of client.models.list({}, { signal })) {
        if (typeof m?.id === "string" && m.id.length <= 200) out.push(m.id);
        if (out.length >= 500) break;
      }
      return out;
    } catch (e) {
      throw this.explain(e, signal);
    }
  }

  private async connect(): Promise<Anthropic> {
    if (this.client) return this.client;
    const AnthropicSdk = (this.sdk = await loadSdk());
    return (this.client = new AnthropicSdk({
      apiKey: this.opts.apiKey,
      baseURL: this.opts.baseURL ?? null,
      // Ours (retry.ts), so each wait is shown; the SDK's would be silent.
      maxRetries: 0,
      timeout: this.opts.timeoutMs ?? 120_000,
      // Failures surface as one ModelError line; the SDK's own console logging would add more.
      logLevel: "off",
    }));
  }

  respond(req: ModelRequest): AsyncIterable<ModelStreamEvent> {
    return withRetries(() => this.once(req), {
      maxRetries: this.maxRetries,
      signal: req.signal,
      sleep: this.opts.sleep,
      explain: (e, retried) => this.explain(e, req.signal, retried),
    });
  }

  private async *once(req: ModelRequest): AsyncIterable<ModelStreamEvent> {
    const tools: Tool[] = req.tools.map((t) => ({
      name: t.name,
      ...(t.description ? { description: t.description } : {}),
      input_schema: t.inputSchema as Tool["input_schema"],
    }));
    let stopped = false;
    try {
      const client = await this.connect();
      const stream = client.messages.stream(
        {
          model: this.model,
          max_tokens: Math.min(this.maxTokens, req.sampling?.maxTokens ?? this.maxTokens),
          ...(req.sampling?.temperature !== undefined ? { temperature: req.sampling.temperature } : {}),
          ...(req.sampling?.stopSequences?.length ? { stop_sequences: req.sampling.stopSequences } : {}),
          system: req.system,
          messages: toAnthropicMessages(req.messages),
          ...(tools.length ? { tools } : {}),
        },
        { signal: req.signal },
      );
      for await (const ev of stream) {
        if (ev.type === "content_block_delta" && ev.delta.type === "text_delta")
          yield { type: "text", text: ev.delta.text };
        else if (ev.type === "message_stop") stopped = true;
      }
      if (req.signal?.aborted) throw new ModelError("aborted", "cancelled");
      // A stream that closes cleanly but early still "ends": only message_stop means complete.
      if (!stopped)
        throw new ModelError(
          "stream",
          "the model's reply was cut off mid-stream (no message_stop); nothing of it was kept",
        );
      const message = await stream.finalMessage();
      // The SDK's snapshot: message_start's usage, updated by message_delta's (cumulative) counts.
      yield { type: "usage", usage: fromAnthropicUsage(message.usage) };
      for (const block of message.content) {
        if (block.type !== "tool_use") continue;
        const input = block.input && typeof block.input === "object" && !Array.isArray(block.input) ? block.input : {};
        yield { type: "tool_use", id: block.id, name: block.name, input: input as Record<string, unknown> };
      }
    } catch (e) {
      if (e instanceof ModelError || req.signal?.aborted) throw this.explain(e, req.signal);
      throw e; // explained by withRetries, which needs the SDK's error (status, retry-after)
    }
  }

  /** One clear line per failure class; `retried`: retries made before it. */
  private explain(e: unknown, signal?: AbortSignal, retried = 0): ModelError {
    if (e instanceof ModelError) return e;
    const Sdk = this.sdk;
    if (signal?.aborted || (Sdk && e instanceof Sdk.APIUserAbortError)) return new ModelError("aborted", "cancelled");
    const retries = afterRetries(retried);
    if (Sdk && e instanceof Sdk.APIConnectionError) {
      const why = rootCause(e);
      return new ModelError("network", `cannot reach the Anthropic API at ${this.where} (${why})${retries}`);
    }
    if (Sdk && e instanceof Sdk.APIError) {
      const detail = apiMessage(e);
      if (e.status === 401)
        return new ModelError(
          "auth",
          `the Anthropic API rejected the API key (401${detail ? `: ${detail}` : ""}); check ANTHROPIC_API_KEY`,
        );
      if (e.status === 429)
        return new ModelError(
          "rate-limit",
          `the Anthropic API is rate-limiting requests (429)${retries}; try again shortly`,
        );
      if (e.status === 529 || (e.error as { error?: { type?: string } })?.error?.type === "overloaded_error")
        return new ModelError("overloaded", `the Anthropic API is overloaded${retries}; try again shortly`);
      // "prompt is too long: 208310 tokens > 200000 maximum": named as the context window, with the numbers.
      const over = /prompt is too long/i.test(detail)
        ? /(\d[\d,]*) tokens > (\d[\d,]*) maximum/.exec(detail)
        : undefined;
      if (over !== undefined && (e.status === 400 || e.status === 413))
        return new ModelError(
          "context-length",
          `the conversation is over ${this.id}'s context window${over ? ` (${over[2]} tokens; the request had ${over[1]})` : ` (${detail})`}`,
          { what: "too-large", detail },
        );
      if (e.status === 400 || e.status === 413)
        return new ModelError(
          "bad-request",
          `the Anthropic API refused the request (${e.status}${detail ? `: ${detail}` : ""})`,
          refusedContent(e.status, detail),
        );
      if (e.status === undefined)
        return new ModelError(
          "stream",
          `the model's reply stream failed${detail ? `: ${detail}` : ""}; nothing of it was kept`,
        );
      return new ModelError("api", `the Anthropic API failed (${e.status}${detail ? `: ${detail}` : ""})`);
    }
    const msg = (e as Error)?.message ?? String(e);
    // Undici reports a socket closed mid-body as "terminated"; bad JSON in an event is a SyntaxError.
    if (
      e instanceof SyntaxError ||
      (e as Error)?.name === "SyntaxError" ||
      / JSON|terminated|premature|ECONNRESET|socket/i.test(msg)
    )
      return new ModelError("stream", `the model's reply was cut off mid-stream (${msg}); nothing of it was kept`);
    return new ModelError("api", `the Anthropic request failed: ${msg}`);
  }
}

/** What a 400/413 says was wrong with the request's content. */
function refusedContent(status: number, detail: string): RefusedContent {
  if (status === 413 || /too long|too large|exceeds|maximum/i.test(detail))
    return { what: /image/i.test(detail) ? "image" : "too-large", detail };
  if (/image/i.test(detail)) return { what: "image", detail };
  return { what: "content", detail };
}

function apiMessage(e: InstanceType<typeof Anthropic.APIError>): string {
  const body = e.error as { error?: { message?: string; type?: string } } | undefined;
  const m = body?.error?.message ?? body?.error?.type;
  return typeof m === "string" ? m.slice(0, 200) : "";
}
