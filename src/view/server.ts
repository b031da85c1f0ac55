// The local View host's two loopback web servers (MCP Apps 2026-01-26 "sandbox proxy"): the host
// page's origin and the sandbox proxy's origin, on different ports of 127.0.0.1. Every path of the
// host page's server starts with a random token; the proxy pages are at `/proxy/<random path per
// View>`, never the token: the App's srcdoc inherits its proxy's URL as `document.baseURI`, so the
// App can read that path. Every request's Host must name the server itself and its Origin, when sent,
// must be the one origin allowed to talk to it (DNS rebinding, other local pages, the Views
// themselves); no CORS header is ever sent. What a View may do is decided by the handler (session.ts).
import { randomBytes, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { exceedsJsonDepth } from "../protocol/json-depth.js";
import { isObject } from "../protocol/is-object.js";
import { GUARD_SCRIPT } from "./no-webrtc.js";

/** The largest request body a page may POST (a View's tools/call arguments, a message). */
export const MAX_RPC_BYTES = 1024 * 1024;
const MAX_RPC_DEPTH = 64;

/** A refusal a View's request gets: a JSON-RPC error code and one line. */
export class ViewError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = "ViewError";
  }
}

export interface ViewServerOptions {
  /** The host page's HTML body parts and its bundled script. */
  pageScript: () => string;
  /** The sandbox proxy page of one View (its CSP and iframe `allow`), or undefined when there is no such View. */
  proxyOf: (viewId: string) => { csp: string; allow: string } | undefined;
  /** A request a View made (relayed by the page). Throws ViewError to refuse. */
  onRequest: (viewId: string, method: string, params: Record<string, unknown>) => Promise<unknown>;
  /** Everything already shown, for a page that connects now (then each new event). */
  replay: () => unknown[];
}

