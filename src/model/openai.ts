// OpenAI Chat Completions adapter (the official `openai` SDK): OpenAI itself and every endpoint
// that serves the same API (Ollama, LM Studio, vLLM, llama.cpp's server, OpenRouter, Groq,
// Gemini's compatibility endpoint). Streams text; tool calls are assembled from their deltas by
// index and given once the reply finished (finish_reason). Retries are ours (retry.ts), not the
// SDK's (maxRetries 0 there), so each wait is shown.
import type OpenAI from "openai";
import {
  ModelError,
  rootCause,
  type ModelAdapter,
  type ModelRequest,
  type ModelStreamEvent,
  type RefusedContent,
} from "./adapter.js";
import type { ModelCapabilities } from "./context.js";
import { toChatMessages } from "./openai-messages.js";
import { fromOpenAIUsage } from "./usage.js";
import { openaiImageTokens } from "./tokens.js";
import { withRetries } from "./retry.js";

type Sdk = typeof import("openai").default;
let sdkModule: Promise<Sdk> | undefined;
const loadSdk = () => (sdkModule ??= import("openai").then((m) => m.default));

export const OPENAI_IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;
/** OpenAI takes images up to 20 MB (base64 is 4/3 of that). */
const OPENAI_MAX_IMAGE_BASE64 = Math.floor((20 * 1024 * 1024 * 4) / 3);
/** Bounds on what an endpoint streams back (it is untrusted). */
const MAX_TOOL_CALLS = 64;
const MAX_ARGUMENT_CHARS = 1024 * 1024;
const MAX_MODELS_LISTED = 500;

export interface OpenAIOptions {
  /** "openai", "ollama", "lmstudio", "openai-compatible": the id's prefix and the errors' wording. */
  provider: string;
  model: string;
  baseURL: string;
  /** Absent: the endpoint takes no key (a local server); nothing from the environment is sent. */
  apiKey?: string;
  /** Where the key came from, for the 401 line (never the key). */
  apiKeyEnv?: string;
  maxTokens?: number;
  maxRetries?: number;
  timeoutMs?: number;
  /** False: the model takes no images (each becomes a one-line note). */
  vision?: boolean;
  contextWindow: number;
  /** How a retry waits (tests pass their own to observe the delays); default setTimeout. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

interface PendingCall {
  id: string;
  name: string;
  args: string;
}

export class OpenAIModel implements ModelAdapter {
  readonly id: string;
  readonly capabilities: ModelCapabilities;
  private client: OpenAI | undefined;
  private sdk: Sdk | undefined;
  private readonly maxRetries: number;
  /** Set once the endpoint said the model takes no tools: later requests go without them. */
  private noTools = false;

  constructor(private readonly opts: OpenAIOptions) {
    this.id = `${opts.provider}:${opts.model}`;
    this.maxRetries = opts.maxRetries ?? 2;
    this.capabilities = {
      imageMimeTypes: opts.vision === false ? [] : OPENAI_IMAGE_TYPES,
      maxImageBase64Chars: OPENAI_MAX_IMAGE_BASE64,
      contextWindow: opts.contextWindow,
      imageTokens: openaiImageTokens,
    };
  }

  private async connect(): Promise<OpenAI> {
    if (this.client) return this.client;
    const OpenAISdk = (this.sdk = await loadSdk());
    return (this.client = new OpenAISdk({
      // Explicit, every one: the SDK would otherwise read OPENAI_API_KEY, OPENAI_ORG_ID… from the
      // environment and send them to whatever endpoint this is.
      apiKey: this.opts.apiKey ?? "no-key",
      adminAPIKey: null,
      organization: null,
      project: null,
      webhookSecret: null,
      // The SDK adds OPENAI_CUSTOM_HEADERS (meant for OpenAI) to every request whatever the
      // endpoint; a null for each of its names removes them (buildHeaders: later entries win).
      defaultHeaders: envHeaderNames(process.env.OPENAI_CUSTOM_HEADERS),
      baseURL: this.opts.baseURL,
      maxRetries: 0,
      timeout: this.opts.timeoutMs ?? 120_000,
      logLevel: "off",
    }));
  }

  /** The endpoint's models (GET /models; Ollama and LM Studio list theirs there too), bounded. */
  async listModels(signal?: AbortSignal): Promise<string[]> {
    try {
      const client = await this.connect();
      const out: string[] = [];
      for await (const m of client.models.list({ signal })) {
        if (typeof m?.id === "string" && m.id.length <= 200) out.push(m.id);
        if (out.length >= MAX_MODELS_LISTED) break;
      }
      return out;
    } catch (e) {
      throw this.explain(e, signal);
    }
  }

