// A fake Anthropic Messages API on 127.0.0.1 (node:http) for driving the REAL SDK in tests.
// Scripted replies (text, tool_use), JSON or SSE streaming (the event sequence the SDK's
// MessageStream accumulates: message_start, content_block_start/delta/stop, message_delta,
// message_stop), error statuses, and a stream cut mid-message. Every request body is captured.
// It enforces the real API's rules on every request (see apiRuleViolation), answering a broken
// one with the real API's 400 and wording, so a conversation the host leaves invalid fails here
// as it would in production.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import jpeg from "jpeg-js";
import { estimateImageTokens, estimateTextTokens } from "../../src/model/tokens.js";

// pngjs ships no types: the one call used here, typed by hand.
const { PNG } = createRequire(import.meta.url)("pngjs") as { PNG: { sync: { read(b: Buffer): { width: number } } } };

export type ScriptedBlock =
  | { type: "text"; text: string }
  | { type: "tool_use"; name: string; input: Record<string, unknown>; id?: string };

export type Scripted =
  /** `deltaChars`: text streamed in deltas of that many characters (default: 3 deltas a block), `paceMs` apart. */
  | {
      kind: "reply";
      blocks: ScriptedBlock[];
      stopReason?: "end_turn" | "tool_use" | "max_tokens";
      deltaChars?: number;
      paceMs?: number;
      usage?: ScriptedUsage;
    }
  | { kind: "status"; status: number; errorType: string; message: string; headers?: Record<string, string> }
  /** Sends message_start and part of a text block, then ends (clean=true) or destroys the socket. */
  | { kind: "cut"; textBeforeCut: string; clean?: boolean }
  /** Starts a message, then sends an SSE `error` event (as the API does when overloaded mid-stream). */
  | { kind: "sse-error"; errorType: string; message: string }
  /** Starts a message, then sends an event whose data is not JSON. */
  | { kind: "garbage" };

/** The counts the API reports for a reply (default: input from the request's size, output from the reply's). */
export interface ScriptedUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

/**
 * A reply computed from the request (e.g. "call the first tool offered"). Returning undefined
 * falls back to a plain text reply.
 */
export type Responder = (body: any, index: number) => Scripted | undefined;

export interface CapturedRequest {
  path: string;
  headers: IncomingMessage["headers"];
  body: any;
  raw: string;
}

export class FakeAnthropic {
  readonly requests: CapturedRequest[] = [];
  private queue: Scripted[] = [];
  private server: Server | undefined;
  url = "";
  responder: Responder | undefined;
  /** Requests larger than this get the real API's 413 (its limit is 32 MB). */
  maxBodyBytes = 32 * 1024 * 1024;
  /** The model's context window: a request estimated over it (tokens.ts, as the host counts) gets the real API's 400. */
  contextWindow = 200_000;
  /** The largest request seen, in estimated tokens. */
  peakTokens = 0;
  /** Requests the rules refused, with the 400 message sent. */
  readonly refused: { index: number; message: string }[] = [];

  /** Queue scripted responses, consumed one per request in order. */
  script(...items: Scripted[]): this {
    this.queue.push(...items);
    return this;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    const { port } = this.server.address() as AddressInfo;
    this.url = `http://127.0.0.1:${port}`;
    return this;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server = undefined;
  }

