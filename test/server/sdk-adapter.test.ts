// withOutputVariants on a real SDK 1.x McpServer: examples/sdk-everything (two tools copied from
// the official "everything" server) over Streamable HTTP, judged by `mcp-prism check` (2026-12-01
// and the legacy rows), the official conformance suite's fixture-free server scenarios at
// 2026-07-28 (and caching and server-stateless but for their fixture checks), and the SDK v2 client at 2026-07-28 — which must get exactly what the same
// McpServer gives an SDK client without the adapter.
import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { Client as V2Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { waitForListeningUrl } from "../helpers/listening.js";
import { REPO_ROOT } from "../helpers/raw-stdio.js";
import { runCli, type JsonReport } from "../conformance/run-check.js";
import { runServerSuite } from "../conformance/official-suite.js";
import { registerGetStructuredContentTool, registerGetSumTool } from "../../examples/sdk-everything/tools.js";
import { contentVariant, structuredVariant, ToolkitConnection, withOutputVariants } from "../../src/server/index.js";
import { InMemoryTransport as Pair } from "@modelcontextprotocol/sdk/inMemory.js";

const EXAMPLE = join(REPO_ROOT, "examples", "sdk-everything", "server.ts");
/** The suite's server scenarios that need none of its named fixture tools, prompts or resources. */
const FIXTURE_FREE = [
  "tools-list",
  "dns-rebinding-protection",
  "http-header-validation",
  "server-sse-multiple-streams",
  "resources-list",
  "sep-2164-resource-not-found",
  "input-required-result-unsupported-methods",
  "input-required-result-validate-input",
];

/**
 * Scenarios of the suite that are partly fixture-dependent: every check passes except these,
 * which need the suite's named diagnostic tools (Not testable without them) or prompts the
 * example does not have (a server without prompts answers prompts/list with -32601, as it must).
 */
const PARTLY_FIXTURE: Record<string, string[]> = {
  caching: ["sep-2549-prompts-list-caching-hints"],
  "server-stateless": [
    "sep-2575-server-rejects-undeclared-capability",
    "sep-2575-missing-capability-http-400",
    "sep-2575-http-server-no-independent-requests-on-stream",
    "sep-2575-server-no-log-without-loglevel",
  ],
};

let child: ChildProcess;
let url = "";
before(async () => {
  child = spawn(process.execPath, ["--import", "tsx", EXAMPLE, "--http", "0"], {
    cwd: REPO_ROOT,
    stdio: ["ignore", "ignore", "pipe"],
  });
  url = (await waitForListeningUrl(child, "examples/sdk-everything", 60_000)).url;
});
after(() => {
  child.kill("SIGTERM");
});

/** What an SDK client gets from the two tools on a plain McpServer (no adapter): "today". */
async function plainSdkResults() {
  const server = new McpServer({ name: "plain", version: "1.0.0" });
  registerGetSumTool(server);
  registerGetStructuredContentTool(server);
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new V1Client({ name: "t", version: "1" });
  await client.connect(b);
  try {
    return {
      sum: await client.callTool({ name: "get-sum", arguments: { a: 2, b: 3 } }),
      weather: await client.callTool({ name: "get-structured-content", arguments: { location: "Chicago" } }),
      tools: (await client.listTools()).tools,
    };
  } finally {
    await client.close();
    await server.close();
  }
}

describe("examples/sdk-everything (withOutputVariants on an SDK McpServer)", () => {
  it("mcp-prism check passes it at 2026-12-01 (and its legacy rows)", async () => {
    // The two tools never fail on made-up arguments: the error-path requirements stay NOT-TESTED
    // (exit 1 without --allow-untested); nothing else may.
    const r = await runCli(["check", "--url", url, "--json", "--allow-untested"], 300_000);
    const report = JSON.parse(r.stdout) as JsonReport;
    const failed = report.checks.filter((c) => c.status === "FAIL").map((c) => `${c.id}: ${c.detail}`);
    assert.deepEqual(failed, []);
    const errorPath = ["sep-3279-error-outputs-match-selectors", "sep-3279-error-not-empty-outputs"];
    const untested = report.checks.filter((c) => c.status === "NOT-TESTED").map((c) => `${c.id}: ${c.detail}`);
    assert.deepEqual(
      untested.filter((u) => !errorPath.some((id) => u.startsWith(`${id}:`))),
      [],
      "untested beyond the error path",
    );
    assert.equal(r.code, 0, r.stderr);
    for (const id of [
      "sep-3279-declaration-assistant-content",
      "sep-3279-structured-output-conforms",
      "sep-3279-variants-tailored",
      "sep-3279-legacy-structured-conforms-at-2026-07-28",
    ]) {
      assert.equal(report.checks.find((c) => c.id === id)?.status, "PASS", id);
    }
  });

  it("the official suite's fixture-free server scenarios pass at 2026-07-28", async () => {
    const runs = await runServerSuite(url, "2026-07-28", 300_000);
    // caching (SEP-2549) and server-stateless (SEP-2575): everything but their fixture checks.
    for (const [scenario, fixtureChecks] of Object.entries(PARTLY_FIXTURE)) {
      const run = runs.get(scenario);
      assert.ok(run, `${scenario} did not run`);
      const bad = run.checks
        .filter((c) => c.status === "FAILURE" && !fixtureChecks.includes(c.id))
        .map((c) => `${c.id}: ${c.errorMessage ?? ""}`);
      assert.deepEqual(bad, [], scenario);
      assert.ok(run.checks.filter((c) => c.status === "SUCCESS").length >= 5, `${scenario} checked little`);
    }
    for (const scenario of FIXTURE_FREE) {
      const run = runs.get(scenario);
      assert.ok(run, `${scenario} did not run`);
      const bad = run.checks.filter((c) => c.status === "FAILURE").map((c) => `${c.id}: ${c.errorMessage ?? ""}`);
      assert.deepEqual(bad, [], scenario);
      assert.ok(
        run.checks.some((c) => c.status === "SUCCESS" || c.status === "INFO"),
        `${scenario} checked nothing`,
      );
    }
  });

  it("the SDK v2 client at 2026-07-28 gets what an SDK client gets today, plus the SEP's legacy rule for a tailored assistant/content", async () => {
    const today = await plainSdkResults();
    const client = new V2Client(
      { name: "sdk-v2", version: "1.0.0" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } as never } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      assert.equal(client.getNegotiatedProtocolVersion(), "2026-07-28");
      const tools = (await client.listTools()).tools;
      assert.deepEqual(
        tools.map((t) => t.name),
        today.tools.map((t) => t.name),
      );
      for (const t of tools) {
        const was = today.tools.find((x) => x.name === t.name)!;
        assert.deepEqual(t.inputSchema, was.inputSchema, `${t.name} inputSchema`);
        assert.deepEqual(t.outputSchema, was.outputSchema, `${t.name} outputSchema`);
        assert.equal("outputVariants" in t, false);
      }
      const sum = await client.callTool({ name: "get-sum", arguments: { a: 2, b: 3 } });
      assert.deepEqual(sum.content, today.sum.content);
      assert.equal(sum.structuredContent, undefined);
      const weather = await client.callTool({ name: "get-structured-content", arguments: { location: "Chicago" } });
      assert.deepEqual(weather.structuredContent, today.weather.structuredContent);
      // The example declares a prose assistant/content: it comes first, then the JSON text block older clients had.
      assert.deepEqual(weather.content, [
        { type: "text", text: "Weather in Chicago: Light rain / drizzle, 36 °C, humidity 82 %." },
        ...(today.weather.content as unknown[]),
      ]);
      const bad = await client.callTool({ name: "get-sum", arguments: { a: "two", b: 3 } });
      assert.equal(bad.isError, true, "the SDK's own input validation still answers");
    } finally {
      await client.close();
    }
  });
});

