// Raw Streamable HTTP requests for exact status / header / body assertions.
//
//   const srv = await startHttpServer();            // node bin/mcp-prism.js demo-server --http 0
//   t.after(() => srv.close());
//   const r = await postModern(srv.url, { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: modernMeta() } });
//   r.status, r.headers["content-type"], r.text, r.json, r.events (SSE data, parsed)
//
// node:http is used rather than fetch because fetch cannot send a forged Host header.
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { spawn } from "node:child_process";
import { CLI, REPO_ROOT } from "./raw-stdio.js";
import { waitForListeningUrl } from "./listening.js";

export interface RawHttpResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** The parsed body when it is JSON. */
  json?: any;
  /** For text/event-stream: the parsed `data:` payload of every event, in order. */
  events?: any[];
}

export interface RawRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  /** An object is JSON-encoded; a string is sent as is. */
  body?: object | string;
  /** Aborting closes the connection (the 2026-07-28 HTTP cancellation signal). */
  signal?: AbortSignal;
  /** Called with each SSE event as it arrives. */
  onEvent?: (event: any) => void;
}

function parseSse(text: string): any[] {
  return text
    .split(/\n\n/)
    .map((block) =>
      block
        .split("\n")
        .filter((l) => l.startsWith("data:"))
        .map((l) => l.slice(5).trimStart())
        .join("\n"),
    )
    .filter((d) => d.length > 0)
    .map((d) => JSON.parse(d));
}

/** One HTTP request with exactly the given headers (plus Content-Type/Length for a body). */
export function rawRequest(url: string, opts: RawRequestOptions = {}): Promise<RawHttpResponse> {
  const body =
    opts.body === undefined ? undefined : typeof opts.body === "string" ? opts.body : JSON.stringify(opts.body);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {
      ...(body !== undefined ? { "content-type": "application/json" } : {}),
      ...opts.headers,
    };
    if (body !== undefined) headers["content-length"] = String(Buffer.byteLength(body));
    const req = httpRequest(url, { method: opts.method ?? "POST", headers, signal: opts.signal }, (res) => {
      let text = "";
      let seen = 0;
      res.setEncoding("utf8");
      res.on("data", (c: string) => {
        text += c;
        if (opts.onEvent) {
          const complete = text.lastIndexOf("\n\n");
          if (complete > seen) {
            for (const e of parseSse(text.slice(seen, complete + 2))) opts.onEvent(e);
            seen = complete + 2;
          }
        }
      });
      res.on("error", reject);
      res.on("end", () => {
        const out: RawHttpResponse = { status: res.statusCode ?? 0, headers: res.headers, text };
        const type = String(res.headers["content-type"] ?? "");
        if (type.startsWith("application/json") && text) out.json = JSON.parse(text);
        if (type.startsWith("text/event-stream")) out.events = parseSse(text);
        resolve(out);
      });
    });
    req.on("error", reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** Headers a conforming modern client derives from the body (MCP-Protocol-Version, Mcp-Method, Mcp-Name). */
export function modernHeaders(body: { method: string; params?: any }): Record<string, string> {
  const h: Record<string, string> = { accept: "application/json, text/event-stream", "mcp-method": body.method };
  const version = body.params?._meta?.["io.modelcontextprotocol/protocolVersion"];
  if (typeof version === "string") h["mcp-protocol-version"] = version;
  const name =
    body.method === "tools/call" || body.method === "prompts/get"
      ? body.params?.name
      : body.method === "resources/read"
        ? body.params?.uri
        : undefined;
  if (typeof name === "string")
    h["mcp-name"] =
      /^[\x20-\x7e]*$/.test(name) && name.trim() === name && !name.startsWith("=?base64?")
        ? name
        : `=?base64?${Buffer.from(name).toString("base64")}?=`;
  return h;
}

/** POSTs a modern request with derived headers; `headers` overrides (set a value to "" to drop one). */
export function postModern(
  url: string,
  body: { jsonrpc: "2.0"; id?: string | number; method: string; params?: any },
  headers: Record<string, string> = {},
  opts: Omit<RawRequestOptions, "headers" | "body"> = {},
) {
  const merged = { ...modernHeaders(body), ...headers };
  for (const [k, v] of Object.entries(merged)) if (v === "") delete merged[k];
  return rawRequest(url, { ...opts, headers: merged, body });
}

export interface HttpServerProcess {
  url: string;
  stderr(): string;
  close(): Promise<void>;
}

/** Spawns `mcp-prism demo-server --http 0` (or other args) and waits for "listening on URL". */
export function startHttpServer(
  args: string[] = ["demo-server", "--http", "0"],
  timeoutMs = 10_000,
): Promise<HttpServerProcess> {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "pipe"] });
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 2000);
      await exited;
      clearTimeout(timer);
    }
  };
  return waitForListeningUrl(child, "raw-http: the server", timeoutMs).then(
    ({ url, stderr }) => ({ url, stderr, close }),
    async (e: Error) => {
      await close();
      throw e;
    },
  );
}