  /** All captured request bodies as one string (for "never appears" assertions). */
  allBodies(): string {
    return this.requests.map((r) => r.raw).join("\n");
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    let body: any;
    try {
      body = JSON.parse(raw);
    } catch {
      body = undefined;
    }
    const index = this.requests.length;
    this.requests.push({ path: req.url ?? "", headers: req.headers, body, raw });
    if (req.method !== "POST" || !req.url?.startsWith("/v1/messages")) {
      return sendError(res, 404, "not_found_error", `no route ${req.method} ${req.url}`);
    }
    if (raw.length > this.maxBodyBytes) {
      this.refused.push({ index, message: "request_too_large" });
      return sendError(res, 413, "request_too_large", "Request exceeds the maximum size");
    }
    const tokens = requestTokens(body);
    this.peakTokens = Math.max(this.peakTokens, tokens);
    const violation =
      apiRuleViolation(body) ??
      (tokens > this.contextWindow
        ? `prompt is too long: ${tokens} tokens > ${this.contextWindow} maximum`
        : undefined);
    if (violation) {
      this.refused.push({ index, message: violation });
      return sendError(res, 400, "invalid_request_error", violation);
    }
    const next = this.queue.shift() ??
      this.responder?.(body, index) ?? { kind: "reply", blocks: [{ type: "text", text: "ok" }] };
    if (next.kind === "status") return sendError(res, next.status, next.errorType, next.message, next.headers);
    const stream = body?.stream === true;
    if (next.kind === "cut") return this.cut(res, body, next, index);
    if (next.kind === "sse-error" || next.kind === "garbage") {
      res.writeHead(200, { "content-type": "text/event-stream", "request-id": `req_${index}` });
      const [start] = sseEvents(messageFor(body, { kind: "reply", blocks: [] }, index));
      res.write(`event: ${start[0]}\ndata: ${JSON.stringify(start[1])}\n\n`);
      if (next.kind === "sse-error")
        res.write(
          `event: error\ndata: ${JSON.stringify({ type: "error", error: { type: next.errorType, message: next.message } })}\n\n`,
        );
      else res.write(`event: content_block_start\ndata: {"type": "content_block_start", "index": 0, oops\n\n`);
      res.end();
      return;
    }
    const message = messageFor(body, next, index);
    if (!stream) {
      res.writeHead(200, { "content-type": "application/json", "request-id": `req_${index}` });
      res.end(JSON.stringify(message));
      return;
    }
    res.writeHead(200, {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      "request-id": `req_${index}`,
    });
    const events = sseEvents(message, next.kind === "reply" ? next.deltaChars : undefined);
    const pace = next.kind === "reply" ? (next.paceMs ?? 0) : 0;
    for (const [event, data] of events) {
      res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      if (pace) await new Promise((r) => setTimeout(r, pace));
    }
    res.end();
  }

  private cut(res: ServerResponse, body: any, next: Extract<Scripted, { kind: "cut" }>, index: number): void {
    res.writeHead(200, { "content-type": "text/event-stream", "request-id": `req_${index}` });
    const message = messageFor(body, { kind: "reply", blocks: [{ type: "text", text: next.textBeforeCut }] }, index);
    const events = sseEvents(message);
    // message_start, content_block_start, the first text delta: then stop.
    for (const [event, data] of events.slice(0, 3)) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    if (next.clean) res.end();
    else setTimeout(() => res.socket?.destroy(), 20);
  }
}

/** A request's input tokens by the host's estimator: text, tool calls and definitions by characters, images by Anthropic's rule. */
export function requestTokens(body: any): number {
  let n = 0;
  const text = (t: unknown) => (n += estimateTextTokens(typeof t === "string" ? t : (JSON.stringify(t) ?? "")));
  const block = (b: any) => {
    if (b?.type === "text") text(b.text);
    else if (b?.type === "image") n += estimateImageTokens(String(b.source?.data ?? ""));
    else if (b?.type === "tool_use") text(`${b.name}${JSON.stringify(b.input)}`);
    else if (b?.type === "tool_result")
      (typeof b.content === "string" ? [{ type: "text", text: b.content }] : (b.content ?? [])).forEach(block);
    else text(b);
  };
  if (typeof body?.system === "string") text(body.system);
  else if (Array.isArray(body?.system)) body.system.forEach(block);
  if (Array.isArray(body?.tools)) text(body.tools);
  for (const m of Array.isArray(body?.messages) ? body.messages : []) {
    n += 4;
    if (typeof m?.content === "string") text(m.content);
    else if (Array.isArray(m?.content)) m.content.forEach(block);
  }
  return n;
}

function sendError(
  res: ServerResponse,
  status: number,
  type: string,
  message: string,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify({ type: "error", error: { type, message } }));
}

