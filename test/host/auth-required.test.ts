// HTTP 401/403 is "authorization needed": one line naming the server, the status and what the
// WWW-Authenticate challenge asks for — on the modern probe and on the SDK's legacy transport —
// never a legacy fallback and never the raw body. Real loopback HTTP servers.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { Connection, ConnectionError } from "../../src/host/connection/connection.js";
import { EraCache } from "../../src/host/connection/era-cache.js";
import { config, tempDir } from "../helpers/host-fixtures.js";

const CHALLENGE =
  'Bearer realm="prism-test", error="invalid_token", resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource/mcp"';

/** A server that reads each JSON body and answers through `reply`; records the methods it saw. */
async function server(reply: (method: string, res: ServerResponse, req: IncomingMessage) => void) {
  const methods: string[] = [];
  const http = createServer(async (req, res) => {
    let body = "";
    for await (const c of req) body += c;
    const method = body ? String(JSON.parse(body).method) : `${req.method} (no body)`;
    methods.push(method);
    reply(method, res, req);
  });
  await new Promise<void>((r) => http.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(http.address() as { port: number }).port}/mcp`;
  return { url, methods, close: () => new Promise<void>((r) => http.close(() => r())) };
}
const unauthorized = (res: ServerResponse) =>
  res
    .writeHead(401, { "content-type": "application/json", "www-authenticate": CHALLENGE })
    .end('{"error":"invalid_token","secret":"BODY-TEXT"}');

const servers: { close(): Promise<void> }[] = [];
after(() => Promise.all(servers.map((s) => s.close())));

async function connect(url: string, cache?: EraCache): Promise<{ conn: Connection; error: ConnectionError }> {
  const cfg = config({}).limits;
  const conn = new Connection({
    name: "secure",
    config: { kind: "http", url, headers: { authorization: "Bearer expired" } },
    limits: cfg,
    eraCache: cache,
  });
  const error = await conn.ensureConnected().then(
    () => assert.fail("connected without credentials"),
    (e: unknown) => e as ConnectionError,
  );
  await conn.close();
  return { conn, error };
}

function assertAuthLine(error: ConnectionError, status: number): void {
  assert.ok(error instanceof ConnectionError, String(error));
  assert.equal(error.rule, "auth-required");
  assert.match(
    error.message,
    new RegExp(
      `^server secure: HTTP ${status}: the server needs authorization \\(Bearer, realm "prism-test", resource_metadata "http://127\\.0\\.0\\.1/\\.well-known/oauth-protected-resource/mcp", error "invalid_token"\\)`,
    ),
  );
  assert.doesNotMatch(error.message, /BODY-TEXT|Error POSTing|legacy/);
  assert.equal(error.message.split("\n").length, 1);
}

test("the modern probe answered 401: auth-required, no initialize, no legacy transport", async () => {
  const s = await server((_m, res) => unauthorized(res));
  servers.push(s);
  const { conn, error } = await connect(s.url);
  assertAuthLine(error, 401);
  assert.deepEqual(s.methods, ["server/discover"]);
  assert.equal(conn.state, "idle");
});

test("the SDK's legacy transport answered 401 (the probe got a legacy 400): auth-required, the body never shown", async () => {
  const s = await server((method, res) => {
    if (method === "server/discover")
      res.writeHead(400, { "content-type": "text/plain" }).end("Bad Request: unknown method");
    else unauthorized(res);
  });
  servers.push(s);
  const { error } = await connect(s.url);
  assertAuthLine(error, 401);
  assert.deepEqual(s.methods, ["server/discover", "initialize"]);
});

test("a remembered legacy server that now answers 401: auth-required from initialize, no re-probe", async () => {
  const s = await server((_m, res) => unauthorized(res));
  servers.push(s);
  const cache = new EraCache(tempDir());
  cache.set(
    { kind: "http", url: s.url, headers: { authorization: "Bearer expired" } },
    { era: "legacy", version: "2025-11-25" },
  );
  const { error } = await connect(s.url, cache);
  assertAuthLine(error, 401);
  assert.deepEqual(s.methods, ["initialize"]);
});

test("403 on the probe: auth-required naming 403", async () => {
  const s = await server((_m, res) =>
    res.writeHead(403, { "www-authenticate": 'Bearer error="insufficient_scope", scope="tools"' }).end("forbidden"),
  );
  servers.push(s);
  const { error } = await connect(s.url);
  assert.equal(error.rule, "auth-required");
  assert.match(
    error.message,
    /^server secure: HTTP 403: the server refused the credentials \(Bearer, error "insufficient_scope"\)$/,
  );
});
