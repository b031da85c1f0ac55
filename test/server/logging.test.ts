// Logs (notifications/message) over REAL stdio and REAL Streamable HTTP: sent only for a modern
// request whose `_meta` sets io.modelcontextprotocol/logLevel, only at that level or above, never
// to a request without it (2026-07-28: servers MUST NOT); in the initialize era only after the
// client's logging/setLevel, at that level or above.
import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { modernMeta, spawnStdio, type JsonRpcMessage, type RawStdio } from "../helpers/raw-stdio.js";
import { postModern, rawRequest, startHttpServer, type HttpServerProcess } from "../helpers/raw-http.js";
import { WireSchema } from "./spec-schema.js";

const LOG_LEVEL = "io.modelcontextprotocol/logLevel";
const schema = new WireSchema();
const waitCall = (version: string, extra: Record<string, unknown>) => ({
  name: "wait",
  arguments: { ms: 250 },
  _meta: { ...modernMeta(version), progressToken: "p", ...extra },
});
const logsOf = (messages: JsonRpcMessage[]) => messages.filter((m) => m.method === "notifications/message");

type Send = (params: Record<string, unknown>, method?: string) => Promise<JsonRpcMessage[]>;

function logCases(name: string, setup: () => Promise<{ modern: Send; legacy: Send; close: () => Promise<void> }>) {
  describe(`logs over ${name}`, () => {
    let io: Awaited<ReturnType<typeof setup>>;
    before(async () => {
      io = await setup();
    });
    after(() => io.close());

    for (const version of ["2026-12-01", "2026-07-28"]) {
      it(`${version}: logLevel debug → the debug and info logs, schema-valid, then the result`, async () => {
        const messages = await io.modern(waitCall(version, { [LOG_LEVEL]: "debug" }));
        const logs = logsOf(messages);
        assert.deepEqual(
          logs.map((l) => l.params.level),
          ["debug", "debug", "debug", "info"],
        );
        assert.deepEqual(
          logs.map((l) => l.params.data),
          ["waited 100 of 250 ms", "waited 200 of 250 ms", "waited 250 of 250 ms", "done after 250 ms"],
        );
        assert.ok(logs.every((l) => l.params.logger === "wait"));
        for (const l of logs) assert.deepEqual(schema.check("2026-07-28", l), []);
        assert.ok(messages.at(-1)?.result, "the response comes last");
      });
      it(`${version}: logLevel info → only info and above; error → none`, async () => {
        assert.deepEqual(
          logsOf(await io.modern(waitCall(version, { [LOG_LEVEL]: "info" }))).map((l) => l.params.level),
          ["info"],
        );
        assert.deepEqual(logsOf(await io.modern(waitCall(version, { [LOG_LEVEL]: "error" }))), []);
      });
      it(`${version}: no logLevel → no log at all, though progress flows`, async () => {
        const messages = await io.modern(waitCall(version, {}));
        assert.deepEqual(logsOf(messages), []);
        assert.ok(messages.some((m) => m.method === "notifications/progress"));
      });
    }
    it("an unknown logLevel value is no request for logs", async () => {
      assert.deepEqual(logsOf(await io.modern(waitCall("2026-07-28", { [LOG_LEVEL]: "verbose" }))), []);
    });
    it("2025-11-25 (initialize): none before logging/setLevel, even with a logLevel in _meta", async () => {
      const messages = await io.legacy({
        name: "wait",
        arguments: { ms: 150 },
        _meta: { progressToken: "p", [LOG_LEVEL]: "debug" },
      });
      assert.deepEqual(logsOf(messages), []);
      assert.ok(messages.at(-1)?.result);
    });
    it("2025-11-25: logging/setLevel opts the session in, at that level and above; a bad level is -32602", async () => {
      const bad = await io.legacy({ level: "verbose" }, "logging/setLevel");
      assert.equal(bad.at(-1)?.error?.code, -32602);
      assert.deepEqual((await io.legacy({ level: "info" }, "logging/setLevel")).at(-1)?.result, {});
      const messages = await io.legacy({ name: "search_customers", arguments: { query: "Globex", limit: 2 } });
      const logs = logsOf(messages);
      assert.deepEqual(
        logs.map((l) => [l.params.level, l.params.logger]),
        [["info", "search"]],
      );
      assert.match(logs[0].params.data, /^search "Globex": \d+ matches, 2 on this page$/);
      for (const l of logs) assert.deepEqual(schema.check("2025-11-25", l), []);
      assert.ok(messages.at(-1)?.result, "the response comes last");
      await io.legacy({ level: "debug" }, "logging/setLevel");
      const debug = logsOf(await io.legacy({ name: "search_customers", arguments: { query: "Globex", limit: 2 } }));
      assert.deepEqual(
        debug.map((l) => l.params.level),
        ["debug", "info"],
      );
      assert.deepEqual(debug[0].params.data, { query: "Globex", offset: 0, limit: 2 });
    });
  });
}

logCases("stdio", async () => {
  const s: RawStdio = spawnStdio();
  const l: RawStdio = spawnStdio();
  await l.request("initialize", {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "t", version: "0" },
  });
  l.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  const via =
    (io: RawStdio): Send =>
    async (params, method = "tools/call") => {
      const from = io.lines.length;
      await io.request(method, params);
      return io.lines.slice(from).map((x) => JSON.parse(x) as JsonRpcMessage);
    };
  return { modern: via(s), legacy: via(l), close: async () => void (await Promise.all([s.close(), l.close()])) };
});

logCases("Streamable HTTP", async () => {
  const srv: HttpServerProcess = await startHttpServer();
  let id = 1;
  const init = await rawRequest(srv.url, {
    headers: { accept: "application/json, text/event-stream" },
    body: {
      jsonrpc: "2.0",
      id: id++,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "0" } },
    },
  });
  const headers = {
    accept: "application/json, text/event-stream",
    "mcp-session-id": String(init.headers["mcp-session-id"]),
    "mcp-protocol-version": "2025-11-25",
  };
  const messagesOf = (r: { json?: any; events?: any[] }): JsonRpcMessage[] =>
    r.json !== undefined ? [r.json] : (r.events ?? []);
  return {
    modern: async (params) =>
      messagesOf(await postModern(srv.url, { jsonrpc: "2.0", id: id++, method: "tools/call", params })),
    legacy: async (params, method = "tools/call") =>
      messagesOf(await rawRequest(srv.url, { headers, body: { jsonrpc: "2.0", id: id++, method, params } })),
    close: () => srv.close(),
  };
});