function messageFor(body: any, s: Extract<Scripted, { kind: "reply" }>, index: number) {
  const content = s.blocks.map((b, i) =>
    b.type === "text"
      ? { type: "text", text: b.text, citations: null }
      : { type: "tool_use", id: b.id ?? `toolu_${index}_${i}`, name: b.name, input: b.input },
  );
  const stop = s.stopReason ?? (s.blocks.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn");
  return {
    id: `msg_${index}`,
    type: "message",
    role: "assistant",
    model: body?.model ?? "fake",
    content,
    stop_reason: stop,
    stop_sequence: null,
    usage: {
      input_tokens: s.usage?.input_tokens ?? Math.max(1, Math.ceil(JSON.stringify(body?.messages ?? []).length / 4)),
      output_tokens: s.usage?.output_tokens ?? Math.max(1, Math.ceil(JSON.stringify(content).length / 4)),
      cache_creation_input_tokens: s.usage?.cache_creation_input_tokens ?? null,
      cache_read_input_tokens: s.usage?.cache_read_input_tokens ?? null,
      service_tier: "standard",
    },
  };
}

/** The SSE events the real API sends for one message. */
function sseEvents(message: ReturnType<typeof messageFor>, deltaChars?: number): [string, unknown][] {
  const out: [string, unknown][] = [];
  out.push([
    "message_start",
    {
      type: "message_start",
      message: { ...message, content: [], stop_reason: null, usage: { ...message.usage, output_tokens: 1 } },
    },
  ]);
  message.content.forEach((block: any, index: number) => {
    if (block.type === "text") {
      out.push([
        "content_block_start",
        { type: "content_block_start", index, content_block: { type: "text", text: "" } },
      ]);
      // Split the text in a few deltas, as the API streams it.
      for (const piece of deltaChars ? splitEvery(block.text, deltaChars) : splitIn(block.text, 3))
        out.push([
          "content_block_delta",
          { type: "content_block_delta", index, delta: { type: "text_delta", text: piece } },
        ]);
    } else {
      out.push([
        "content_block_start",
        {
          type: "content_block_start",
          index,
          content_block: { type: "tool_use", id: block.id, name: block.name, input: {} },
        },
      ]);
      for (const piece of splitIn(JSON.stringify(block.input), 2))
        out.push([
          "content_block_delta",
          { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: piece } },
        ]);
    }
    out.push(["content_block_stop", { type: "content_block_stop", index }]);
  });
  out.push(["ping", { type: "ping" }]);
  out.push([
    "message_delta",
    // As the API does now: message_delta carries the whole message's cumulative counts.
    {
      type: "message_delta",
      delta: { stop_reason: message.stop_reason, stop_sequence: null },
      usage: {
        input_tokens: message.usage.input_tokens,
        output_tokens: message.usage.output_tokens,
        cache_creation_input_tokens: message.usage.cache_creation_input_tokens,
        cache_read_input_tokens: message.usage.cache_read_input_tokens,
      },
    },
  ]);
  out.push(["message_stop", { type: "message_stop" }]);
  return out;
}

