// A fake OpenAI-compatible Chat Completions API on 127.0.0.1 (node:http), for driving the REAL
// `openai` SDK in tests: scripted replies (text, parallel tool calls) as JSON or SSE chunks, error
// statuses with headers (429 + retry-after), a stream cut mid-tool-call, a malformed chunk, and
// GET /v1/models. Every request body is captured. It enforces the real API's rules on every
// request (chatRuleViolation) and answers a broken one with a 400 in the API's words, so a
// conversation the host leaves invalid fails here as it would against a real endpoint.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type ScriptedCall = { name: string; args: Record<string, unknown> | string; id?: string };

export type OpenAIScripted =
  | {
      kind: "reply";
      text?: string;
      calls?: ScriptedCall[];
      usage?: { prompt_tokens: number; completion_tokens: number; cached_tokens?: number };
      finish?: string;
    }
  | { kind: "status"; status: number; message: string; code?: string; headers?: Record<string, string> }
  /** Streams the text and half of the first call's arguments, then ends (clean) or destroys the socket. */
  | { kind: "cut"; text?: string; call: ScriptedCall; clean?: boolean }
  /** Streams one chunk, then one whose data is not JSON. */
  | { kind: "garbage" };

export type OpenAIResponder = (body: any, index: number) => OpenAIScripted | undefined;

export interface OpenAICaptured {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: any;
  raw: string;
}

export class FakeOpenAI {
  readonly requests: OpenAICaptured[] = [];
  readonly refused: { index: number; message: string }[] = [];
  private queue: OpenAIScripted[] = [];
  private server: Server | undefined;
  url = "";
  responder: OpenAIResponder | undefined;
  /** GET /v1/models lists these. */
  models = ["fake-large", "fake-small", "fake-notools"];
  /** Models that answer a request with tools as Ollama does for a model without tool support. */
  noToolModels = new Set(["fake-notools"]);
  /** The context window every model has, in tokens (≈ 4 characters each, as the fake counts). */
  contextTokens = 100_000;
  /** When set, requests without `Authorization: Bearer <key>` get a 401. */
  requiredKey: string | undefined;

  script(...items: OpenAIScripted[]): this {
    this.queue.push(...items);
    return this;
  }

  /** The base URL the SDK takes (…/v1). */
  get baseURL(): string {
    return `${this.url}/v1`;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server = undefined;
  }

  allBodies(): string {
    return this.requests.map((r) => r.raw).join("\n");
  }

