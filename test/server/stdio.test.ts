// stdio specifics over a real `mcp-prism demo-server` process: the exact wire JSON (no injected
// `content: []`, no mirror), progress notifications, notifications/cancelled, and the real SDK
// client on the legacy path.
import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { APPS_CAPS, CLI, REPO_ROOT, modernMeta, spawnStdio, type RawStdio } from "../helpers/raw-stdio.js";

const SERVER_INFO = { name: "mcp-prism-demo", title: "mcp-prism demo server", version: "0.1.0" };

describe("demo server on raw stdio", () => {
  let s: RawStdio;
  before(() => {
    s = spawnStdio();
  });
  after(() => s.close());

  it("the SEP's conversational example is answered with exactly the SEP's JSON (plus serverInfo)", async () => {
    s.send(
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_customers","arguments":{"query":"Globex"},"requestedOutputs":[{"audience":"assistant","format":"content"}],"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-12-01","io.modelcontextprotocol/clientCapabilities":{}}}}`,
    );
    const { raw } = await s.waitFor((m) => m.id === 1);
    assert.deepEqual(JSON.parse(raw), {
      jsonrpc: "2.0",
      id: 1,
      result: {
        resultType: "complete",
        outputs: [
          {
            audience: "assistant",
            format: "content",
            content: [
              {
                type: "text",
                text: "I found 37 Globex customer records. The three most recently active accounts are Globex Retail, Globex Energy, and Globex Labs.",
              },
            ],
          },
        ],
        _meta: { "io.modelcontextprotocol/serverInfo": SERVER_INFO },
      },
    });
  });

  it("a programmatic-only result has no content field anywhere in the result (no injection, no mirror)", async () => {
    const { msg, raw } = await s.request("tools/call", {
      name: "search_customers",
      arguments: { query: "Globex", limit: 2 },
      requestedOutputs: [{ audience: "programmatic", format: "structured" }],
      _meta: modernMeta(),
    });
    assert.deepEqual(Object.keys(msg.result).sort(), ["_meta", "outputs", "resultType"]);
    assert.equal(raw.includes('"content"'), false);
    assert.deepEqual(msg.result.outputs, [
      {
        audience: "programmatic",
        format: "structured",
        structuredContent: {
          items: [
            {
              customerId: "cust_1042",
              displayName: "Globex Retail",
              region: "NA",
              plan: msg.result.outputs[0].structuredContent.items[0].plan,
              lastActivity: "2026-08-17T21:10:00Z",
            },
            {
              customerId: "cust_2088",
              displayName: "Globex Energy",
              region: "EMEA",
              plan: msg.result.outputs[0].structuredContent.items[1].plan,
              lastActivity: "2026-08-17T09:32:00Z",
            },
          ],
          total: 37,
          nextCursor: "eyJvZmZzZXQiOjJ9",
          provenance: { source: "mcp-prism demo CRM", datasetVersion: "v18", query: "Globex" },
        },
      },
    ]);
  });

  it("writes nothing but JSON-RPC messages to stdout", async () => {
    await s.request("tools/list", { _meta: modernMeta("2026-12-01", APPS_CAPS) });
    for (const line of s.lines) assert.equal(JSON.parse(line).jsonrpc, "2.0");
  });

  it("sends notifications/progress per image before the response when a progressToken is given", async () => {
    const { msg } = await s.request("tools/call", {
      name: "generate_images",
      arguments: { prompt: "progress", count: 3, size: "32x24" },
      requestedOutputs: [{ audience: "user", format: "content" }],
      _meta: { ...modernMeta(), progressToken: "img-42" },
    });
    assert.equal(msg.result.outputs[0].content.length, 3);
    const progress = s
      .messages()
      .filter((m) => m.method === "notifications/progress" && m.params.progressToken === "img-42");
    assert.deepEqual(
      progress.map((m) => [m.params.progress, m.params.total]),
      [
        [1, 3],
        [2, 3],
        [3, 3],
      ],
    );
    const responseAt = s.lines.findIndex((l) => JSON.parse(l).id === msg.id);
    const lastProgressAt = s.lines.findLastIndex((l) => l.includes('"img-42"'));
    assert.ok(lastProgressAt < responseAt);
  });

  it("sends no progress without a progressToken", async () => {
    const before = s.messages().filter((m) => m.method === "notifications/progress").length;
    await s.request("tools/call", { name: "wait", arguments: { ms: 250 }, _meta: modernMeta() });
    assert.equal(s.messages().filter((m) => m.method === "notifications/progress").length, before);
  });

  it("notifications/cancelled stops a running call: no response is sent for it", async () => {
    const id = "cancel-me";
    s.send({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: "wait", arguments: { ms: 3000 }, _meta: { ...modernMeta(), progressToken: "w" } },
    });
    await s.waitFor((m) => m.method === "notifications/progress" && m.params.progressToken === "w");
    s.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason: "test" } });
    const started = Date.now();
    const next = await s.request("tools/call", { name: "wait", arguments: { ms: 0 }, _meta: modernMeta() });
    assert.equal(next.msg.result.outputs[0].content[0].text, "Waited 0 ms.");
    await new Promise((r) => setTimeout(r, 3200 - (Date.now() - started)));
    assert.equal(
      s.messages().some((m) => m.id === id),
      false,
      "a cancelled request gets no response",
    );
    const progressAfter = s
      .messages()
      .filter((m) => m.method === "notifications/progress" && m.params.progressToken === "w");
    assert.ok(progressAfter.length < 5, `progress stopped after cancellation (${progressAfter.length} sent)`);
  });

  it("answers a non-JSON line with -32700 and a non-JSON-RPC line with -32600 (no id: MCP forbids a null one), then carries on", async () => {
    const from = s.lines.length;
    s.send("this is not json");
    const parse = await s.waitFor((m) => m.error?.code === -32700, 5000, from);
    assert.equal("id" in parse.msg, false);
    s.send({ hello: "world" });
    const invalid = await s.waitFor((m) => m.error?.code === -32600, 5000, from);
    assert.equal("id" in invalid.msg, false);
    const ok = await s.request("server/discover", { _meta: modernMeta() });
    assert.equal(ok.msg.result.resultType, "complete");
  });

  it("an out-of-range image size is a tool execution error, not a protocol error", async () => {
    const { msg } = await s.request("tools/call", {
      name: "generate_images",
      arguments: { prompt: "p", size: "999x10" },
      requestedOutputs: [{ audience: "user", format: "content" }],
      _meta: modernMeta(),
    });
    assert.equal(msg.result.isError, true);
    assert.match(msg.result.outputs[0].content[0].text, /Cannot draw 999x10/);
  });

  it("exits when stdin closes", async () => {
    const t = spawnStdio();
    await t.request("server/discover", { _meta: modernMeta() });
    const started = Date.now();
    await t.close();
    assert.equal(t.child.exitCode, 0);
    assert.ok(Date.now() - started < 1900, "exited on EOF, not by SIGKILL");
  });
});

describe("real SDK client on the legacy stdio path", () => {
  it("initializes (2025-11-25), lists legacy tools and calls them", async () => {
    const client = new Client({ name: "sdk-legacy", version: "0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, "demo-server"],
        cwd: REPO_ROOT,
        stderr: "pipe",
      }),
    );
    try {
      assert.equal(client.getServerVersion()?.name, "mcp-prism-demo");
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), [
        "account_brief",
        "add_note",
        "draft_email",
        "generate_images",
        "legacy_weather",
        "list_roots",
        "lookup_order",
        "refresh_dashboard",
        "search_customers",
        "toggle_extras",
        "wait",
      ]);
      const r = await client.callTool({ name: "legacy_weather", arguments: { city: "Seattle" } });
      assert.equal((r.structuredContent as any).city, "Seattle");
      const err = await client.callTool({ name: "lookup_order", arguments: { orderId: "x" } });
      assert.equal(err.isError, true);
    } finally {
      await client.close();
    }
  });
});
