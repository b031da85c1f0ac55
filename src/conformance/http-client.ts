// Raw JSON-RPC over Streamable HTTP: one POST per message, the 2026-07-28 request headers for
// modern requests, the 2025-11-25 session header after `initialize`; JSON or SSE replies.
import { META, paramHeaderPlan, paramHeaders, standardHeaders } from "../protocol/index.js";
import { DEFAULT_MAX_RESULT_BYTES } from "../protocol/limits.js";
import { splitSseLines, sseField } from "../protocol/sse-lines.js";
import {
  NoAnswerError,
  TransportError,
  isObject,
  toReply,
  type RawConnection,
  type RequestOptions,
  type RpcReply,
} from "./wire.js";

/** Mcp-Param-{Name} headers for the x-mcp-header parameters of a listed tool (none when its annotations are invalid). */
export function paramHeadersFor(inputSchema: unknown, args: Record<string, unknown>): Record<string, string> {
  const plan = paramHeaderPlan(inputSchema);
  return plan.ok ? paramHeaders(plan.headers, args) : {};
}

export class HttpConnection implements RawConnection {
  readonly transport = "http" as const;
  private nextId = 1;
  private session: { id: string; version: string } | undefined;

  constructor(
    readonly url: string,
    private readonly timeoutMs: number,
    /** The longest reply body read (as stdio's longest line): a longer one fails the request. */
    private readonly maxBytes = DEFAULT_MAX_RESULT_BYTES,
  ) {}

  private headersFor(method: string, params: Record<string, unknown> | undefined): Record<string, string> {
    const h: Record<string, string> = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    const meta = isObject(params?._meta) ? params._meta : undefined;
    const version = meta?.[META.protocolVersion];
    if (typeof version === "string") {
      h["mcp-protocol-version"] = version;
      Object.assign(h, standardHeaders(method, params));
    } else if (this.session) {
      h["mcp-session-id"] = this.session.id;
      h["mcp-protocol-version"] = this.session.version;
    }
    return h;
  }

  async request(
    method: string,
    params: Record<string, unknown> | undefined,
    options: RequestOptions = {},
  ): Promise<RpcReply> {
    const id = this.nextId++;
    const body = params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params };
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const signal = AbortSignal.timeout(timeoutMs);
    let res: Response;
    let text: string;
    try {
      res = await fetch(this.url, {
        method: "POST",
        headers: { ...this.headersFor(method, params), ...options.headers },
        body: JSON.stringify(body),
        signal,
      });
      text = await readBounded(res, this.maxBytes, method);
    } catch (e) {
      if (e instanceof TransportError) throw e;
      if (signal.aborted) throw new NoAnswerError(method, timeoutMs);
      const cause = (e as { cause?: { code?: string; message?: string } }).cause;
      throw new TransportError(`cannot reach ${this.url}: ${cause?.code ?? cause?.message ?? (e as Error).message}`);
    }
    const reply = parseBody(text, res.headers.get("content-type") ?? "", id, res.status);
    if (!reply)
      throw new TransportError(
        `HTTP ${res.status} reply to ${method} carries no JSON-RPC response${text ? `: ${text.slice(0, 120)}` : ""}`,
      );
    const sessionId = res.headers.get("mcp-session-id");
    if (method === "initialize" && reply.kind === "result" && sessionId) {
      const v = reply.result.protocolVersion;
      this.session = { id: sessionId, version: typeof v === "string" ? v : "2025-11-25" };
    }
    return reply;
  }

  async notify(method: string, params?: Record<string, unknown>): Promise<void> {
    const body = params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params };
    try {
      const res = await fetch(this.url, {
        method: "POST",
        headers: this.headersFor(method, params),
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      await res.arrayBuffer();
    } catch {
      // a lost notification surfaces through the next request
    }
  }

  async close(): Promise<void> {
    if (!this.session) return;
    const id = this.session.id;
    this.session = undefined;
    try {
      const res = await fetch(this.url, {
        method: "DELETE",
        headers: { "mcp-session-id": id },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      await res.arrayBuffer();
    } catch {
      // the session expires with the server anyway
    }
  }
}

/** The body as text, read only up to `max` bytes: a server streaming without end cannot grow the checker. */
async function readBounded(res: Response, max: number, method: string): Promise<string> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > max) {
      void reader.cancel().catch(() => {});
      throw new TransportError(`HTTP ${res.status} reply to ${method} is over ${max} bytes; stopped reading it`);
    }
    parts.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(parts)); // as Response.text(): UTF-8, a BOM dropped
}

/** A JSON object body, or the SSE event carrying the response with our id. */
function parseBody(text: string, contentType: string, id: number, status: number): RpcReply | undefined {
  if (contentType.includes("text/event-stream")) {
    // The host's SSE grammar (protocol/sse-lines.ts): CRLF, LF or a lone CR end a line.
    let data: string[] | undefined;
    for (const line of [...splitSseLines(text, true).lines, ""]) {
      if (line !== "") {
        const field = sseField(line);
        if (field?.[0] === "data") (data ??= []).push(field[1]);
        continue;
      }
      if (data === undefined) continue;
      const event = data.join("\n");
      data = undefined;
      try {
        const msg = JSON.parse(event) as unknown;
        if (isObject(msg) && msg.id === id) return toReply(msg, status);
      } catch {
        // skip a malformed event
      }
    }
    return undefined;
  }
  try {
    return toReply(JSON.parse(text), status);
  } catch {
    return undefined;
  }
}
