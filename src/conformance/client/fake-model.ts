// The scripted model of `mcp-prism check-client`, on 127.0.0.1: OpenAI Chat Completions
// (POST /v1/chat/completions, GET /v1/models) and Anthropic Messages (POST /v1/messages), plain
// JSON or SSE as the request asks. Until a tool result is in the conversation it calls the
// scenario's tool (found among the offered tools by name, whatever prefix the host adds); then it
// answers "Done.". Every request body is kept (bounded), for the canary search. It never needs,
// reads or keeps a key: check-client hands the client a dummy one.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { isObject } from "../../protocol/is-object.js";

export const FAKE_MODEL_ID = "conformance-model";
const MAX_BODY_BYTES = 8 * 1024 * 1024;
/** Requests kept per run; a client looping on the model past this gets 429s. */
const MAX_REQUESTS = 100;

export interface ModelScript {
  tool: string;
  args: Record<string, unknown>;
}

export interface ModelRequest {
  api: "chat-completions" | "messages";
  raw: string;
  /** The conversation already carried a tool result. */
  hasToolResult: boolean;
  /** What the fake answered: the offered tool it called, or text. */
  called?: string;
}

/** The offered tool that is `tool`: the same name, or one ending in it after a separator (`srv__tool`, `srv.tool`). */
export function matchTool(offered: readonly string[], tool: string): string | undefined {
  return (
    offered.find((n) => n === tool) ??
    offered.find((n) => n.endsWith(tool) && /[^A-Za-z0-9]$/.test(n.slice(0, n.length - tool.length)))
  );
}

export class FakeModel {
  readonly requests: ModelRequest[] = [];
  private server: Server | undefined;
  url = "";