  respond(req: ModelRequest): AsyncIterable<ModelStreamEvent> {
    return withRetries(() => this.once(req), {
      maxRetries: this.maxRetries,
      signal: req.signal,
      sleep: this.opts.sleep,
      explain: (e) => this.explain(e, req.signal),
      mend: (err) =>
        err.kind === "bad-request" && this.withoutTools(err, req)
          ? {
              type: "notice",
              text: `${this.id} does not support tools (${err.message.replace(/^.*?\(/, "").replace(/\)$/, "")}): the chat goes on without tools`,
            }
          : undefined,
    });
  }

  private withoutTools(err: ModelError, req: ModelRequest): boolean {
    if (this.noTools || !req.tools.length) return false;
    if (
      !/does not support tools|tools? (?:are |is )?not supported|tool use is not supported|no tool support/i.test(
        err.message,
      )
    )
      return false;
    this.noTools = true;
    return true;
  }

  private async *once(req: ModelRequest): AsyncIterable<ModelStreamEvent> {
    const client = await this.connect();
    const tools = this.noTools
      ? []
      : req.tools.map((t) => ({
          type: "function" as const,
          function: {
            name: t.name,
            ...(t.description ? { description: t.description } : {}),
            parameters: t.inputSchema,
          },
        }));
    const maxTokens = Math.min(this.opts.maxTokens ?? 4096, req.sampling?.maxTokens ?? Infinity);
    const stream = await client.chat.completions.create(
      {
        model: this.opts.model,
        messages: toChatMessages(req.system, req.messages) as OpenAI.Chat.ChatCompletionMessageParam[],
        stream: true,
        stream_options: { include_usage: true },
        max_completion_tokens: maxTokens,
        ...(req.sampling?.temperature !== undefined ? { temperature: req.sampling.temperature } : {}),
        ...(req.sampling?.stopSequences?.length ? { stop: req.sampling.stopSequences.slice(0, 4) } : {}),
        ...(tools.length ? { tools, parallel_tool_calls: true } : {}),
      },
      { signal: req.signal },
    );
    const calls: PendingCall[] = [];
    let finish: string | undefined;
    for await (const chunk of stream) {
      if (chunk?.usage) yield { type: "usage", usage: fromOpenAIUsage(chunk.usage) };
      const choice = chunk?.choices?.[0];
      if (!choice) continue;
      const delta = choice.delta ?? {};
      if (typeof delta.content === "string" && delta.content) yield { type: "text", text: delta.content };
      for (const d of delta.tool_calls ?? []) addDelta(calls, d);
      if (choice.finish_reason) finish = choice.finish_reason;
    }
    if (req.signal?.aborted) throw new ModelError("aborted", "cancelled");
    if (!finish)
      throw new ModelError(
        "stream",
        "the model's reply was cut off mid-stream (no finish_reason); nothing of it was kept",
      );
    if (finish === "length" && calls.length)
      throw new ModelError(
        "stream",
        "the model's reply hit its token limit in the middle of a tool call; nothing of it was kept",
      );
    const seen = new Set<string>();
    for (const [i, c] of calls.entries()) {
      if (!c) continue;
      if (!c.name)
        throw new ModelError(
          "stream",
          "the endpoint streamed a tool call without a name; nothing of the reply was kept",
        );
      let input: unknown = {};
      if (c.args.trim()) {
        try {
          input = JSON.parse(c.args);
        } catch {
          throw new ModelError(
            "stream",
            `the model's call of ${c.name.slice(0, 64)} had arguments that are not JSON; nothing of the reply was kept`,
          );
        }
      }
      // Some local servers send no id, or the same one twice: each call needs its own.
      let id = c.id && !seen.has(c.id) ? c.id : `call_${Date.now().toString(36)}_${i}`;
      if (id.length > 200) id = `call_${Date.now().toString(36)}_${i}`;
      seen.add(id);
      const args =
        input && typeof input === "object" && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
      yield { type: "tool_use", id, name: c.name, input: args };
    }
  }

