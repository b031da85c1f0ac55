// x-mcp-header over Streamable HTTP, both sides on real sockets: the toolkit's HTTP binding
// rejects a tools/call whose Mcp-Param-* headers disagree with the body; the host mirrors the
// arguments (so its calls pass that check) and excludes tools with invalid annotations, naming
// the rule, while the valid tools stay; the host's SSE read ends at the response.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { defineTool, serveHttp, ToolkitServer, type HttpHandle } from "../../src/server/index.js";
import { Host } from "../../src/host/host.js";
import { ModernHttpTransport } from "../../src/host/connection/http-transport.js";
import { headerValue } from "../../src/protocol/http-headers.js";
import { modernMeta } from "../helpers/raw-stdio.js";
import { postModern } from "../helpers/raw-http.js";
import { config } from "../helpers/host-fixtures.js";

const echoVariants = [
  {
    audience: "assistant" as const,
    format: "content" as const,
    project: (r: unknown) => [{ type: "text" as const, text: JSON.stringify(r) }],
  },
];

const routed = defineTool<Record<string, unknown>, unknown>({
  name: "routed",
  description: "Echoes its arguments; region, priority and where.zone are mirrored into headers.",
  inputSchema: {
    type: "object",
    properties: {
      region: { type: "string", "x-mcp-header": "Region" },
      priority: { type: ["integer", "null"], "x-mcp-header": "Priority" },
      where: { type: "object", properties: { zone: { type: "string", "x-mcp-header": "Zone" } } },
      query: { type: "string" },
    },
    required: ["region"],
  },
  outputVariants: echoVariants,
  run: (args) => args,
});
const badType = defineTool({
  name: "bad_type",
  description: "x-mcp-header on a number: invalid.",
  inputSchema: { type: "object", properties: { score: { type: "number", "x-mcp-header": "Score" } } },
  outputVariants: echoVariants,
  run: (args) => args,
});
const badName = defineTool({
  name: "bad_name",
  description: "x-mcp-header with a space: invalid.",
  inputSchema: { type: "object", properties: { v: { type: "string", "x-mcp-header": "My Region" } } },
  outputVariants: echoVariants,
  run: (args) => args,
});

describe("x-mcp-header over Streamable HTTP", () => {
  let srv: HttpHandle;
  before(async () => {
    srv = await serveHttp(
      new ToolkitServer({ info: { name: "headers", version: "1.0.0" }, tools: [routed, badType, badName] }),
    );
  });
  after(() => srv.close());

  const call = (args: Record<string, unknown>) => ({
    jsonrpc: "2.0" as const,
    id: 1,
    method: "tools/call",
    params: { name: "routed", arguments: args, _meta: modernMeta("2026-07-28") },
  });
  const base = { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "routed" };

  it("server: headers that agree with the body (decoded, numeric) pass; a missing or different one is 400 HeaderMismatch", async () => {
    const args = { region: "Hello, 世界", priority: 42, where: { zone: "b" } };
    const ok = await postModern(srv.url, call(args), {
      ...base,
      "mcp-param-region": headerValue("Hello, 世界"),
      "mcp-param-priority": "42.0",
      "mcp-param-zone": "b",
    });
    assert.equal(ok.status, 200, ok.text);
    assert.ok(ok.json.result, ok.text);

    const missing = await postModern(srv.url, call(args), {
      ...base,
      "mcp-param-region": headerValue("Hello, 世界"),
      "mcp-param-priority": "42",
    });
    assert.equal(missing.status, 400);
    assert.equal(missing.json.error.code, -32020);
    assert.match(missing.json.error.message, /^Header mismatch: Mcp-Param-Zone header is missing/);

    const wrong = await postModern(srv.url, call(args), {
      ...base,
      "mcp-param-region": "us-east1",
      "mcp-param-priority": "42",
      "mcp-param-zone": "b",
    });
    assert.equal(wrong.status, 400);
    assert.match(
      wrong.json.error.message,
      /Mcp-Param-Region header value 'us-east1' does not match body value "Hello, 世界"/,
    );

    // A null or absent value: the header is not expected.
    const nulls = await postModern(srv.url, call({ region: "r", priority: null }), {
      ...base,
      "mcp-param-region": "r",
    });
    assert.equal(nulls.status, 200, nulls.text);
  });

  it("host: mirrors the arguments on tools/call (the server accepts them) and excludes the invalid tools with their rules", async () => {
    const host = await Host.start({ config: config({ h: { kind: "http", url: srv.url } }), protocol: "2026-07-28" });
    try {
      assert.deepEqual(
        (await host.tools()).map((t) => t.name),
        ["routed"],
      );
      const errors = await host.toolErrors();
      assert.deepEqual(
        errors.map((e) => [e.tool, e.rule]),
        [
          ["bad_type", "x-mcp-header-type"],
          ["bad_name", "x-mcp-header-name"],
        ],
      );
      assert.match(
        errors[0].message,
        /^server h, tool bad_type: x-mcp-header Score on property score has type "number"/,
      );
      const out = await host.call("routed", { region: " padded ", priority: 7, where: { zone: "Zürich" }, query: "q" });
      assert.ok(out.ok, out.ok ? "" : out.error.message);
      const nulls = await host.call("routed", { region: "r", priority: null });
      assert.ok(nulls.ok, nulls.ok ? "" : nulls.error.message);
      const rejected = await host.call("bad_type", { score: 1.5 });
      assert.ok(!rejected.ok);
      assert.equal(rejected.error.rule, "rejected-tool");
    } finally {
      await host.close();
    }
  });
});