describe("withOutputVariants, in process", () => {
  it("refuses variants for a tool the McpServer does not list, and a bad declaration, each with one line", async () => {
    const server = new McpServer({ name: "x", version: "1" });
    registerGetSumTool(server);
    await assert.rejects(
      withOutputVariants(server)
        .declare("get-sun", [contentVariant("user", () => [])])
        .toolkit(),
      /declared for tools the McpServer does not list: get-sun/,
    );
    await assert.rejects(
      withOutputVariants(server)
        .declare("get-sum", [
          structuredVariant("programmatic", z.object({ n: z.number() }), () => ({ n: 1 })),
          { audience: "programmatic", format: "content", project: () => [] },
        ])
        .toolkit(),
      /programmatic\/content is not a core combination/,
    );
    assert.throws(() => withOutputVariants(server).declare("get-sum", []).declare("get-sum", []), /declared twice/);
  });

  it("a structured variant whose projection breaks its zod schema is a server bug: nothing is sent", async () => {
    const server = new McpServer({ name: "x", version: "1" });
    registerGetSumTool(server);
    const toolkit = await withOutputVariants(server)
      .declare("get-sum", [
        structuredVariant("programmatic", z.object({ sum: z.number() }), () => ({ sum: "five" as unknown as number })),
      ])
      .toolkit();
    const [a, b] = Pair.createLinkedPair();
    await new ToolkitConnection(toolkit).connect(a);
    const replies: unknown[] = [];
    let bothIn: () => void;
    const both = new Promise<void>((r) => (bothIn = r));
    b.onmessage = (m) => {
      replies.push(m);
      if (replies.length === 2) bothIn();
    };
    await b.start();
    const _meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-12-01",
      "io.modelcontextprotocol/clientInfo": { name: "t", version: "1" },
      "io.modelcontextprotocol/clientCapabilities": {},
    };
    await b.send({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name: "get-sum",
        arguments: { a: 2, b: 3 },
        requestedOutputs: [{ audience: "programmatic", format: "structured" }],
        _meta,
      },
    });
    await b.send({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "get-sum", arguments: { a: 2, b: 3 }, _meta },
    });
    await both;
    const [bug, ok] = (replies as { id: number }[]).sort((x, y) => x.id - y.id) as {
      id: number;
      error?: { message: string };
      result?: { outputs: unknown[] };
    }[];
    assert.match(
      bug.error?.message ?? "",
      /programmatic\/structured output of get-sum does not match that variant's schema/,
    );
    assert.deepEqual(ok.result?.outputs, [
      { audience: "assistant", format: "content", content: [{ type: "text", text: "The sum of 2 and 3 is 5." }] },
    ]);
    await b.close();
  });
});