  /** One clear line per failure class. */
  private explain(e: unknown, signal?: AbortSignal): ModelError {
    if (e instanceof ModelError) return e;
    const Sdk = this.sdk;
    if (signal?.aborted || (Sdk && e instanceof Sdk.APIUserAbortError)) return new ModelError("aborted", "cancelled");
    const where = `${this.opts.provider} endpoint ${this.opts.baseURL}`;
    if (Sdk && e instanceof Sdk.APIConnectionError)
      return new ModelError("network", `cannot reach the ${where} (${rootCause(e)})`);
    if (Sdk && e instanceof Sdk.APIError && e.status !== undefined) {
      const detail = apiMessage(e);
      const said = detail ? `: ${detail}` : "";
      if (e.status === 401 || e.status === 403)
        return new ModelError(
          "auth",
          `the ${where} rejected the API key (${e.status}${said})${this.opts.apiKeyEnv ? `; check ${this.opts.apiKeyEnv}` : ""}`,
        );
      if (e.status === 429) return new ModelError("rate-limit", `the ${where} is rate-limiting requests (429${said})`);
      if (e.status >= 500) return new ModelError("overloaded", `the ${where} failed (${e.status}${said})`);
      if (e.status === 404 && /model/i.test(detail))
        return new ModelError(
          "bad-request",
          `the ${where} has no model ${JSON.stringify(this.opts.model)} (404${said})`,
        );
      const window = contextOverflow(e, detail);
      if (window)
        return new ModelError("context-length", `the conversation is over ${this.id}'s context window${window}`, {
          what: "too-large",
          detail,
        });
      if (e.status === 400 || e.status === 413 || e.status === 422)
        return new ModelError(
          "bad-request",
          `the ${where} refused the request (${e.status}${said})`,
          refused(e.status, detail),
        );
      return new ModelError("api", `the ${where} failed (${e.status}${said})`);
    }
    const msg = String((e as Error)?.message ?? e).slice(0, 200);
    if (
      e instanceof SyntaxError ||
      (e as Error)?.name === "SyntaxError" ||
      / JSON|terminated|premature|ECONNRESET|socket/i.test(msg)
    )
      return new ModelError("stream", `the model's reply was cut off mid-stream (${msg}); nothing of it was kept`);
    if (Sdk && e instanceof Sdk.APIError)
      return new ModelError("stream", `the model's reply stream failed (${msg}); nothing of it was kept`);
    return new ModelError("api", `the ${where} request failed: ${msg}`);
  }
}

function addDelta(
  calls: PendingCall[],
  d: { index?: number; id?: string; function?: { name?: string; arguments?: string } },
): void {
  const index = typeof d?.index === "number" && Number.isInteger(d.index) && d.index >= 0 ? d.index : calls.length;
  if (index >= MAX_TOOL_CALLS)
    throw new ModelError(
      "stream",
      `the endpoint streamed more than ${MAX_TOOL_CALLS} tool calls in one reply; nothing of it was kept`,
    );
  const c = (calls[index] ??= { id: "", name: "", args: "" });
  if (typeof d.id === "string" && d.id) c.id = d.id;
  if (typeof d.function?.name === "string") c.name = c.name || d.function.name;
  if (typeof d.function?.arguments === "string") c.args += d.function.arguments;
  if (c.args.length > MAX_ARGUMENT_CHARS)
    throw new ModelError("stream", "the model's tool call arguments were over 1 MB; nothing of the reply was kept");
}

/** " (8192 tokens; the request had 9000)" when a 400 says the context is exceeded, else "". */
function contextOverflow(e: { code?: string | null; status?: number }, detail: string): string | undefined {
  if (
    e.code !== "context_length_exceeded" &&
    !/context (?:length|window)|maximum context|too many tokens|prompt is too long/i.test(detail)
  )
    return undefined;
  const nums = [...detail.matchAll(/(\d[\d,]*) tokens/g)].map((m) => m[1]);
  if (nums.length >= 2) return ` (${nums[0]} tokens; the request had ${nums[1]})`;
  return detail ? ` (${detail})` : "";
}

function refused(status: number, detail: string): RefusedContent {
  if (status === 413 || /too long|too large|exceeds/i.test(detail))
    return { what: /image/i.test(detail) ? "image" : "too-large", detail };
  if (/image/i.test(detail)) return { what: "image", detail };
  return { what: "content", detail };
}

function apiMessage(e: { error?: unknown; message?: string }): string {
  const body = e.error as { message?: unknown; error?: { message?: unknown } } | string | undefined;
  const m = typeof body === "string" ? body : (body?.message ?? body?.error?.message);
  return typeof m === "string" ? m.replace(/\s+/g, " ").slice(0, 200) : "";
}

/** Each header OPENAI_CUSTOM_HEADERS ("Name: value" lines) names, mapped to null (removed). */
function envHeaderNames(raw: string | undefined): Record<string, null> {
  const names: Record<string, null> = {};
  for (const line of (raw ?? "").split("\n").slice(0, 100)) {
    const name = line.slice(0, Math.max(0, line.indexOf(":"))).trim();
    if (name) names[name] = null;
  }
  return names;
}
