// A legacy Streamable HTTP session is ended with DELETE when the connection closes, observed by a
// real SDK 1.32.2 StreamableHTTPServerTransport with sessions; a server that answers DELETE with
// 405 or never answers it does not hold the close up.
import { test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { Host } from "../../src/host/host.js";
import { config } from "../helpers/host-fixtures.js";

interface SessionServer {
  url: string;
  /** Session ids the server issued. */
  issued: string[];
  /** DELETE requests seen: the session header and the status answered. */
  deletes: { sid: string | undefined; status: number }[];
  /** Sessions the SDK transport closed server-side. */
  closed: string[];
  stop(): Promise<void>;
}

/** The SDK's session-keeping legacy server; `onDelete` "sdk" lets the SDK answer DELETE. */
async function sessionServer(onDelete: "sdk" | 405 | "hang"): Promise<SessionServer> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const s: Omit<SessionServer, "url" | "stop"> = { issued: [], deletes: [], closed: [] };
  const http: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : undefined;
    const sid = typeof req.headers["mcp-session-id"] === "string" ? req.headers["mcp-session-id"] : undefined;
    if (req.method === "DELETE") {
      if (onDelete === "hang") return void s.deletes.push({ sid, status: 0 }); // never answered
      if (onDelete === 405) {
        s.deletes.push({ sid, status: 405 });
        return void res.writeHead(405, { allow: "GET, POST" }).end();
      }
      res.once("finish", () => s.deletes.push({ sid, status: res.statusCode }));
    }
    let transport = sid ? transports.get(sid) : undefined;
    if (!transport && body?.method === "initialize") {
      const t: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          s.issued.push(id);
          transports.set(id, t);
        },
      });
      t.onclose = () => t.sessionId && s.closed.push(t.sessionId);
      const server = new McpServer({ name: "sessions", version: "1" });
      server.registerTool("ping_tool", { description: "ping" }, async () => ({
        content: [{ type: "text", text: "pong" }],
      }));
      await server.connect(t);
      transport = t;
    }
    if (!transport) {
      res.writeHead(400, { "content-type": "application/json" }).end(
        JSON.stringify({
          jsonrpc: "2.0",
          error: { code: -32000, message: "Bad Request: Server not initialized" },
          id: null,
        }),
      );
      return;
    }
    await transport.handleRequest(req, res, body);
  });
  await new Promise<void>((r) => http.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(http.address() as { port: number }).port}/mcp`;
  return {
    ...s,
    url,
    stop: () => {
      http.closeAllConnections();
      return new Promise((r) => http.close(() => r()));
    },
  };
}

async function callAndClose(url: string): Promise<number> {
  const host = await Host.start({ config: config({ old: { kind: "http", url } }) });
  const server = host.servers()[0];
  assert.equal(server.era, "legacy", server.error);
  const out = await host.call("ping_tool", {});
  assert.ok(out.ok, out.ok ? "" : out.error.message);
  const start = Date.now();
  await host.close();
  return Date.now() - start;
}

test("legacy HTTP: close sends DELETE for the session; the server ends it", async (t) => {
  const server = await sessionServer("sdk");
  t.after(() => server.stop());
  await callAndClose(server.url);
  assert.equal(server.issued.length, 1, "one session");
  assert.deepEqual(server.deletes, [{ sid: server.issued[0], status: 200 }]);
  assert.deepEqual(server.closed, server.issued, "the SDK transport closed the session server-side");
});

test("legacy HTTP: a 405 to DELETE (sessions not ended by request) is fine", async (t) => {
  const server = await sessionServer(405);
  t.after(() => server.stop());
  await callAndClose(server.url);
  assert.deepEqual(server.deletes, [{ sid: server.issued[0], status: 405 }]);
});

test("legacy HTTP: a DELETE never answered does not hold the close up (bounded)", async (t) => {
  const server = await sessionServer("hang");
  t.after(() => server.stop());
  const ms = await callAndClose(server.url);
  assert.equal(server.deletes.length, 1, "the DELETE was sent");
  assert.ok(ms < 10_000, `close took ${ms} ms`);
});
