// Streamable HTTP binding on node:http, loopback only. Modern POSTs follow the 2026-07-28 rules
// (header/body agreement, 400/404 statuses, per-request SSE when a progressToken asks for
// notifications, closing the stream cancels). A POST of `initialize` without the modern `_meta`
// envelope, or one carrying the Mcp-Session-Id minted by it, is served with 2025-11-25 semantics
// (JSON replies, no GET stream).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { ErrorCode, headerMismatch, paramHeaderPlan, type ParamHeader } from "../protocol/index.js";
import { CancelledError } from "./call.js";
import { ToolkitServer, type LegacySession, type RequestContext } from "./engine.js";
import { requestedLogLevel } from "./senders.js";
import { RpcError } from "./errors.js";

export interface HttpServeOptions {
  /** 0 picks a free port. */
  port?: number;
  path?: string;
  /** Largest accepted request body in bytes. */
  maxBodyBytes?: number;
}

export interface HttpHandle {
  url: string;
  port: number;
  server: Server;
  close(): Promise<void>;
}

type Message = { jsonrpc: "2.0"; id?: string | number; method: string; params?: unknown };
type Reply = { jsonrpc: "2.0"; id: string | number; result?: unknown; error?: { code?: unknown; message?: unknown } };
type Id = string | number | null;

const MAX_SESSIONS = 1000;
/** How long a legacy client may take to answer elicitation/sampling/roots (a person may be typing). */
const CLIENT_REQUEST_TIMEOUT_MS = 10 * 60_000;
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** "localhost:3000", "127.0.0.1", "[::1]:8080" → true. */
export function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  const name = host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : host.split(":")[0];
  return LOOPBACK.has(name.toLowerCase());
}

export function isLoopbackOrigin(origin: string): boolean {
  try {
    const u = new URL(origin);
    return (u.protocol === "http:" || u.protocol === "https:") && LOOPBACK.has(u.hostname.toLowerCase());
  } catch {
    return false;
  }
}

export { decodeHeaderValue } from "../protocol/index.js";

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

function errorBody(id: Id | undefined, code: number, message: string, data?: unknown) {
  const error = data === undefined ? { code, message } : { code, message, data };
  return id === undefined ? { jsonrpc: "2.0", error } : { jsonrpc: "2.0", id, error };
}