  constructor(private readonly script: ModelScript) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res).catch(() => res.destroy()));
    await new Promise<void>((resolve, reject) => {
      this.server!.once("error", reject);
      this.server!.listen(0, "127.0.0.1", resolve);
    });
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    const s = this.server;
    this.server = undefined;
    if (!s) return;
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? "").split("?")[0].replace(/\/+$/, "");
    if (req.method === "GET" && path.endsWith("/models")) {
      return json(res, 200, {
        object: "list",
        data: [{ id: FAKE_MODEL_ID, object: "model", created: 0, owned_by: "mcp-prism" }],
      });
    }
    if (req.method !== "POST") return json(res, 404, apiError("not found"));
    const raw = await readBody(req);
    if (raw === undefined) return json(res, 413, apiError(`request body over ${MAX_BODY_BYTES} bytes`));
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      return json(res, 400, apiError("the request body is not JSON"));
    }
    if (!isObject(body)) return json(res, 400, apiError("the request body is not a JSON object"));
    if (this.requests.length >= MAX_REQUESTS)
      return json(res, 429, apiError(`more than ${MAX_REQUESTS} model requests in one scenario`));
    if (path.endsWith("/chat/completions")) return this.chat(body, raw, res);
    if (path.endsWith("/messages")) return this.messages(body, raw, res);
    return json(res, 404, apiError(`no such endpoint ${path.slice(0, 100)}`));
  }

  /** The tool to call now, or undefined to answer in text. */
  private decide(offered: string[], hasToolResult: boolean): string | undefined {
    return hasToolResult ? undefined : matchTool(offered, this.script.tool);
  }

  private text(hasToolResult: boolean): string {
    return hasToolResult ? "Done." : `No tool named ${this.script.tool} was offered.`;
  }

  private chat(body: Record<string, unknown>, raw: string, res: ServerResponse): void {
    const messages = Array.isArray(body.messages) ? body.messages : [];
    const hasToolResult = messages.some((m) => isObject(m) && m.role === "tool");
    const offered = (Array.isArray(body.tools) ? body.tools : [])
      .map((t) => (isObject(t) && isObject(t.function) ? String(t.function.name) : ""))
      .filter(Boolean);
    const called = this.decide(offered, hasToolResult);
    this.requests.push({ api: "chat-completions", raw, hasToolResult, ...(called ? { called } : {}) });
    const n = this.requests.length;
    const call = called && {
      id: `call_${n}`,
      type: "function",
      function: { name: called, arguments: JSON.stringify(this.script.args) },
    };
    const finish = call ? "tool_calls" : "stop";
    const usage = { prompt_tokens: Math.ceil(raw.length / 4), completion_tokens: 8, total_tokens: 0 };
    usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
    const base = {
      id: `chatcmpl-${n}`,
      created: 0,
      model: typeof body.model === "string" ? body.model : FAKE_MODEL_ID,
    };
    if (body.stream !== true) {
      const message = call
        ? { role: "assistant", content: null, tool_calls: [call] }
        : { role: "assistant", content: this.text(hasToolResult) };
      return json(res, 200, {
        ...base,
        object: "chat.completion",
        choices: [{ index: 0, message, finish_reason: finish, logprobs: null }],
        usage,
      });
    }
    const chunk = (delta: unknown, finish_reason: string | null = null) => ({
      ...base,
      object: "chat.completion.chunk",
      choices: [{ index: 0, delta, finish_reason, logprobs: null }],
    });
    const events: unknown[] = [chunk({ role: "assistant", content: "" })];
    if (call) events.push(chunk({ tool_calls: [{ index: 0, ...call }] }));
    else events.push(chunk({ content: this.text(hasToolResult) }));
    events.push(chunk({}, finish));
    const streamOptions = isObject(body.stream_options) ? body.stream_options : {};
    if (streamOptions.include_usage === true)
      events.push({ ...base, object: "chat.completion.chunk", choices: [], usage });
    sse(
      res,
      events.map((e) => `data: ${JSON.stringify(e)}\n\n`),
      "data: [DONE]\n\n",
    );
  }

  private messages(body: Record<string, unknown>, raw: string, res: ServerResponse): void {
    const messages = Array.isArray(body.messages) ? body.messages : [];
    const hasToolResult = messages.some(
      (m) => isObject(m) && Array.isArray(m.content) && m.content.some((b) => isObject(b) && b.type === "tool_result"),
    );
    const offered = (Array.isArray(body.tools) ? body.tools : [])
      .map((t) => (isObject(t) && typeof t.name === "string" ? t.name : ""))
      .filter(Boolean);
    const called = this.decide(offered, hasToolResult);
    this.requests.push({ api: "messages", raw, hasToolResult, ...(called ? { called } : {}) });
    const n = this.requests.length;
    const model = typeof body.model === "string" ? body.model : FAKE_MODEL_ID;
    const block = called
      ? { type: "tool_use", id: `toolu_${n}`, name: called, input: this.script.args }
      : { type: "text", text: this.text(hasToolResult) };
    const stop = called ? "tool_use" : "end_turn";
    const usage = { input_tokens: Math.ceil(raw.length / 4), output_tokens: 8 };
    const message = { id: `msg_${n}`, type: "message", role: "assistant", model, stop_sequence: null };
    if (body.stream !== true) return json(res, 200, { ...message, content: [block], stop_reason: stop, usage });
    const start = block.type === "tool_use" ? { ...block, input: {} } : { type: "text", text: "" };
    const delta =
      block.type === "tool_use"
        ? { type: "input_json_delta", partial_json: JSON.stringify(this.script.args) }
        : { type: "text_delta", text: block.text };
    const ev = (type: string, data: Record<string, unknown>) =>
      `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
    sse(res, [
      ev("message_start", {
        message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } },
      }),
      ev("content_block_start", { index: 0, content_block: start }),
      ev("content_block_delta", { index: 0, delta }),
      ev("content_block_stop", { index: 0 }),
      ev("message_delta", { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 8 } }),
      ev("message_stop", {}),
    ]);
  }
}

function apiError(message: string) {
  return { error: { message, type: "invalid_request_error" }, type: "error" };
}

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

function sse(res: ServerResponse, events: string[], last = ""): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  res.end(events.join("") + last);
}

/** The body as text, or undefined past the bound (the socket is then drained, not kept). */
function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) over = true;
      else chunks.push(c);
    });
    req.on("end", () => resolve(over ? undefined : Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}
