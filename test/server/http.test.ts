// Streamable HTTP binding rules over a real `demo-server --http 0` process: header/body
// agreement, statuses, DNS-rebinding protection, SSE progress, cancellation by closing the
// stream, the 2025-11-25 session path, and the real SDK client on that legacy path.
import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { modernMeta } from "../helpers/raw-stdio.js";
import { postModern, rawRequest, startHttpServer, type HttpServerProcess } from "../helpers/raw-http.js";

const body = (
  method: string,
  params: Record<string, unknown> = {},
  version = "2026-12-01",
  id: number | string = 1,
) => ({
  jsonrpc: "2.0" as const,
  id,
  method,
  params: { ...params, _meta: { ...modernMeta(version), ...((params._meta as object) ?? {}) } },
});

describe("Streamable HTTP binding", () => {
  let srv: HttpServerProcess;
  before(async () => {
    srv = await startHttpServer();
  });
  after(() => srv.close());

  it("prints its URL on 127.0.0.1 and answers a modern request with application/json", async () => {
    assert.match(srv.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const r = await postModern(srv.url, body("server/discover"));
    assert.equal(r.status, 200);
    assert.match(String(r.headers["content-type"]), /^application\/json/);
    assert.equal(r.json.result.resultType, "complete");
    assert.equal(r.headers["mcp-session-id"], undefined, "modern requests mint no session");
  });

  describe("header rules", () => {
    it("MCP-Protocol-Version mismatch → 400 HeaderMismatch (-32020)", async () => {
      const r = await postModern(srv.url, body("tools/list"), { "mcp-protocol-version": "2026-07-28" });
      assert.equal(r.status, 400);
      assert.equal(r.json.error.code, -32020);
      assert.equal(r.json.id, 1);
    });
    it("missing MCP-Protocol-Version → 400 -32020", async () => {
      const r = await postModern(srv.url, body("tools/list"), { "mcp-protocol-version": "" });
      assert.equal(r.status, 400);
      assert.equal(r.json.error.code, -32020);
    });
    it("missing or mismatched Mcp-Method → 400 -32020", async () => {
      const missing = await postModern(srv.url, body("tools/list"), { "mcp-method": "" });
      assert.deepEqual([missing.status, missing.json.error.code], [400, -32020]);
      const wrong = await postModern(srv.url, body("tools/list"), { "mcp-method": "resources/list" });
      assert.deepEqual([wrong.status, wrong.json.error.code], [400, -32020]);
    });
    it("Mcp-Name is required for tools/call and resources/read and must match the body", async () => {
      const call = body("tools/call", { name: "wait", arguments: { ms: 0 } });
      const missing = await postModern(srv.url, call, { "mcp-name": "" });
      assert.deepEqual([missing.status, missing.json.error.code], [400, -32020]);
      const wrong = await postModern(srv.url, call, { "mcp-name": "search_customers" });
      assert.deepEqual([wrong.status, wrong.json.error.code], [400, -32020]);
      const read = body("resources/read", { uri: "ui://dashboard/index.html" });
      const noName = await postModern(srv.url, read, { "mcp-name": "" });
      assert.deepEqual([noName.status, noName.json.error.code], [400, -32020]);
      assert.equal((await postModern(srv.url, read)).status, 200);
    });
    it("decodes the Base64 sentinel in Mcp-Name before comparing", async () => {
      const call = body("tools/call", { name: "wait", arguments: { ms: 0 } });
      const ok = await postModern(srv.url, call, {
        "mcp-name": `=?base64?${Buffer.from("wait").toString("base64")}?=`,
      });
      assert.equal(ok.status, 200);
      assert.equal(ok.json.result.outputs[0].content[0].text, "Waited 0 ms.");
      const bad = await postModern(srv.url, call, {
        "mcp-name": `=?base64?${Buffer.from("other").toString("base64")}?=`,
      });
      assert.deepEqual([bad.status, bad.json.error.code], [400, -32020]);
      const malformed = await postModern(srv.url, call, { "mcp-name": "=?base64?***?=" });
      assert.deepEqual([malformed.status, malformed.json.error.code], [400, -32020]);
    });
    it("unsupported version (header and body agreeing) → 400 -32022 with supported versions", async () => {
      const r = await postModern(srv.url, body("tools/list", {}, "1900-01-01"));
      assert.equal(r.status, 400);
      assert.equal(r.json.error.code, -32022);
      assert.equal(r.json.error.data.requested, "1900-01-01");
      assert.ok(r.json.error.data.supported.includes("2026-07-28"));
    });
    it("unknown method → 404 -32601", async () => {
      const r = await postModern(srv.url, body("sampling/createMessage"));
      assert.equal(r.status, 404);
      assert.equal(r.json.error.code, -32601);
    });
    it("a removed method with the modern envelope (initialize, ping) → 404 -32601, no session minted", async () => {
      for (const method of ["initialize", "ping"]) {
        const r = await postModern(
          srv.url,
          body(
            method,
            method === "initialize"
              ? { protocolVersion: "2026-07-28", capabilities: {}, clientInfo: { name: "t", version: "0" } }
              : {},
            "2026-07-28",
          ),
        );
        assert.deepEqual([r.status, r.json.error.code], [404, -32601], method);
        assert.equal(r.headers["mcp-session-id"], undefined, method);
      }
    });
    it("missing _meta fields → 400 -32602", async () => {
      const r = await rawRequest(srv.url, {
        headers: { "mcp-method": "tools/list", "mcp-protocol-version": "2026-12-01" },
        body: { jsonrpc: "2.0", id: 7, method: "tools/list", params: {} },
      });
      assert.equal(r.status, 400);
      assert.equal(r.json.error.code, -32602);
    });
    it("GET and DELETE → 405 for modern clients", async () => {
      const get = await rawRequest(srv.url, { method: "GET", headers: { accept: "text/event-stream" } });
      assert.equal(get.status, 405);
      assert.equal(get.headers.allow, "POST");
      const del = await rawRequest(srv.url, { method: "DELETE" });
      assert.equal(del.status, 405);
    });
    it("a notification POST → 202 with no body; a non-JSON body → 400 parse error", async () => {
      const n = await rawRequest(srv.url, {
        body: { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } },
      });
      assert.deepEqual([n.status, n.text], [202, ""]);
      const bad = await rawRequest(srv.url, { body: "{not json" });
      assert.equal(bad.status, 400);
      assert.equal(bad.json.error.code, -32700);
    });
  });

  describe("DNS-rebinding protection", () => {
    it("a non-loopback Host → 421 with a JSON-RPC error without id", async () => {
      const r = await postModern(srv.url, body("tools/list"), { host: "evil.example:80" });
      assert.equal(r.status, 421);
      assert.equal(r.json.jsonrpc, "2.0");
      assert.equal("id" in r.json, false);
      assert.match(r.json.error.message, /evil\.example/);
    });
    it("a non-loopback Origin → 403 with a JSON-RPC error without id", async () => {
      const r = await postModern(srv.url, body("tools/list"), { origin: "http://evil.example" });
      assert.equal(r.status, 403);
      assert.equal("id" in r.json, false);
    });
    it("loopback names with any port are accepted", async () => {
      for (const [host, origin] of [
        ["localhost:9", "http://localhost:3000"],
        ["127.0.0.1", "http://127.0.0.1:1"],
        ["[::1]:5", "https://[::1]:8443"],
      ]) {
        const r = await postModern(srv.url, body("tools/list"), { host, origin });
        assert.equal(r.status, 200, `${host} ${origin}`);
      }
    });
  });

  describe("streaming and cancellation", () => {
    it("a request with a progressToken gets an SSE stream: progress notifications, then the response", async () => {
      const req = body("tools/call", {
        name: "generate_images",
        arguments: { prompt: "p", count: 3, size: "32x24" },
        _meta: { progressToken: "tok-1" },
      });
      const r = await postModern(srv.url, req);
      assert.equal(r.status, 200);
      assert.match(String(r.headers["content-type"]), /^text\/event-stream/);
      const events = r.events!;
      const progress = events.filter((e) => e.method === "notifications/progress");
      assert.deepEqual(
        progress.map((e) => [e.params.progressToken, e.params.progress, e.params.total]),
        [
          ["tok-1", 1, 3],
          ["tok-1", 2, 3],
          ["tok-1", 3, 3],
        ],
      );
      assert.equal(events.at(-1).id, 1);
      assert.equal(events.at(-1).result.outputs[0].audience, "assistant");
      assert.equal(events.indexOf(events.at(-1)), events.length - 1, "the response ends the stream");
    });
    it("closing the SSE stream cancels the request; the server stays healthy", async () => {
      const controller = new AbortController();
      let sawProgress = false;
      const req = body("tools/call", { name: "wait", arguments: { ms: 5000 }, _meta: { progressToken: 9 } });
      const started = Date.now();
      await assert.rejects(
        postModern(
          srv.url,
          req,
          {},
          {
            signal: controller.signal,
            onEvent: (e) => {
              if (e.method === "notifications/progress" && !sawProgress) {
                sawProgress = true;
                controller.abort();
              }
            },
          },
        ),
      );
      assert.ok(sawProgress);
      assert.ok(Date.now() - started < 4000);
      const after = await postModern(
        srv.url,
        body("tools/call", { name: "wait", arguments: { ms: 0 } }, "2026-12-01", 2),
      );
      assert.equal(after.status, 200);
    });
  });

  describe("2025-11-25 Streamable HTTP (initialize sessions)", () => {
    it("initialize mints an Mcp-Session-Id; unknown sessions get 404; DELETE ends a session", async () => {
      const init = await rawRequest(srv.url, {
        body: {
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "0" } },
        },
      });
      assert.equal(init.status, 200);
      const session = String(init.headers["mcp-session-id"]);
      assert.match(session, /^[0-9a-f-]{36}$/);
      const headers = { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" };
      const list = await rawRequest(srv.url, { headers, body: { jsonrpc: "2.0", id: 2, method: "tools/list" } });
      assert.equal(list.json.result.tools.length, 11);
      const unknown = await rawRequest(srv.url, {
        headers: { ...headers, "mcp-session-id": "nope" },
        body: { jsonrpc: "2.0", id: 3, method: "tools/list" },
      });
      assert.equal(unknown.status, 404);
      assert.equal((await rawRequest(srv.url, { method: "DELETE", headers })).status, 200);
      const gone = await rawRequest(srv.url, { headers, body: { jsonrpc: "2.0", id: 4, method: "tools/list" } });
      assert.equal(gone.status, 404);
    });
    it("the real SDK client (legacy era) lists and calls tools, keeping legacy_weather's structuredContent", async () => {
      const client = new Client({ name: "sdk-legacy", version: "0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(srv.url)));
      try {
        assert.equal(client.getServerVersion()?.name, "mcp-prism-demo");
        const { tools } = await client.listTools();
        const weather = tools.find((t) => t.name === "legacy_weather")!;
        assert.ok(weather.outputSchema);
        const r = await client.callTool({ name: "legacy_weather", arguments: { city: "Lisbon" } });
        assert.equal((r.structuredContent as any).city, "Lisbon");
        const s = await client.callTool({ name: "search_customers", arguments: { query: "Globex" } });
        assert.equal((s.content as any)[0].text.startsWith("I found 37 Globex customer records."), true);
      } finally {
        await client.close();
      }
    });
  });
});
