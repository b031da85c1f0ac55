// Every message the demo server sends — results, errors, progress notifications — over REAL
// stdio and REAL Streamable HTTP, in each era, is valid against the published schema of that
// era: 2026-12-01 (2026-07-28 + SEP-3279's outputs), 2026-07-28, and 2025-11-25 (initialize).
import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { APPS_CAPS, modernMeta, spawnStdio, type JsonRpcMessage, type RawStdio } from "../helpers/raw-stdio.js";
import { postModern, rawRequest, startHttpServer, type HttpServerProcess } from "../helpers/raw-http.js";
import { WireSchema, type SchemaEra } from "./spec-schema.js";

type Req = { method: string; params?: Record<string, unknown> };
type Sent = { era: SchemaEra; method: string; messages: JsonRpcMessage[] };

const schema = new WireSchema();

const ARGS: Record<string, object> = {
  search_customers: { query: "Globex", limit: 3 },
  generate_images: { prompt: "a sunrise", count: 1, size: "32x16" },
  refresh_dashboard: {},
  lookup_order: { orderId: "ord_5001" },
  legacy_weather: { city: "Oslo" },
  wait: { ms: 60 },
  draft_email: { customerId: "cust_1005" },
  account_brief: { customerId: "cust_1005" },
  list_roots: {},
};
/** Client capabilities that let the demo ask for input (an input_required result in the modern eras). */
const ASKING_CAPS = { ...APPS_CAPS, elicitation: { form: {} }, sampling: {}, roots: {} };

/** The requests of one modern era: every method, every tool, and the errors a client can provoke. */
function modernRequests(version: "2026-12-01" | "2026-07-28", tools: any[]): Req[] {
  const env = (extra: Record<string, unknown> = {}, caps: object = APPS_CAPS) => ({
    _meta: { ...modernMeta(version, caps as Record<string, unknown>), ...extra },
  });
  const calls: Req[] = Object.entries(ARGS).map(([name, args]) => {
    const tool = tools.find((t) => t.name === name);
    const requestedOutputs =
      version === "2026-12-01"
        ? tool.outputVariants.map((v: any) => ({ audience: v.audience, format: v.format }))
        : undefined;
    return {
      method: "tools/call",
      params: {
        name,
        arguments: args,
        ...(requestedOutputs ? { requestedOutputs } : {}),
        ...env({ progressToken: `p-${name}` }),
      },
    };
  });
  return [
    { method: "server/discover", params: env() },
    { method: "tools/list", params: env() },
    { method: "tools/list", params: env({}, {}) },
    ...calls,
    {
      method: "tools/call",
      params: { name: "wait", arguments: { ms: 120 }, ...env({ "io.modelcontextprotocol/logLevel": "debug" }) },
    },
    { method: "tools/call", params: { name: "lookup_order", arguments: { orderId: "nope" }, ...env() } },
    { method: "tools/call", params: { name: "no_such_tool", arguments: {}, ...env() } },
    { method: "tools/call", params: { name: "search_customers", arguments: { query: 5 }, ...env() } },
    { method: "resources/list", params: env() },
    { method: "resources/templates/list", params: env() },
    { method: "resources/read", params: { uri: "ui://dashboard/index.html", ...env() } },
    { method: "resources/read", params: { uri: "ui://missing", ...env() } },
    { method: "resources/read", params: { uri: "customers://cust_1005", ...env() } },
    { method: "resources/read", params: { uri: "customers://cust_1005/badge.png", ...env() } },
    { method: "prompts/list", params: env() },
    {
      method: "prompts/get",
      params: { name: "account_review", arguments: { customerId: "cust_1005", focus: "risk" }, ...env() },
    },
    { method: "prompts/get", params: { name: "account_review", arguments: {}, ...env() } },
    {
      method: "completion/complete",
      params: {
        ref: { type: "ref/prompt", name: "account_review" },
        argument: { name: "customerId", value: "cust_10" },
        ...env(),
      },
    },
    {
      method: "completion/complete",
      params: {
        ref: { type: "ref/resource", uri: "customers://{id}" },
        argument: { name: "id", value: "glo" },
        ...env(),
      },
    },
    ...["draft_email", "account_brief", "list_roots"].map((name) => ({
      method: "tools/call",
      params: { name, arguments: ARGS[name], ...env({}, ASKING_CAPS) },
    })),
    { method: "tools/list", params: { _meta: { ...modernMeta("1900-01-01") } } },
  ];
}

