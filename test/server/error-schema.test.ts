// Prototype of SEP-3279 open question 2: a per-variant error schema, opt-in in the toolkit
// (`errorSchema` on a structured variant). Shown to a 2026-12-01 host that does not know the field
// (the tool is accepted, the error output routed as always), to a 2026-07-28 client (it never sees
// the field), and its cost (the listing bytes it adds). docs/spec-proposal/open-questions.md.
import { test } from "node:test";
import assert from "node:assert/strict";
import { defineTool, ToolError, ToolkitServer, type RequestContext } from "../../src/server/index.js";
import { Host } from "../../src/host/host.js";
import { config } from "../helpers/host-fixtures.js";
import { memoryServers } from "../helpers/in-memory.js";
import { modernMeta } from "../helpers/raw-stdio.js";

const ERROR_SCHEMA = {
  type: "object",
  properties: {
    error: { type: "object", properties: { code: { enum: ["not_found", "invalid"] } }, required: ["code"] },
  },
  required: ["error"],
};
const make = (errorValue: unknown, withErrorSchema = true) =>
  defineTool<{ id?: string }, { id: string }>({
    name: "lookup",
    description: "fails for ids starting with x",
    inputSchema: { type: "object", properties: { id: { type: "string" } } },
    outputVariants: [
      { audience: "assistant", format: "content", project: (r) => [{ type: "text", text: r.id }] },
      {
        audience: "programmatic",
        format: "structured",
        schema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
        ...(withErrorSchema ? { errorSchema: ERROR_SCHEMA } : {}),
        project: (r) => ({ id: r.id }),
      },
    ],
    run: ({ id = "a" }) =>
      id.startsWith("x")
        ? new ToolError("no such id", {
            "assistant/content": [{ type: "text", text: "no such id" }],
            "programmatic/structured": errorValue,
          })
        : { id },
  });
const ctx = (): RequestContext => ({ signal: new AbortController().signal, notify: async () => {} });
const serverWith = (tool: ReturnType<typeof make>) =>
  new ToolkitServer({ info: { name: "q2", version: "1" }, tools: [tool] });
const list = async (s: ToolkitServer, version: string) =>
  (await s.handle("tools/list", { _meta: modernMeta(version) }, ctx())) as any;
const callErr = (s: ToolkitServer) =>
  s.handle(
    "tools/call",
    {
      name: "lookup",
      arguments: { id: "x1" },
      requestedOutputs: [{ audience: "programmatic", format: "structured" }],
      _meta: modernMeta(),
    },
    ctx(),
  );

test("the errorSchema is declared under 2026-12-01 only; a 2026-07-28 client never sees it", async () => {
  const s = serverWith(make({ error: { code: "not_found" } }));
  const modern = await list(s, "2026-12-01");
  assert.deepEqual(modern.tools[0].outputVariants[1].errorSchema, ERROR_SCHEMA);
  const legacy = await list(s, "2026-07-28");
  assert.doesNotMatch(JSON.stringify(legacy), /errorSchema/);
});

test("an error output is checked against it before sending: conforming goes out, violating is -32603", async () => {
  const ok = (await callErr(serverWith(make({ error: { code: "not_found" } })))) as any;
  assert.equal(ok.isError, true);
  assert.deepEqual(ok.outputs[0].structuredContent, { error: { code: "not_found" } });
  await assert.rejects(
    callErr(serverWith(make({ error: { code: "exploded" } }))),
    (e: any) => e.code === -32603 && /errorSchema/.test(e.message),
  );
  // Without the opt-in nothing is checked (the SEP: error outputs need not match the success schema).
  assert.equal(((await callErr(serverWith(make({ error: { code: "exploded" } }, false)))) as any).isError, true);
});

test("a host that does not know errorSchema accepts the tool and routes the error output as always", async () => {
  const memory = memoryServers({ q2: serverWith(make({ error: { code: "not_found" } })) });
  const host = await Host.start({ config: config(memory.servers), transport: memory.transport, eraCache: false });
  try {
    assert.deepEqual(await host.toolErrors(), []);
    const out = await host.call(
      "lookup",
      { id: "x1" },
      { select: [{ audience: "programmatic", format: "structured" }] },
    );
    assert.ok(out.ok, JSON.stringify(out));
    assert.equal(out.isError, true);
    assert.deepEqual((out.routed.programmatic[0] as any).structuredContent, { error: { code: "not_found" } });
  } finally {
    await host.close();
  }
});

test("its cost: the bytes one errorSchema adds to every 2026-12-01 listing of the tool", async () => {
  const withIt = JSON.stringify((await list(serverWith(make({}, true)), "2026-12-01")).tools).length;
  const without = JSON.stringify((await list(serverWith(make({}, false)), "2026-12-01")).tools).length;
  assert.equal(withIt - without, JSON.stringify({ errorSchema: ERROR_SCHEMA }).length - 1);
});