  /** The chat completion requests (not the model listings). */
  chats(): OpenAICaptured[] {
    return this.requests.filter((r) => r.path.startsWith("/v1/chat/completions"));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    let body: any;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = undefined;
    }
    const index = this.requests.length;
    this.requests.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body, raw });
    if (this.requiredKey !== undefined && req.headers.authorization !== `Bearer ${this.requiredKey}`)
      return sendError(res, 401, "Incorrect API key provided.", "invalid_api_key");
    if (req.method === "GET" && req.url === "/v1/models") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          object: "list",
          data: this.models.map((id) => ({ id, object: "model", created: 0, owned_by: "fake" })),
        }),
      );
      return;
    }
    if (req.method !== "POST" || req.url !== "/v1/chat/completions")
      return sendError(res, 404, `Unknown request URL: ${req.method} ${req.url}`, "unknown_url");
    const violation = chatRuleViolation(body);
    if (violation) {
      this.refused.push({ index, message: violation });
      return sendError(res, 400, violation, null);
    }
    if (this.noToolModels.has(body.model) && Array.isArray(body.tools) && body.tools.length)
      return sendError(res, 400, `registry.ollama.ai/library/${body.model} does not support tools`, null);
    const tokens = Math.ceil(JSON.stringify(body.messages).length / 4);
    if (tokens > this.contextTokens) {
      const message = `This model's maximum context length is ${this.contextTokens} tokens. However, your messages resulted in ${tokens} tokens. Please reduce the length of the messages.`;
      this.refused.push({ index, message });
      return sendError(res, 400, message, "context_length_exceeded");
    }
    const next = this.queue.shift() ?? this.responder?.(body, index) ?? { kind: "reply", text: "ok" };
    if (next.kind === "status") return sendError(res, next.status, next.message, next.code ?? null, next.headers);
    const id = `chatcmpl-${index}`;
    const base = { id, object: "chat.completion.chunk", created: 0, model: body.model };
    const sse = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);
    if (next.kind === "garbage" || next.kind === "cut") {
      res.writeHead(200, { "content-type": "text/event-stream" });
      sse({
        ...base,
        choices: [
          {
            index: 0,
            delta: { role: "assistant", content: next.kind === "cut" ? (next.text ?? "") : "partial" },
            finish_reason: null,
          },
        ],
      });
      if (next.kind === "garbage") {
        res.write(`data: {"id": "${id}", "choices": [oops\n\n`);
        res.end();
        return;
      }
      const args = typeof next.call.args === "string" ? next.call.args : JSON.stringify(next.call.args);
      sse({
        ...base,
        choices: [
          {
            index: 0,
            delta: {
              tool_calls: [
                {
                  index: 0,
                  id: next.call.id ?? "call_cut",
                  type: "function",
                  function: { name: next.call.name, arguments: args.slice(0, Math.ceil(args.length / 2)) },
                },
              ],
            },
            finish_reason: null,
          },
        ],
      });
      if (next.clean) res.end();
      else setTimeout(() => res.socket?.destroy(), 20);
      return;
    }
    const calls = (next.calls ?? []).map((c, i) => ({
      id: c.id ?? `call_${index}_${i}`,
      type: "function",
      function: { name: c.name, arguments: typeof c.args === "string" ? c.args : JSON.stringify(c.args) },
    }));
    const finish = next.finish ?? (calls.length ? "tool_calls" : "stop");
    const usage = {
      prompt_tokens: next.usage?.prompt_tokens ?? tokens,
      completion_tokens:
        next.usage?.completion_tokens ??
        Math.max(1, Math.ceil(((next.text ?? "").length + JSON.stringify(calls).length) / 4)),
      total_tokens: 0,
      prompt_tokens_details: { cached_tokens: next.usage?.cached_tokens ?? 0 },
    };
    usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
    if (body.stream !== true) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          id,
          object: "chat.completion",
          created: 0,
          model: body.model,
          choices: [
            {
              index: 0,
              message: {
                role: "assistant",
                content: next.text ?? null,
                ...(calls.length ? { tool_calls: calls } : {}),
              },
              finish_reason: finish,
            },
          ],
          usage,
        }),
      );
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    sse({ ...base, choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }] });
    for (const piece of splitIn(next.text ?? "", 3))
      sse({ ...base, choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] });
    // As the API streams tool calls: the first delta of each carries id and name, the rest only argument pieces, by index.
    calls.forEach((c, i) => {
      const pieces = splitIn(c.function.arguments, 3);
      sse({
        ...base,
        choices: [
          {
            index: 0,
            delta: {
              tool_calls: [
                {
                  index: i,
                  id: c.id,
                  type: "function",
                  function: { name: c.function.name, arguments: pieces[0] ?? "" },
                },
              ],
            },
            finish_reason: null,
          },
        ],
      });
      for (const p of pieces.slice(1))
        sse({
          ...base,
          choices: [
            { index: 0, delta: { tool_calls: [{ index: i, function: { arguments: p } }] }, finish_reason: null },
          ],
        });
    });
    sse({ ...base, choices: [{ index: 0, delta: {}, finish_reason: finish }] });
    if (body.stream_options?.include_usage) sse({ ...base, choices: [], usage });
    res.write("data: [DONE]\n\n");
    res.end();
  }
}

function sendError(
  res: ServerResponse,
  status: number,
  message: string,
  code: string | null,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(
    JSON.stringify({
      error: { message, type: status === 429 ? "rate_limit_exceeded" : "invalid_request_error", param: null, code },
    }),
  );
}