async function readBody(req: IncomingMessage, limit: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

export class ToolkitHttpHandler {
  private readonly sessions = new Map<string, LegacySession>();
  /** Per tool, the Mcp-Param headers its inputSchema designates (the 2026-07-28 header rules). */
  private readonly paramPlans = new Map<string, readonly ParamHeader[]>();
  /** Server→client requests awaiting the client's POSTed answer, by session and request id. */
  private readonly pending = new Map<string, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private nextRequestId = 1;

  constructor(
    private readonly server: ToolkitServer,
    private readonly options: Required<Pick<HttpServeOptions, "path" | "maxBodyBytes">>,
  ) {
    for (const t of server.options.tools) {
      const plan = paramHeaderPlan(t.inputSchema);
      if (plan.ok && plan.headers.length > 0) this.paramPlans.set(t.name, plan.headers);
    }
  }

  /** The header/body agreement of a modern request (protocol/http-headers.ts): throws HeaderMismatch. */
  private checkHeaders(req: IncomingMessage, msg: Message, version: string): void {
    const params = (msg.params ?? {}) as Record<string, unknown>;
    const plan =
      msg.method === "tools/call" && typeof params.name === "string" ? this.paramPlans.get(params.name) : undefined;
    const mismatch = headerMismatch(req.headers, msg.method, params, version, plan);
    if (mismatch !== undefined)
      throw new RpcError(ErrorCode.HeaderMismatch, `Header mismatch: ${mismatch}`, undefined, 400);
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // DNS-rebinding protection before anything else.
    if (!isLoopbackHost(req.headers.host))
      return sendJson(
        res,
        421,
        errorBody(
          undefined,
          ErrorCode.InvalidRequest,
          `Host ${JSON.stringify(req.headers.host ?? "")} is not a loopback name`,
        ),
      );
    const origin = req.headers.origin;
    if (origin !== undefined && !isLoopbackOrigin(origin))
      return sendJson(
        res,
        403,
        errorBody(undefined, ErrorCode.InvalidRequest, `Origin ${JSON.stringify(origin)} is not allowed`),
      );
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (path !== this.options.path)
      return sendJson(res, 404, errorBody(undefined, ErrorCode.InvalidRequest, `no MCP endpoint at ${path}`));

    const sessionHeader = req.headers["mcp-session-id"];
    const sessionId = typeof sessionHeader === "string" ? sessionHeader : undefined;
    if (req.method === "DELETE" && sessionId !== undefined && this.sessions.delete(sessionId)) {
      res.writeHead(200).end();
      return;
    }
    if (req.method !== "POST") {
      return sendJson(
        res,
        405,
        errorBody(
          undefined,
          ErrorCode.InvalidRequest,
          `HTTP ${req.method} is not allowed: POST one JSON-RPC message to ${this.options.path}`,
        ),
        { allow: "POST" },
      );
    }

    const text = await readBody(req, this.options.maxBodyBytes);
    if (text === undefined)
      return sendJson(res, 413, errorBody(undefined, ErrorCode.InvalidRequest, "request body is too large"));
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return sendJson(res, 400, errorBody(undefined, ErrorCode.ParseError, "Parse error: the body is not JSON"));
    }
    const msg = parsed as Message;
    // A legacy client answering a request this server sent on one of its streams.
    const reply = parsed as Reply;
    if (
      sessionId !== undefined &&
      typeof parsed === "object" &&
      parsed !== null &&
      reply.jsonrpc === "2.0" &&
      !("method" in reply) &&
      ("result" in reply || "error" in reply)
    ) {
      const waiter = this.pending.get(`${sessionId}\u0000${String(reply.id)}`);
      if (!waiter)
        return sendJson(
          res,
          404,
          errorBody(undefined, ErrorCode.InvalidRequest, "no request of this server awaits that answer"),
        );
      if ("error" in reply)
        waiter.reject(
          new RpcError(
            ErrorCode.InvalidParams,
            `the client refused the request: ${String(reply.error?.message ?? "error")}`.slice(0, 300),
          ),
        );
      else waiter.resolve(reply.result);
      res.writeHead(202).end();
      return;
    }
    if (
      typeof parsed !== "object" ||
      parsed === null ||
      Array.isArray(parsed) ||
      msg.jsonrpc !== "2.0" ||
      typeof msg.method !== "string"
    ) {
      return sendJson(
        res,
        400,
        errorBody(undefined, ErrorCode.InvalidRequest, "the body must be a single JSON-RPC request or notification"),
      );
    }
    const isRequest = typeof msg.id === "string" || typeof msg.id === "number";
    const id: Id = isRequest ? (msg.id as string | number) : null;
    const modern = ToolkitServer.isModern(msg.params);

    // Legacy (2025-11-25 Streamable HTTP): initialize mints a session; its id selects it later.
    // An initialize with the modern envelope is a modern request: 404 -32601 below.
    if (msg.method === "initialize" && isRequest && !modern) {
      const newId = randomUUID();
      const session: LegacySession = {};
      const ok = await this.dispatch(res, msg, id, session, { "mcp-session-id": newId }, newId);
      if (ok) {
        this.sessions.set(newId, session);
        // Bound memory: the oldest session goes first (Maps iterate in insertion order).
        if (this.sessions.size > MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value!);
      }
      return;
    }
    if (sessionId !== undefined && !modern) {
      const session = this.sessions.get(sessionId);
      if (!session)
        return sendJson(res, 404, errorBody(id, ErrorCode.InvalidRequest, "Session not found: initialize again"));
      if (!isRequest) {
        res.writeHead(202).end();
        return;
      }
      await this.dispatch(res, msg, id, session, { "mcp-session-id": sessionId }, sessionId);
      return;
    }

    // Modern: this revision defines no client notifications over HTTP; accept and ignore them.
    if (!isRequest) {
      res.writeHead(202).end();
      return;
    }
    try {
      const env = ToolkitServer.readEnvelope(msg.params);
      this.checkHeaders(req, msg, env.version);
      ToolkitServer.checkVersion(env.version);
      if (!this.server.servesModern(msg.method))
        throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${msg.method}`, undefined, 404);
    } catch (e) {
      if (!(e instanceof RpcError)) throw e;
      return sendJson(res, e.httpStatus, errorBody(id, e.code, e.message, e.data));
    }
    await this.dispatch(res, msg, id, undefined, {});
  }

  /**
   * Runs one request. With a progressToken (or a modern logLevel) the reply is an SSE stream
   * carrying the request's notifications and then its response; otherwise one JSON object, unless
   * a notification or (legacy sessions only) a server→client request needs the stream first.
   * Returns true on a result.
   */
  private async dispatch(
    res: ServerResponse,
    msg: Message,
    id: Id,
    session: LegacySession | undefined,
    headers: Record<string, string>,
    sessionId?: string,
  ): Promise<boolean> {
    const controller = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) controller.abort(); // the client closed the stream: cancellation
    });
    const meta = (msg.params as { _meta?: { progressToken?: unknown } } | undefined)?._meta;
    // Notifications need a stream: progress, or logs the request asked for (modern requests only).
    let sse = false;
    const openSse = () => {
      if (sse) return;
      sse = true;
      res.writeHead(200, {
        "content-type": "text/event-stream",
        "cache-control": "no-cache",
        "x-accel-buffering": "no",
        ...headers,
      });
    };
    if (meta?.progressToken !== undefined || (session === undefined && requestedLogLevel(msg.params) !== undefined))
      openSse();
    const writeEvent = (m: unknown) => res.write(`event: message\ndata: ${JSON.stringify(m)}\n\n`);
    const ctx: RequestContext = {
      signal: controller.signal,
      session,
      ...(id !== null ? { requestId: id } : {}),
      notify: async (n) => {
        if (controller.signal.aborted) return;
        openSse();
        writeEvent({ jsonrpc: "2.0", ...n });
      },
    };
    // 2025-11-25: the server may send requests related to this one on its response stream; the
    // client POSTs the answer with the session id. Modern requests never get this (MRTR instead).
    if (session !== undefined && sessionId !== undefined)
      ctx.request = (method, params) =>
        this.requestClient(sessionId, method, params, openSse, writeEvent, controller.signal);
    let reply: unknown;
    let status = 200;
    let ok = false;
    try {
      reply = { jsonrpc: "2.0", id, result: await this.server.handle(msg.method, msg.params, ctx) };
      ok = true;
    } catch (e) {
      if (e instanceof CancelledError || controller.signal.aborted) return false; // nothing more for a cancelled request
      const err =
        e instanceof RpcError ? e : new RpcError(ErrorCode.InternalError, e instanceof Error ? e.message : String(e));
      reply = errorBody(id, err.code, err.message, err.data);
      status = err.httpStatus;
    }
    if (controller.signal.aborted) return false;
    if (sse) {
      writeEvent(reply);
      res.end();
    } else {
      sendJson(res, status, reply, headers);
    }
    return ok;
  }

  private requestClient(
    sessionId: string,
    method: string,
    params: Record<string, unknown>,
    openSse: () => void,
    writeEvent: (m: unknown) => void,
    signal: AbortSignal,
  ): Promise<unknown> {
    const requestId = `s${this.nextRequestId++}`;
    const key = `${sessionId}\u0000${requestId}`;
    return new Promise<unknown>((resolve, reject) => {
      const done = () => {
        this.pending.delete(key);
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
      };
      const onAbort = () => {
        done();
        reject(new CancelledError());
      };
      const timer = setTimeout(() => {
        done();
        reject(
          new RpcError(
            ErrorCode.InternalError,
            `the client did not answer ${method} within ${CLIENT_REQUEST_TIMEOUT_MS / 1000} s`,
          ),
        );
      }, CLIENT_REQUEST_TIMEOUT_MS);
      signal.addEventListener("abort", onAbort, { once: true });
      this.pending.set(key, {
        resolve: (v) => (done(), resolve(v)),
        reject: (e) => (done(), reject(e)),
      });
      openSse();
      writeEvent({ jsonrpc: "2.0", id: requestId, method, params });
    });
  }
}

/** Serves the toolkit server on http://127.0.0.1:PORT/mcp. */
export async function serveHttp(server: ToolkitServer, options: HttpServeOptions = {}): Promise<HttpHandle> {
  const handler = new ToolkitHttpHandler(server, {
    path: options.path ?? "/mcp",
    maxBodyBytes: options.maxBodyBytes ?? 4 * 1024 * 1024,
  });
  const http = createServer((req, res) => {
    handler.handle(req, res).catch((e: unknown) => {
      if (!res.headersSent)
        sendJson(res, 500, errorBody(undefined, ErrorCode.InternalError, e instanceof Error ? e.message : String(e)));
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}${options.path ?? "/mcp"}`,
    port,
    server: http,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