const LEGACY_REQUESTS: Req[] = [
  { method: "tools/list" },
  ...Object.entries(ARGS).map(([name, args]) => ({
    method: "tools/call",
    params: { name, arguments: args, _meta: { progressToken: `p-${name}` } },
  })),
  { method: "tools/call", params: { name: "lookup_order", arguments: { orderId: "nope" } } },
  { method: "tools/call", params: { name: "no_such_tool", arguments: {} } },
  { method: "resources/list" },
  { method: "resources/templates/list" },
  { method: "resources/read", params: { uri: "ui://dashboard/index.html" } },
  { method: "resources/read", params: { uri: "ui://missing" } },
  { method: "ping" },
  { method: "prompts/list" },
  { method: "prompts/get", params: { name: "weekly_digest" } },
  {
    method: "completion/complete",
    params: { ref: { type: "ref/prompt", name: "account_review" }, argument: { name: "focus", value: "r" } },
  },
  { method: "resources/read", params: { uri: "customers://cust_1005" } },
  { method: "logging/setLevel", params: { level: "nonsense" } },
];

function assertValid(sent: Sent[], expectLogs = false) {
  const problems: string[] = [];
  let checked = 0;
  for (const s of sent) {
    for (const m of s.messages) {
      checked++;
      const errs = schema.check(s.era, m, s.method);
      if (errs.length > 0)
        problems.push(
          `${s.era} ${s.method} → ${JSON.stringify(m).slice(0, 300)}\n    ${errs.slice(0, 5).join("\n    ")}`,
        );
    }
  }
  assert.deepEqual(problems, [], problems.join("\n"));
  // Sanity: results, errors and progress notifications were all among them.
  const all = sent.flatMap((s) => s.messages);
  assert.ok(
    all.some((m) => m.error) && all.some((m) => m.result) && all.some((m) => m.method === "notifications/progress"),
    "errors, results and progress were checked",
  );
  assert.equal(
    all.some((m) => m.method === "notifications/message"),
    expectLogs,
    "logs were checked (modern), or none was sent (legacy)",
  );
  return checked;
}

describe("the checker itself", () => {
  it("rejects what the 2026-07-28 schema forbids and SEP-3279's shape where it does not apply", () => {
    const tools = { jsonrpc: "2.0" as const, id: 1, result: { resultType: "complete", tools: [] } };
    assert.match(schema.check("2026-07-28", tools, "tools/list").join(), /ttlMs/);
    const legacyShape = { jsonrpc: "2.0" as const, id: 1, result: { resultType: "complete", content: [] } };
    assert.deepEqual(schema.check("2026-07-28", legacyShape, "tools/call"), []);
    assert.notDeepEqual(schema.check("2026-12-01", legacyShape, "tools/call"), []);
    const tool = { name: "t", inputSchema: { type: "object" } };
    assert.notDeepEqual(
      schema.check(
        "2026-12-01",
        { jsonrpc: "2.0", id: 1, result: { resultType: "complete", tools: [tool], ttlMs: 0, cacheScope: "public" } },
        "tools/list",
      ),
      [],
    );
  });
});