function splitIn(text: string, parts: number): string[] {
  if (!text) return [];
  if (text.length < parts) return [text];
  const size = Math.ceil(text.length / parts);
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** Calls the first offered tool once, then answers with text. */
export function callFirstToolThenAnswerOpenAI(args: Record<string, unknown> = {}): OpenAIResponder {
  return (body) => {
    const msgs: any[] = body?.messages ?? [];
    if (msgs.some((m) => m.role === "tool")) return { kind: "reply", text: "done" };
    const name = body?.tools?.[0]?.function?.name;
    if (!name) return { kind: "reply", text: "no tools" };
    return { kind: "reply", text: "Let me call it.", calls: [{ name, args }] };
  };
}

const ROLES = new Set(["system", "developer", "user", "assistant", "tool"]);

function partsViolation(path: string, content: unknown, role: string): string | undefined {
  if (typeof content === "string") return undefined;
  if (!Array.isArray(content)) return `Invalid type for '${path}': expected one of a string or array of objects.`;
  for (const [k, p] of content.entries()) {
    if (p?.type === "text") {
      if (typeof p.text !== "string") return `Invalid type for '${path}[${k}].text': expected a string.`;
      continue;
    }
    if (p?.type === "image_url") {
      if (role !== "user")
        return `Invalid '${path}[${k}]': image_url content parts are only allowed in messages with role 'user', not '${role}'.`;
      const url = String(p.image_url?.url ?? "");
      if (!/^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+={0,2}$/.test(url) && !/^https?:\/\//.test(url))
        return `Invalid '${path}[${k}].image_url.url': Expected a base64-encoded data URL with an image MIME type or a valid URL.`;
      continue;
    }
    return `Invalid value: '${p?.type}'. Supported values are: 'text' and 'image_url'.`;
  }
  return undefined;
}

/**
 * The first way this request breaks the Chat Completions rules, in the API's words, or undefined:
 * every tool_calls id of an assistant message answered by exactly one `tool` message right after
 * it (and no other tool message anywhere), tool messages text only, images only in user
 * messages, tool names and call ids as the API takes them.
 */
export function chatRuleViolation(body: any): string | undefined {
  if (!body || typeof body !== "object") return "We could not parse the JSON body of your request.";
  if (typeof body.model !== "string" || !body.model) return "you must provide a model parameter";
  const messages: any[] = Array.isArray(body.messages) ? body.messages : [];
  if (!messages.length)
    return "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.";
  for (const [i, t] of (Array.isArray(body.tools) ? body.tools : []).entries()) {
    if (t?.type !== "function") return `Invalid value for 'tools[${i}].type'.`;
    if (!/^[a-zA-Z0-9_-]{1,64}$/.test(String(t.function?.name)))
      return `Invalid 'tools[${i}].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`;
    if (t.function?.parameters !== undefined && t.function.parameters?.type !== "object")
      return `Invalid schema for function '${t.function.name}': schema must be a JSON Schema of 'type: "object"'.`;
  }
  let open: Set<string> | undefined;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (!ROLES.has(m?.role))
      return `Invalid value: '${m?.role}'. Supported values are: 'system', 'assistant', 'user', 'tool', and 'developer'.`;
    if (m.role === "tool") {
      if (!open)
        return `Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.`;
      if (!open.has(m.tool_call_id))
        return `Invalid parameter: 'tool_call_id' of '${m.tool_call_id}' not found in 'tool_calls' of previous message.`;
      open.delete(m.tool_call_id);
      const v = partsViolation(`messages[${i}].content`, m.content, "tool");
      if (v) return v;
      if (Array.isArray(m.content) && m.content.some((p: any) => p?.type !== "text"))
        return `Invalid 'messages[${i}].content': tool messages take text only.`;
      continue;
    }
    if (open?.size)
      return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...open].join(", ")}`;
    open = undefined;
    if (m.role === "assistant") {
      const calls: any[] = Array.isArray(m.tool_calls) ? m.tool_calls : [];
      if (m.tool_calls !== undefined && !calls.length)
        return `Invalid 'messages[${i}].tool_calls': empty array. Expected an array with minimum length 1, but got an empty array instead.`;
      if ((m.content === null || m.content === undefined || m.content === "") && !calls.length)
        return `Invalid 'messages[${i}]': an assistant message needs content or tool_calls.`;
      if (m.content !== null && m.content !== undefined) {
        const v = partsViolation(`messages[${i}].content`, m.content, "assistant");
        if (v) return v;
      }
      const ids = new Set<string>();
      for (const [j, c] of calls.entries()) {
        if (typeof c?.id !== "string" || !c.id)
          return `Missing required parameter: 'messages[${i}].tool_calls[${j}].id'.`;
        if (c.id.length > 40)
          return `Invalid 'messages[${i}].tool_calls[${j}].id': string too long. Expected a string with maximum length 40, but got a string with length ${c.id.length} instead.`;
        if (ids.has(c.id)) return `Invalid 'messages[${i}].tool_calls': duplicate id '${c.id}'.`;
        try {
          JSON.parse(c.function?.arguments);
        } catch {
          return `Invalid 'messages[${i}].tool_calls[${j}].function.arguments': not valid JSON.`;
        }
        ids.add(c.id);
      }
      if (ids.size) open = ids;
      continue;
    }
    const v = partsViolation(`messages[${i}].content`, m.content, m.role);
    if (v) return v;
  }
  if (open?.size)
    return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...open].join(", ")}`;
  return undefined;
}
