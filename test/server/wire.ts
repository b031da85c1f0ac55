// One interface over the demo server's two real transports, so each conformance test runs on
// stdio AND Streamable HTTP. Not a test file (the runner collects *.test.ts only).
import { spawnStdio, modernMeta, type JsonRpcMessage, type RawStdio } from "../helpers/raw-stdio.js";
import { postModern, rawRequest, startHttpServer, type HttpServerProcess } from "../helpers/raw-http.js";

export interface ModernOptions {
  version?: string;
  caps?: Record<string, unknown>;
  /** Extra `_meta` entries (e.g. progressToken). */
  meta?: Record<string, unknown>;
}

export interface LegacyWire {
  initializeResult: any;
  request(method: string, params?: unknown): Promise<JsonRpcMessage>;
}

export interface Wire {
  name: "stdio" | "http";
  /** A modern request with the envelope added to params._meta. */
  modern(method: string, params?: Record<string, unknown>, opts?: ModernOptions): Promise<JsonRpcMessage>;
  /** Sends exactly this message (HTTP: with the headers a client derives from it). Returns the response and its raw text. */
  send(body: JsonRpcMessage): Promise<{ msg: JsonRpcMessage; raw: string }>;
  /** A fresh legacy session (stdio: a fresh process) after initialize with this version. */
  legacy(version: string): Promise<LegacyWire>;
  close(): Promise<void>;
}

let seq = 1000;

function withEnvelope(params: Record<string, unknown> = {}, opts: ModernOptions = {}) {
  const { _meta, ...rest } = params as { _meta?: Record<string, unknown> };
  return { ...rest, _meta: { ...modernMeta(opts.version, opts.caps), ...opts.meta, ...(_meta ?? {}) } };
}

export async function stdioWire(): Promise<Wire> {
  const main = spawnStdio();
  const extra: RawStdio[] = [];
  const w: Wire = {
    name: "stdio",
    async modern(method, params, opts) {
      return (await main.request(method, withEnvelope(params, opts))).msg;
    },
    async send(body) {
      const from = main.lines.length;
      main.send(body);
      return main.waitFor(
        (m) => m.id === body.id && (m.result !== undefined || m.error !== undefined),
        undefined,
        from,
      );
    },
    async legacy(version) {
      const s = spawnStdio();
      extra.push(s);
      const init = await s.request("initialize", {
        protocolVersion: version,
        capabilities: {},
        clientInfo: { name: "raw-legacy", version: "0" },
      });
      s.send({ jsonrpc: "2.0", method: "notifications/initialized" });
      return {
        initializeResult: init.msg.result,
        request: async (method, params) => (await s.request(method, params)).msg,
      };
    },
    async close() {
      await Promise.all([main.close(), ...extra.map((s) => s.close())]);
    },
  };
  return w;
}

export async function httpWire(existing?: HttpServerProcess): Promise<Wire & { url: string }> {
  const srv = existing ?? (await startHttpServer());
  return {
    name: "http",
    url: srv.url,
    async modern(method, params, opts) {
      const r = await postModern(srv.url, { jsonrpc: "2.0", id: seq++, method, params: withEnvelope(params, opts) });
      return r.json ?? r.events?.at(-1);
    },
    async send(body) {
      const r = await postModern(srv.url, body as { jsonrpc: "2.0"; method: string });
      return { msg: r.json ?? r.events?.at(-1), raw: r.text };
    },
    async legacy(version) {
      const init = await rawRequest(srv.url, {
        headers: { accept: "application/json, text/event-stream" },
        body: {
          jsonrpc: "2.0",
          id: seq++,
          method: "initialize",
          params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "raw-legacy", version: "0" } },
        },
      });
      const session = String(init.headers["mcp-session-id"] ?? "");
      if (!session)
        throw new Error(`legacy initialize over HTTP returned no Mcp-Session-Id (status ${init.status}: ${init.text})`);
      const headers = {
        accept: "application/json, text/event-stream",
        "mcp-session-id": session,
        "mcp-protocol-version": init.json.result.protocolVersion,
      };
      const notified = await rawRequest(srv.url, {
        headers,
        body: { jsonrpc: "2.0", method: "notifications/initialized" },
      });
      if (notified.status !== 202) throw new Error(`notifications/initialized got HTTP ${notified.status}`);
      return {
        initializeResult: init.json.result,
        request: async (method, params) => {
          const r = await rawRequest(srv.url, {
            headers,
            body: { jsonrpc: "2.0", id: seq++, method, ...(params === undefined ? {} : { params }) },
          });
          return r.json ?? r.events?.at(-1);
        },
      };
    },
    close: () => (existing ? Promise.resolve() : srv.close()),
  };
}
