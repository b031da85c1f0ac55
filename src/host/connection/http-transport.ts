// Modern (2026-07-28+) Streamable HTTP client transport: one POST per request with the request
// metadata headers (MCP-Protocol-Version, Mcp-Method, Mcp-Name, and on tools/call the Mcp-Param-*
// headers of the tool's x-mcp-header parameters, learnt from its tools/list replies; rules in
// protocol/http-headers.ts); the reply is a JSON body or an SSE stream ending with the response
// (a subscriptions/listen stream is one too: it stays open, its notifications delivered, until the
// server ends it or the host cancels it).
// Every message read goes through reply-guard.ts: a malformed reply, a batch, a reply for another
// id or a stream that ends without the response fails the request at once.
// Cancellation closes the stream (no notification is POSTed on HTTP).
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { META, paramHeaderPlan, paramHeaders, standardHeaders, type ParamHeader } from "../../protocol/index.js";
import { isObject } from "../../protocol/is-object.js";
import { stripBom } from "../../protocol/reply-check.js";
import { splitSseLines, sseField } from "../../protocol/sse-lines.js";
import type { HttpAuth } from "../auth/server-auth.js";
import { guardIncoming, refusalError } from "./reply-guard.js";
import { tooLargeError } from "./size-limit.js";

/** The HTTP exchange broke off (network error, connection dropped mid-reply). */
export class HttpConnectionError extends Error {
  constructor(cause: unknown) {
    const why = cause instanceof Error ? ((cause.cause as Error | undefined)?.message ?? cause.message) : String(cause);
    super(`the HTTP connection broke off before the reply ended (${why})`);
    this.name = "HttpConnectionError";
  }
}

/** A reply body or SSE event over the size limit: the read stops there. */
class TooLarge extends Error {}

/** A 2xx reply whose JSON body does not parse (passed on as it is, not as a broken connection). */
class NotJson extends Error {}

/** A non-2xx reply whose body is not a JSON-RPC response to the request. */
export class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    /** The reply's WWW-Authenticate header (a 401 or 403 names what it wants there). */
    readonly wwwAuthenticate?: string,
    /** Why signing in (auth/server-auth.ts) did not get past a 401/403, when it was tried. */
    readonly signIn?: string,
  ) {
    super(`HTTP ${status}${body ? `: ${body.slice(0, 200)}` : ""}`);
    this.name = "HttpStatusError";
  }
}

type Json = Record<string, unknown>;

