// Interop: the TypeScript SDK v2 client (@modelcontextprotocol/client, a devDependency) lists and
// calls the demo server's tools at 2026-07-28, through the built CLI over stdio
// (`demo-server`) and Streamable HTTP (`demo-server --http 0`), pinned and auto-negotiated. The
// SDK validates every result against the 2026-07-28 schema (ttlMs/cacheScope included) and each
// structuredContent against the tool's outputSchema.
import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport, type Transport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { CLI, REPO_ROOT } from "../helpers/raw-stdio.js";
import { startHttpServer, type HttpServerProcess } from "../helpers/raw-http.js";

const SEP_TEXT =
  "I found 37 Globex customer records. The three most recently active accounts are Globex Retail, Globex Energy, and Globex Labs.";
const MODES = [{ pin: "2026-07-28" }, "auto"] as const;

async function exercise(makeTransport: () => Transport, mode: (typeof MODES)[number]) {
  const client = new Client(
    { name: "sdk-v2-interop", version: "1.0.0" },
    { versionNegotiation: { mode: mode as never } },
  );
  await client.connect(makeTransport());
  try {
    assert.equal(client.getNegotiatedProtocolVersion(), "2026-07-28");
    assert.equal(client.getServerVersion()?.name, "mcp-prism-demo");

    const list = await client.listTools();
    assert.deepEqual(
      list.tools.map((t) => t.name),
      [
        "search_customers",
        "generate_images",
        "refresh_dashboard",
        "lookup_order",
        "legacy_weather",
        "wait",
        "draft_email",
        "account_brief",
        "list_roots",
        "add_note",
        "toggle_extras",
      ],
    );
    assert.deepEqual([list.ttlMs, list.cacheScope], [300_000, "public"]);
    const search = list.tools.find((t) => t.name === "search_customers")!;
    assert.deepEqual(search.outputSchema?.required, ["query", "total", "mostRecent", "byRegion"]);

    // The legacy shape of the SEP's example: assistant/content as content, assistant/structured as structuredContent.
    const r = await client.callTool({ name: "search_customers", arguments: { query: "Globex" } });
    assert.equal(r.isError, undefined);
    assert.deepEqual((r.content as any[])[0], { type: "text", text: SEP_TEXT });
    assert.equal((r.structuredContent as any).total, 37);

    const weather = await client.callTool({ name: "legacy_weather", arguments: { city: "Paris" } });
    assert.equal((weather.structuredContent as any).city, "Paris");

    // The images are user/content: a 2026-07-28 client gets only the assistant's description.
    const images = await client.callTool({ name: "generate_images", arguments: { prompt: "a sunrise", count: 1 } });
    assert.deepEqual(
      (images.content as any[]).map((b) => b.type),
      ["text"],
    );

    const err = await client.callTool({ name: "lookup_order", arguments: { orderId: "nope" } });
    assert.equal(err.isError, true);
    assert.match((err.content as any[])[0].text, /no order with id nope/);

    const progress: number[] = [];
    const waited = await client.callTool(
      { name: "wait", arguments: { ms: 300 } },
      { onprogress: (p) => progress.push(p.progress) },
    );
    assert.equal(waited.isError, undefined);
    assert.ok(progress.length > 0, "progress notifications reached the SDK");

    const resources = await client.listResources();
    assert.deepEqual(
      resources.resources.slice(0, 2).map((x) => x.uri),
      ["ui://dashboard/index.html", "customers://cust_1005"],
    );
    // The SDK follows nextCursor itself: 7 pages of at most 100, every customer once.
    assert.equal(resources.resources.length, 641);
    assert.equal(new Set(resources.resources.map((x) => x.uri)).size, 641);
    const read = await client.readResource({ uri: "ui://dashboard/index.html" });
    assert.match((read.contents[0] as { text: string }).text, /Customer dashboard/);
  } finally {
    await client.close();
  }
}

for (const mode of MODES) {
  const label = typeof mode === "string" ? mode : `pin ${mode.pin}`;
  describe(`TypeScript SDK v2 client (${label})`, () => {
    it("over stdio (demo-server from the built CLI)", async () => {
      await exercise(
        () =>
          new StdioClientTransport({
            command: process.execPath,
            args: [CLI, "demo-server"],
            cwd: REPO_ROOT,
            stderr: "ignore",
          }),
        mode,
      );
    });

    describe("over Streamable HTTP (demo-server --http 0)", () => {
      let srv: HttpServerProcess;
      before(async () => {
        srv = await startHttpServer();
      });
      after(() => srv.close());
      it("lists and calls the tools", async () => {
        await exercise(() => new StreamableHTTPClientTransport(new URL(srv.url)), mode);
      });
    });
  });
}