describe("every message the demo server sends is schema-valid for its era: stdio", () => {
  let main: RawStdio;
  let legacy: RawStdio;
  before(() => {
    main = spawnStdio();
    legacy = spawnStdio();
  });
  after(async () => {
    await Promise.all([main.close(), legacy.close()]);
  });

  /** Sends each request and returns every line that arrived, grouped by the request it followed. */
  async function drive(s: RawStdio, era: SchemaEra, reqs: Req[]): Promise<Sent[]> {
    const out: Sent[] = [];
    for (const r of reqs) {
      const from = s.lines.length;
      await s.request(r.method, r.params);
      out.push({ era, method: r.method, messages: s.lines.slice(from).map((l) => JSON.parse(l) as JsonRpcMessage) });
    }
    return out;
  }

  it("2026-12-01 and 2026-07-28", async () => {
    for (const version of ["2026-12-01", "2026-07-28"] as const) {
      const tools = (await main.request("tools/list", { _meta: modernMeta("2026-12-01", APPS_CAPS) })).msg.result.tools;
      assertValid(await drive(main, version, modernRequests(version, tools)), true);
    }
  });

  it("errors to lines that are not JSON or not JSON-RPC (valid in both schemas: no id, never null)", async () => {
    for (const era of ["2026-07-28", "2025-11-25"] as const) {
      const from = main.lines.length;
      main.send("this is not json");
      await main.waitFor((m) => m.error?.code === -32700, 5000, from);
      main.send({ hello: "world" });
      await main.waitFor((m) => m.error?.code === -32600, 5000, from);
      const errors = main.lines.slice(from).map((l) => JSON.parse(l) as JsonRpcMessage);
      assert.equal(errors.length, 2);
      for (const m of errors) assert.deepEqual(schema.check(era, m), [], JSON.stringify(m));
    }
  });

  it("2025-11-25 (initialize)", async () => {
    const from = legacy.lines.length;
    await legacy.request("initialize", {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "t", version: "0" },
    });
    const init: Sent = {
      era: "2025-11-25",
      method: "initialize",
      messages: legacy.lines.slice(from).map((l) => JSON.parse(l)),
    };
    legacy.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    assertValid([init, ...(await drive(legacy, "2025-11-25", LEGACY_REQUESTS))]);
  });
});

describe("every message the demo server sends is schema-valid for its era: Streamable HTTP", () => {
  let srv: HttpServerProcess;
  let id = 1;
  before(async () => {
    srv = await startHttpServer();
  });
  after(() => srv.close());

  const messagesOf = (r: { json?: any; events?: any[] }): JsonRpcMessage[] =>
    r.json !== undefined ? [r.json] : (r.events ?? []);

  it("2026-12-01 and 2026-07-28", async () => {
    const tools = (
      await postModern(srv.url, {
        jsonrpc: "2.0",
        id: id++,
        method: "tools/list",
        params: { _meta: modernMeta("2026-12-01", APPS_CAPS) },
      })
    ).json.result.tools;
    for (const version of ["2026-12-01", "2026-07-28"] as const) {
      const sent: Sent[] = [];
      for (const r of modernRequests(version, tools)) {
        const res = await postModern(srv.url, { jsonrpc: "2.0", id: id++, method: r.method, params: r.params });
        sent.push({ era: version, method: r.method, messages: messagesOf(res) });
      }
      assertValid(sent, true);
    }
  });

  it("errors to bodies that are not JSON or not JSON-RPC (valid in both schemas: no id, never null)", async () => {
    for (const body of ["this is not json", JSON.stringify({ hello: "world" }), "[]"]) {
      const r = await rawRequest(srv.url, { headers: { accept: "application/json, text/event-stream" }, body });
      assert.equal(r.status, 400);
      for (const era of ["2026-07-28", "2025-11-25"] as const) assert.deepEqual(schema.check(era, r.json), [], r.text);
    }
  });

  it("2025-11-25 (initialize session)", async () => {
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
    await rawRequest(srv.url, { headers, body: { jsonrpc: "2.0", method: "notifications/initialized" } });
    const sent: Sent[] = [{ era: "2025-11-25", method: "initialize", messages: messagesOf(init) }];
    for (const r of LEGACY_REQUESTS) {
      const res = await rawRequest(srv.url, {
        headers,
        body: { jsonrpc: "2.0", id: id++, method: r.method, ...(r.params ? { params: r.params } : {}) },
      });
      sent.push({ era: "2025-11-25", method: r.method, messages: messagesOf(res) });
    }
    assertValid(sent);
  });
});