it("host transport: the SSE read ends at the response even when the server leaves the stream open", async () => {
  const server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.write(`data: ${JSON.stringify({ jsonrpc: "2.0", id: 1, result: { tools: [] } })}\n\n`); // and never ends
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const transport = new ModernHttpTransport(new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`));
  const got: unknown[] = [];
  transport.onmessage = (m) => got.push(m);
  try {
    const sent = transport.send({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/list",
      params: { _meta: modernMeta("2026-07-28") },
    });
    const settled = await Promise.race([
      sent.then(() => "done"),
      new Promise((r) => setTimeout(() => r("still reading"), 3000)),
    ]);
    assert.equal(settled, "done");
    assert.equal(got.length, 1);
  } finally {
    await transport.close();
    server.closeAllConnections();
    server.close();
  }
});

it("host: after a HeaderMismatch the tools are listed again and the call is sent once more with the current Mcp-Param headers", async () => {
  let lists = 0;
  const calls: { name: string; region?: string }[] = [];
  const schema = (annotated: boolean) => ({
    type: "object",
    properties: { region: annotated ? { type: "string", "x-mcp-header": "Region" } : { type: "string" } },
  });
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const msg = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    const send = (status: number, body: object) =>
      res
        .writeHead(status, { "content-type": "application/json" })
        .end(JSON.stringify({ jsonrpc: "2.0", id: msg.id, ...body }));
    if (msg.method === "server/discover")
      return send(200, {
        result: { resultType: "complete", supportedVersions: ["2026-07-28"], capabilities: { tools: {} } },
      });
    // The first listing predates the annotation; every later one has it.
    if (msg.method === "tools/list")
      return send(200, {
        result: {
          resultType: "complete",
          tools: [
            { name: "changed", inputSchema: schema(lists++ > 0) },
            { name: "always", inputSchema: schema(false) },
          ],
        },
      });
    const header = req.headers["mcp-param-region"];
    calls.push({ name: msg.params.name, region: typeof header === "string" ? header : undefined });
    if (msg.params.name === "always" || header === undefined)
      return send(400, { error: { code: -32020, message: "Header mismatch: Mcp-Param-Region header is missing" } });
    return send(200, { result: { resultType: "complete", content: [{ type: "text", text: `in ${header}` }] } });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const host = await Host.start({
    config: config({ s: { kind: "http", url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp` } }),
  });
  try {
    const out = await host.call("changed", { region: "eu" });
    assert.ok(out.ok, out.ok ? "" : out.error.message);
    assert.deepEqual(calls, [
      { name: "changed", region: undefined },
      { name: "changed", region: "eu" },
    ]);
    assert.equal(lists, 2);
    calls.length = 0;
    const still = await host.call("always", { region: "eu" });
    assert.ok(!still.ok);
    assert.match(still.error.message, /-32020/);
    assert.equal(calls.length, 2, "one retry, not a loop");
  } finally {
    await host.close();
    server.closeAllConnections();
    server.close();
  }
});