describe("withOutputVariants bridges the McpServer's prompts and resources too", () => {
  it("prompts/list and prompts/get, resources/list and resources/read (static and templated) are served as registered", async () => {
    const { ResourceTemplate } = await import("@modelcontextprotocol/sdk/server/mcp.js");
    const server = new McpServer({ name: "x", version: "1" });
    registerGetSumTool(server);
    server.registerPrompt(
      "greet",
      { title: "Greet", description: "Greets someone", argsSchema: { who: z.string() } },
      ({ who }) => ({ messages: [{ role: "user", content: { type: "text", text: `Hello, ${who}!` } }] }),
    );
    server.registerResource(
      "notes",
      "file:///notes.txt",
      { mimeType: "text/plain", description: "Notes" },
      async (uri) => ({
        contents: [{ uri: uri.href, mimeType: "text/plain", text: "the notes" }],
      }),
    );
    server.registerResource(
      "greeting",
      new ResourceTemplate("greeting://{name}", { list: undefined }),
      { mimeType: "text/plain" },
      async (uri, vars) => ({ contents: [{ uri: uri.href, text: `Hi ${String(vars.name)}` }] }),
    );
    const toolkit = await withOutputVariants(server).toolkit();
    const _meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-12-01",
      "io.modelcontextprotocol/clientInfo": { name: "t", version: "1" },
      "io.modelcontextprotocol/clientCapabilities": {},
    };
    const ask = (method: string, params: Record<string, unknown> = {}) =>
      toolkit.handle(
        method,
        { ...params, _meta },
        { signal: new AbortController().signal, session: {}, notify: async () => {} },
      ) as Promise<any>;
    const prompts = await ask("prompts/list");
    assert.deepEqual(
      prompts.prompts.map((p: { name: string; arguments?: { name: string }[] }) => [
        p.name,
        p.arguments?.map((a) => a.name),
      ]),
      [["greet", ["who"]]],
    );
    const got = await ask("prompts/get", { name: "greet", arguments: { who: "Ada" } });
    assert.deepEqual(got.messages, [{ role: "user", content: { type: "text", text: "Hello, Ada!" } }]);
    const listed = await ask("resources/list");
    assert.deepEqual(
      listed.resources.map((r: { uri: string }) => r.uri),
      ["file:///notes.txt"],
    );
    assert.equal((await ask("resources/read", { uri: "file:///notes.txt" })).contents[0].text, "the notes");
    const templates = await ask("resources/templates/list");
    assert.deepEqual(
      templates.resourceTemplates.map((t: { uriTemplate: string }) => t.uriTemplate),
      ["greeting://{name}"],
    );
    assert.equal((await ask("resources/read", { uri: "greeting://Grace" })).contents[0].text, "Hi Grace");
    // Modern list results carry the caching hints (SEP-2549), as the tools' do.
    assert.equal(typeof prompts.ttlMs, "number");
    assert.equal(typeof listed.cacheScope, "string");
  });
});
