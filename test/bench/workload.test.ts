// The committed context workload (bench/workloads/context.json) is well-formed and names real
// demo tools with arguments their input schemas accept. Not a timing test.
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadWorkload } from "../../bench/lib/demo.js";
import { createDemoServer } from "../../src/demo/server.js";
import { checkAgainstSchema } from "../../src/protocol/json-schema.js";

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-12-01",
  "io.modelcontextprotocol/clientInfo": { name: "workload-test", version: "0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

test("the context workload names real demo tools with valid arguments", async () => {
  const w = loadWorkload();
  assert.equal(typeof w.description, "string");
  assert.ok(w.calls.length >= 20, `at least 20 calls (has ${w.calls.length})`);
  const listed = (await createDemoServer().handle(
    "tools/list",
    { _meta: META },
    { signal: new AbortController().signal, session: {}, notify: async () => {} },
  )) as {
    tools: { name: string; inputSchema: object; _meta?: Record<string, unknown> }[];
  };
  const tools = new Map(listed.tools.map((t) => [t.name, t]));
  for (const c of w.calls) {
    const tool = tools.get(c.tool);
    assert.ok(tool, `${c.tool} is a demo tool`);
    assert.equal(typeof c.args, "object");
    assert.equal(
      checkAgainstSchema(tool.inputSchema, c.args),
      undefined,
      `${c.tool} ${JSON.stringify(c.args)} fits its inputSchema`,
    );
  }
  // The brief's fixed points: Globex (37 records), NA (300 records) and two images.
  assert.ok(
    w.calls.some(
      (c) =>
        c.tool === "search_customers" &&
        c.args.query === "Globex" &&
        c.expectRecords === 37 &&
        Number(c.args.limit) >= 37,
    ),
  );
  assert.ok(
    w.calls.some(
      (c) =>
        c.tool === "search_customers" &&
        c.args.query === "NA" &&
        c.expectRecords === 300 &&
        Number(c.args.limit) >= 300,
    ),
  );
  const images = w.calls.filter((c) => c.tool === "generate_images").reduce((n, c) => n + Number(c.args.count ?? 2), 0);
  assert.equal(images, 2);
});

test("the workload's record counts match what the demo server returns", async () => {
  const server = createDemoServer();
  for (const c of loadWorkload().calls.filter((x) => x.expectRecords !== undefined)) {
    const r = (await server.handle(
      "tools/call",
      {
        name: c.tool,
        arguments: c.args,
        requestedOutputs: [{ audience: "programmatic", format: "structured" }],
        _meta: META,
      },
      { signal: new AbortController().signal, session: {}, notify: async () => {} },
    )) as { outputs: { structuredContent: { total?: number; items?: unknown[] } }[] };
    const sc = r.outputs[0].structuredContent;
    assert.equal(sc.total, c.expectRecords, `${c.tool} ${JSON.stringify(c.args)} total`);
    assert.equal(sc.items?.length, c.expectRecords, `${c.tool} ${JSON.stringify(c.args)} items`);
  }
});