/** The host page: a list of Views and the bundled bridge script; nothing inline. */
const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>mcp-prism · App Views</title>
<style>body{font:14px system-ui,sans-serif;margin:0 auto;max-width:1100px;padding:1rem}
h1{font-size:1.1rem}h2{font-size:.95rem;color:#555;margin:1.2rem 0 .3rem}
iframe{display:block;width:100%;height:420px;border:1px solid #ccc;border-radius:6px}</style></head>
<body><h1>mcp-prism · App Views <small id="status">no View yet</small></h1><main id="views"></main>
<script type="module" src="host.js"></script></body></html>`;

function proxyPage(hostOrigin: string, allow: string): string {
  // The relay: the App's HTML arrives once from the host page and goes into an inner iframe whose
  // sandbox (no same-origin, no top navigation, no popups) and `allow` are fixed here, never taken
  // from the message; then every message is passed between the two, checked by its source. The
  // WebRTC guard (no-webrtc.ts) goes first in the App's document, after a leading doctype.
  return `<!doctype html><html><head><meta charset="utf-8"><style>html,body{margin:0;height:100%;overflow:hidden}iframe{border:0;width:100%;height:100%;display:block}</style></head><body><script>
(() => {
  const HOST = ${JSON.stringify(hostOrigin)}, host = window.parent, GUARD = ${JSON.stringify(GUARD_SCRIPT).split("<").join("\\u003c")};
  if (window.self === window.top) return;
  let inner = null;
  window.addEventListener("message", (e) => {
    if (e.source === host && e.origin === HOST) {
      const m = e.data;
      if (m && m.method === "ui/notifications/sandbox-resource-ready") {
        if (inner || !m.params || typeof m.params.html !== "string") return;
        inner = document.createElement("iframe");
        inner.setAttribute("sandbox", "allow-scripts allow-forms");
        ${allow ? `inner.setAttribute("allow", ${JSON.stringify(allow)});` : ""}
        const html = m.params.html, d = /^\\s*<!doctype[^>]*>/i.exec(html);
        inner.srcdoc = d ? d[0] + GUARD + html.slice(d[0].length) : GUARD + html;
        document.body.appendChild(inner);
      } else if (inner && inner.contentWindow) inner.contentWindow.postMessage(m, "*");
    } else if (inner && e.source === inner.contentWindow) host.postMessage(e.data, HOST);
  });
  host.postMessage({ jsonrpc: "2.0", method: "ui/notifications/sandbox-proxy-ready", params: {} }, HOST);
})();
</script></body></html>`;
}

const COMMON_HEADERS = {
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cross-origin-resource-policy": "same-origin",
};

function send(
  res: ServerResponse,
  status: number,
  type: string,
  body: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    ...COMMON_HEADERS,
    "content-type": type,
    "content-length": Buffer.byteLength(body),
    ...headers,
  });
  res.end(body);
}

const refuse = (res: ServerResponse, status: number, why: string) =>
  send(res, status, "text/plain; charset=utf-8", `${why}\n`);

async function readBody(req: IncomingMessage, max: number): Promise<string | undefined> {
  let size = 0;
  const parts: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) return undefined;
    parts.push(chunk);
  }
  return Buffer.concat(parts).toString("utf8");
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port));
  });
}

export class ViewServer {
  readonly token = randomBytes(24).toString("base64url");
  private hostPort = 0;
  private sandboxPort = 0;
  private readonly host: Server;
  private readonly sandbox: Server;
  private readonly streams = new Set<ServerResponse>();
  /** The proxy pages' paths: a random one per View (an App can read its own, never the token). */
  private readonly proxyPaths = new Map<string, string>();
  private readonly proxyViews = new Map<string, string>();
  /** Requests refused, by reason (tests and the App pane read them). */
  readonly refused: string[] = [];

  constructor(private readonly opts: ViewServerOptions) {
    this.host = createServer((req, res) => void this.serveHost(req, res));
    this.sandbox = createServer((req, res) => this.serveSandbox(req, res));
  }

  async start(): Promise<void> {
    this.hostPort = await listen(this.host);
    this.sandboxPort = await listen(this.sandbox);
  }

  get hostOrigin(): string {
    return `http://127.0.0.1:${this.hostPort}`;
  }
  get sandboxOrigin(): string {
    return `http://127.0.0.1:${this.sandboxPort}`;
  }
  /** The page's URL: the one thing printed (`view: URL`) and opened. */
  get url(): string {
    return `${this.hostOrigin}/${this.token}/`;
  }
  proxyUrl(viewId: string): string {
    let path = this.proxyPaths.get(viewId);
    if (path === undefined) {
      path = randomBytes(18).toString("base64url");
      this.proxyPaths.set(viewId, path);
      this.proxyViews.set(path, viewId);
    }
    return `${this.sandboxOrigin}/proxy/${path}`;
  }

  /** Sends one event to every connected page. */
  broadcast(event: unknown): void {
    const line = `data: ${JSON.stringify(event)}\n\n`;
    for (const s of this.streams) s.write(line);
  }

  get pages(): number {
    return this.streams.size;
  }

  async close(): Promise<void> {
    for (const s of this.streams) s.end();
    this.streams.clear();
    const stop = (s: Server) => new Promise<void>((r) => s.close(() => r()));
    this.host.closeAllConnections();
    this.sandbox.closeAllConnections();
    await Promise.all([stop(this.host), stop(this.sandbox)]);
  }

  /** The path after the token (none: the whole path), or undefined (and the reason recorded) when the request is refused. */
  private admit(
    req: IncomingMessage,
    res: ServerResponse,
    port: number,
    origins: readonly string[],
    token = true,
  ): string | undefined {
    const no = (status: number, why: string) => {
      this.refused.push(why);
      refuse(res, status, why);
      return undefined;
    };
    if (req.headers.host !== `127.0.0.1:${port}`) return no(421, "wrong Host");
    const origin = req.headers.origin;
    if (origin !== undefined && !origins.includes(origin)) return no(403, "foreign Origin");
    const url = req.url ?? "/";
    if (!token) return url.slice(1).split("?")[0];
    const slash = url.indexOf("/", 1);
    const given = Buffer.from(url.slice(1, slash < 0 ? undefined : slash));
    const want = Buffer.from(this.token);
    if (given.length !== want.length || !timingSafeEqual(given, want)) return no(404, "no token");
    if (req.method === "OPTIONS") return no(405, "no CORS");
    return slash < 0 ? "" : url.slice(slash + 1).split("?")[0];
  }

  private async serveHost(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = this.admit(req, res, this.hostPort, [this.hostOrigin]);
    if (path === undefined) return;
    const pageCsp = `default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'; img-src 'self' data:; frame-src ${this.sandboxOrigin}; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`;
    if (req.method === "GET" && path === "")
      return send(res, 200, "text/html; charset=utf-8", PAGE, { "content-security-policy": pageCsp });
    if (req.method === "GET" && path === "host.js")
      return send(res, 200, "text/javascript; charset=utf-8", this.opts.pageScript());
    if (req.method === "GET" && path === "events") return this.stream(res);
    if (req.method === "POST" && path === "rpc") {
      // Only the host page itself: a POST always carries its Origin.
      if (req.headers.origin !== this.hostOrigin)
        return void (this.refused.push("rpc without Origin"), refuse(res, 403, "rpc without Origin"));
      return this.rpc(req, res);
    }
    this.refused.push(`no route ${req.method} ${path.slice(0, 40)}`);
    refuse(res, 404, "not found");
  }

  private serveSandbox(req: IncomingMessage, res: ServerResponse): void {
    // Navigations (the host page framing a proxy) send no Origin; nothing else is served here.
    const path = this.admit(req, res, this.sandboxPort, [], false);
    if (path === undefined) return;
    const m = /^proxy\/([A-Za-z0-9_-]{24})$/.exec(path);
    const id = m ? this.proxyViews.get(m[1]) : undefined;
    const view = id !== undefined && req.method === "GET" ? this.opts.proxyOf(id) : undefined;
    if (!view) return void (this.refused.push("no such View"), refuse(res, 404, "not found"));
    send(res, 200, "text/html; charset=utf-8", proxyPage(this.hostOrigin, view.allow), {
      "content-security-policy": view.csp,
    });
  }

  private stream(res: ServerResponse): void {
    res.writeHead(200, {
      ...COMMON_HEADERS,
      "content-type": "text/event-stream; charset=utf-8",
      connection: "keep-alive",
    });
    for (const e of this.opts.replay()) res.write(`data: ${JSON.stringify(e)}\n\n`);
    this.streams.add(res);
    res.on("close", () => this.streams.delete(res));
  }

  private async rpc(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const reply = (body: unknown) => send(res, 200, "application/json", JSON.stringify(body));
    const fail = (code: number, message: string) => reply({ error: { code, message } });
    const text = await readBody(req, MAX_RPC_BYTES);
    if (text === undefined) return fail(-32600, `request over ${MAX_RPC_BYTES} bytes`);
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch {
      return fail(-32700, "not JSON");
    }
    if (!isObject(msg) || exceedsJsonDepth(msg, MAX_RPC_DEPTH))
      return fail(-32600, "not a request object (or nested too deep)");
    const { view, method, params } = msg;
    if (typeof view !== "string" || typeof method !== "string" || (params !== undefined && !isObject(params)))
      return fail(-32600, "view, method and params expected");
    try {
      reply({ result: (await this.opts.onRequest(view, method, (params ?? {}) as Record<string, unknown>)) ?? {} });
    } catch (e) {
      if (e instanceof ViewError) return fail(e.code, e.message);
      fail(-32603, "the host failed to answer");
    }
  }
}