export class ModernHttpTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private inflight = new Map<string | number, AbortController>();
  /** Ids of tools/list requests in flight: their replies teach the transport each tool's Mcp-Param headers. */
  private listing = new Set<string | number>();
  /** Per tool name, the x-mcp-header parameters of its inputSchema as last listed over this transport. */
  private readonly paramPlans = new Map<string, readonly ParamHeader[]>();

  constructor(
    private readonly url: URL,
    private readonly headers: Record<string, string> = {},
    /** Largest reply body / SSE event read; a larger one is answered locally as too large. */
    private readonly maxBytes = Number.POSITIVE_INFINITY,
    /** The server's sign-in: a bearer token on each request, and a 401/403 answered by signing in. */
    private readonly auth?: HttpAuth,
  ) {}

  async start(): Promise<void> {}

  async close(): Promise<void> {
    for (const ac of this.inflight.values()) ac.abort();
    this.inflight.clear();
    this.onclose?.();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const m = message as Json;
    if (!("method" in m)) return; // a client never sends responses here
    if (!("id" in m)) {
      if (m.method === "notifications/cancelled") {
        const id = (m.params as Json | undefined)?.requestId as string | number | undefined;
        if (id !== undefined) this.inflight.get(id)?.abort();
      }
      return; // no client notifications are POSTed in the modern HTTP binding
    }
    const id = m.id as string | number;
    const params = (m.params ?? {}) as Json;
    const version = (params._meta as Json | undefined)?.[META.protocolVersion];
    const method = String(m.method);
    const headers: Record<string, string> = {
      ...this.headers,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...standardHeaders(method, params),
    };
    if (typeof version === "string") headers["mcp-protocol-version"] = version;
    if (method === "tools/call") {
      const plan = typeof params.name === "string" ? this.paramPlans.get(params.name) : undefined;
      if (plan) Object.assign(headers, paramHeaders(plan, params.arguments));
    }
    if (method === "tools/list") this.listing.add(id);
    const ac = new AbortController();
    this.inflight.set(id, ac);
    try {
      const body = JSON.stringify(message);
      let res: IncomingMessage;
      // At most one more attempt, after signing in on a 401 or 403 (insufficient_scope).
      for (let attempt = 0; ; attempt++) {
        res = await post(
          this.url,
          this.auth ? { ...headers, ...(await this.auth.headers()) } : headers,
          body,
          ac.signal,
        );
        const status = res.statusCode ?? 0;
        if (status >= 200 && status <= 299) break;
        const text = await this.readBody(res);
        const challenge =
          typeof res.headers["www-authenticate"] === "string" ? res.headers["www-authenticate"] : undefined;
        let signIn: string | undefined;
        if ((status === 401 || status === 403) && this.auth && attempt === 0) {
          const answer = await this.auth.challenged(status, challenge);
          if (answer.retry) continue;
          signIn = answer.why;
        }
        const reply = tryJson(stripBom(text));
        // A JSON-RPC error for this request (e.g. -32022 with 400) is delivered as the response.
        if (reply && reply.jsonrpc === "2.0" && reply.id === id && "error" in reply) {
          this.guarded(reply, id); // (an `error` that is no error object is refused)
          return;
        }
        throw new HttpStatusError(status, text, challenge, signIn);
      }
      const type = String(res.headers["content-type"] ?? "");
      if (type.includes("text/event-stream")) await this.readSse(res, id);
      else {
        const text = stripBom(await this.readBody(res));
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch {
          throw new NotJson(`HTTP ${res.statusCode}: the reply is not JSON`);
        }
        // A body that is only a notification (or only junk) would leave the request waiting.
        if (!this.guarded(value, id))
          this.onmessage?.(refusalError(id, "the reply body is no response to the request"));
      }
    } catch (e) {
      if (e instanceof TooLarge) {
        ac.abort(); // stop reading: the rest of the body is never buffered
        this.onmessage?.(tooLargeError(id, this.maxBytes));
        return;
      }
      if (ac.signal.aborted) return; // cancelled: the request was already settled
      if (e instanceof HttpStatusError || e instanceof NotJson) throw e;
      throw new HttpConnectionError(e);
    } finally {
      this.inflight.delete(id);
      this.listing.delete(id);
    }
  }

  /**
   * One message of request `id`'s exchange through reply-guard.ts: a malformed reply (or one for
   * another id) fails the request at once. True when the request is settled.
   */
  private guarded(value: unknown, id: string | number): boolean {
    const { deliver } = guardIncoming(value, { pending: [id], exchange: id });
    if (deliver.length === 0) this.onerror?.(new Error("ignored a malformed server message"));
    let settled = false;
    for (const msg of deliver as unknown as Json[]) {
      this.deliver(msg);
      if (msg.id === id && ("result" in msg || "error" in msg)) settled = true;
    }
    return settled;
  }

  private deliver(msg: Json): void {
    if (this.listing.has(msg.id as string | number)) this.learnParamHeaders(msg.result);
    this.onmessage?.(msg as JSONRPCMessage);
  }

  /**
   * Records each listed tool's Mcp-Param headers for its later tools/call. A tool whose
   * annotations are invalid gets none: the host excludes it from its tools (host/catalog/tools.ts).
   */
  private learnParamHeaders(result: unknown): void {
    const tools = (result as { tools?: unknown } | undefined)?.tools;
    if (!Array.isArray(tools)) return;
    for (const t of tools as { name?: unknown; inputSchema?: unknown }[]) {
      if (typeof t?.name !== "string") continue;
      const plan = paramHeaderPlan(t.inputSchema);
      if (plan.ok && plan.headers.length > 0) this.paramPlans.set(t.name, plan.headers);
      else this.paramPlans.delete(t.name);
    }
  }

  /** The whole body as text, refusing to read past `maxBytes`. */
  private async readBody(res: IncomingMessage): Promise<string> {
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of res as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > this.maxBytes) throw new TooLarge();
      chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString("utf8");
  }

  /**
   * Reads the request's SSE stream until the response to `id` (which ends it). A stream that ends
   * without one fails the request at once. Lines end with CRLF, LF or a lone CR (WHATWG SSE).
   */
  private async readSse(res: IncomingMessage, id: string | number): Promise<void> {
    const decoder = new TextDecoder(); // drops a leading BOM, as the SSE spec wants
    let buffer = "";
    let data: string[] | undefined;
    let eventSize = 0;
    let notJson = 0;
    /** Delivers the pending event; true when it settled the request (a server may leave the stream open). */
    const dispatch = (): boolean => {
      if (data === undefined) return false;
      const text = data.join("\n");
      data = undefined;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        notJson++;
        this.onerror?.(new Error("SSE event data is not JSON"));
        return false;
      }
      return this.guarded(value, id);
    };
    /** Handles every complete line in the buffer; true when the request is settled. */
    const lines = (final: boolean): boolean => {
      const split = splitSseLines(buffer, final);
      let left = buffer.length; // what follows the line handled (approximately: line ends count 1)
      for (const line of split.lines) {
        left -= line.length + 1;
        if (line === "") {
          if (dispatch()) return true;
          eventSize = Math.max(left, 0); // the size limit is per event
          continue;
        }
        const field = sseField(line);
        if (field?.[0] === "data") (data ??= []).push(field[1]);
      }
      buffer = split.rest;
      return false;
    };
    for await (const chunk of res as AsyncIterable<Buffer>) {
      buffer += decoder.decode(chunk, { stream: true });
      eventSize += chunk.length;
      if (eventSize > this.maxBytes) throw new TooLarge();
      if (lines(false)) return; // leaving the loop destroys the response stream
    }
    buffer += decoder.decode();
    if (lines(true) || dispatch()) return;
    const junk = notJson > 0 ? ` (${notJson} event${notJson === 1 ? "" : "s"} whose data is not JSON)` : "";
    this.onmessage?.(refusalError(id, `the SSE stream ended without a response to the request${junk}`));
  }
}

/**
 * POSTs and resolves with the response once its headers arrive. node:http rather than fetch: its
 * body is a stream with backpressure, so a reply is read only as fast as it is consumed and a
 * refused one stops at the limit (fetch's body kept pulling: a 20 MB reply refused after 2 MB
 * still grew the process by the whole 20 MB). Aborting the signal destroys the exchange.
 */
function post(url: URL, headers: Record<string, string>, body: string, signal: AbortSignal): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    const req = send(
      url,
      { method: "POST", headers: { ...headers, "content-length": String(Buffer.byteLength(body)) }, signal },
      resolve,
    );
    req.on("error", reject); // later errors (after the response began) surface while reading the body
    req.end(body);
  });
}

function tryJson(text: string): Json | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return isObject(v) ? v : undefined;
  } catch {
    return undefined;
  }
}