function splitEvery(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function splitIn(text: string, parts: number): string[] {
  if (text.length < parts) return [text];
  const size = Math.ceil(text.length / parts);
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** A responder that calls the first offered tool once, then answers with text. */
export function callFirstToolThenAnswer(args: Record<string, unknown> = {}, toolName?: string): Responder {
  return (body) => {
    const msgs: any[] = body?.messages ?? [];
    const last = msgs[msgs.length - 1];
    const hasResult = Array.isArray(last?.content) && last.content.some((b: any) => b.type === "tool_result");
    if (hasResult) return { kind: "reply", blocks: [{ type: "text", text: "done" }] };
    const name = toolName ?? body?.tools?.[0]?.name;
    if (!name) return { kind: "reply", blocks: [{ type: "text", text: "no tools" }] };
    return {
      kind: "reply",
      blocks: [
        { type: "text", text: "Let me call it." },
        { type: "tool_use", name, input: args },
      ],
    };
  };
}

const MEDIA_TYPES = ["image/jpeg", "image/png", "image/gif", "image/webp"];
const MAX_IMAGE_BASE64 = 5 * 1024 * 1024;

/** Can the real API decode this image? PNG and JPEG are decoded; GIF and WebP are checked by signature. */
function decodable(mediaType: string, bytes: Buffer): boolean {
  try {
    if (mediaType === "image/png") return PNG.sync.read(bytes).width > 0;
    if (mediaType === "image/jpeg") return jpeg.decode(bytes, { maxMemoryUsageInMB: 64 }).width > 0;
    if (mediaType === "image/gif") return bytes.subarray(0, 4).toString("latin1") === "GIF8";
    return bytes.subarray(0, 4).toString("latin1") === "RIFF" && bytes.subarray(8, 12).toString("latin1") === "WEBP";
  } catch {
    return false;
  }
}

function textViolation(path: string, b: any): string | undefined {
  if (typeof b.text !== "string" || b.text === "") return `${path}: text content blocks must be non-empty`;
  if (!/\S/.test(b.text)) return `${path}.text: text content blocks must contain non-whitespace text`;
  return undefined;
}

function imageViolation(path: string, b: any): string | undefined {
  const src = b.source ?? {};
  if (src.type !== "base64") return `${path}.source.type: Input should be 'base64'`;
  if (!MEDIA_TYPES.includes(src.media_type))
    return `${path}.source.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'`;
  const data = String(src.data ?? "");
  if (data.length > MAX_IMAGE_BASE64)
    return `${path}.source.base64: image exceeds 5 MB maximum: ${data.length} bytes > ${MAX_IMAGE_BASE64} bytes`;
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(data) || data.length % 4 !== 0)
    return `${path}.source.base64: invalid base64 data`;
  // The real API says no more than this (no path): the request as a whole is refused.
  if (!decodable(src.media_type, Buffer.from(data, "base64"))) return "Could not process image";
  return undefined;
}

function contentViolation(path: string, b: any, inToolResult: boolean): string | undefined {
  if (b?.type === "text") return textViolation(path, b);
  if (b?.type === "image") return imageViolation(path, b);
  if (!inToolResult && (b?.type === "tool_use" || b?.type === "tool_result")) return undefined;
  return `${path}.type: Input tag '${b?.type}' found using 'type' does not match any of the expected tags`;
}

/**
 * The first way this Messages request breaks the real API's rules, in its words, or undefined.
 * Roles alternate and start with the user; every tool_use in an assistant message is answered by
 * a tool_result at the start of the next (user) message, and every tool_result answers one;
 * text blocks are not empty; an error tool_result has content; images are base64 of one of the
 * four media types, at most 5 MB, and decodable; tool names match the API's pattern.
 */
export function apiRuleViolation(body: any): string | undefined {
  if (!body || typeof body !== "object") return "There was an issue with the request body: not JSON";
  const messages: any[] = Array.isArray(body.messages) ? body.messages : [];
  if (!messages.length) return "messages: at least one message is required";
  if (messages[0].role !== "user") return 'messages: first message must use the "user" role';
  for (const [i, t] of (Array.isArray(body.tools) ? body.tools : []).entries()) {
    if (!/^[a-zA-Z0-9_-]{1,128}$/.test(String(t?.name)))
      return `tools.${i}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'`;
    if (t?.input_schema?.type !== "object") return `tools.${i}.custom.input_schema.type: Input should be 'object'`;
  }
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (i > 0 && messages[i - 1].role === m.role)
      return `messages: roles must alternate between "user" and "assistant", but found multiple "${m.role}" roles in a row`;
    const content: any[] =
      typeof m.content === "string" ? [{ type: "text", text: m.content }] : Array.isArray(m.content) ? m.content : [];
    if (!content.length)
      return `messages.${i}: all messages must have non-empty content except for the optional final assistant message`;
    const prev = i > 0 ? messages[i - 1] : undefined;
    const uses: string[] =
      prev?.role === "assistant" && Array.isArray(prev.content)
        ? prev.content.filter((b: any) => b?.type === "tool_use").map((b: any) => b.id)
        : [];
    if (m.role === "user") {
      let lead = 0;
      while (lead < content.length && content[lead]?.type === "tool_result") lead++;
      for (let j = 0; j < content.length; j++) {
        const b = content[j];
        if (b?.type === "tool_use")
          return `messages.${i}.content.${j}: \`tool_use\` blocks can only be in \`assistant\` messages`;
        if (b?.type !== "tool_result") {
          const v = contentViolation(`messages.${i}.content.${j}`, b, false);
          if (v) return v;
          continue;
        }
        if (!uses.includes(b.tool_use_id) || j >= lead)
          return `messages.${i}.content.${j}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${b.tool_use_id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
        const inner: any[] =
          typeof b.content === "string"
            ? b.content
              ? [{ type: "text", text: b.content }]
              : []
            : Array.isArray(b.content)
              ? b.content
              : [];
        if (b.is_error && !inner.length)
          return `messages.${i}.content.${j}: content cannot be empty if \`is_error\` is true`;
        for (let k = 0; k < inner.length; k++) {
          const v = contentViolation(`messages.${i}.content.${j}.content.${k}`, inner[k], true);
          if (v) return v;
        }
      }
      const answered = new Set(content.slice(0, lead).map((b: any) => b.tool_use_id));
      const missing = uses.filter((id) => !answered.has(id));
      if (missing.length)
        return `messages.${i - 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(", ")}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
    } else {
      for (let j = 0; j < content.length; j++) {
        const b = content[j];
        if (b?.type === "tool_result")
          return `messages.${i}.content.${j}: \`tool_result\` blocks can only be in \`user\` messages`;
        if (b?.type === "tool_use") continue;
        const v = contentViolation(`messages.${i}.content.${j}`, b, false);
        if (v) return v;
      }
    }
  }
  const last = messages[messages.length - 1];
  if (
    last.role === "assistant" &&
    Array.isArray(last.content) &&
    last.content.some((b: any) => b?.type === "tool_use")
  ) {
    return `messages.${messages.length - 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${last.content
      .filter((b: any) => b?.type === "tool_use")
      .map((b: any) => b.id)
      .join(", ")}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
  }
  return undefined;
}
