// Extension audiences beyond the extension id through the whole Host, with a made-up second
// extension, com.example/charts (its own audience and an optional com.example/chart-thumbnail,
// negotiated through its settings): registered as a client extension for app mode, advertised on
// every modern request of that mode, requested when declared and negotiated, routed to the App sink
// with its namespaced result `_meta`; refused locally (the server never asked) where it was not
// negotiated — another mode, or a server whose settings do not list the optional audience.
import { test } from "node:test";
import assert from "node:assert/strict";
import { defineExtensionAudiences } from "../../src/protocol/index.js";
import { registerClientExtension, policyFor } from "../../src/host/policy/index.js";
import { Host } from "../../src/host/host.js";
import { defineTool, ToolkitServer } from "../../src/server/index.js";
import { config } from "../helpers/host-fixtures.js";
import { memoryServers } from "../helpers/in-memory.js";

const CHARTS = "com.example/charts";
const THUMB = "com.example/chart-thumbnail";
defineExtensionAudiences({ id: CHARTS, audiences: [{ id: CHARTS }, { id: THUMB, optional: true }] });
registerClientExtension({
  id: CHARTS,
  settings: { audiences: [THUMB] },
  request: [{ audience: THUMB, format: "structured" }],
});

const chart = defineTool<Record<string, never>, { points: number[] }>({
  name: "chart",
  description: "a chart for the charts extension, and a thumbnail",
  inputSchema: { type: "object" },
  annotations: { readOnlyHint: true },
  outputVariants: [
    { audience: "assistant", format: "content", project: (r) => [{ type: "text", text: `${r.points.length} points` }] },
    { audience: CHARTS, format: "structured", project: (r) => ({ series: r.points }) },
    {
      audience: THUMB,
      format: "structured",
      schema: { type: "object", properties: { sparkline: { type: "string" } }, required: ["sparkline"] },
      project: (r) => ({ sparkline: r.points.join(",") }),
      resultMeta: () => ({ [CHARTS]: { theme: "dark" }, "com.example/secret": "never routed" }),
    },
  ],
  run: () => ({ points: [1, 2, 3] }),
});

async function hostWith(serverSettings: Record<string, unknown>) {
  const memory = memoryServers({
    charts: new ToolkitServer({
      info: { name: "charts", version: "1" },
      tools: [chart],
      extensions: { [CHARTS]: serverSettings },
    }),
  });
  const host = await Host.start({ config: config(memory.servers), transport: memory.transport, eraCache: false });
  const calls = () => memory.sent("charts").filter((m) => m.method === "tools/call");
  return { host, calls };
}

test("the registry: app mode advertises it; a bare id or a second registration is refused", () => {
  assert.deepEqual(policyFor("app").advertiseExtensions[CHARTS], { audiences: [THUMB] });
  assert.equal(policyFor("chat").advertiseExtensions[CHARTS], undefined);
  assert.throws(() => registerClientExtension({ id: "charts", settings: {} }), /not a namespaced identifier/);
  assert.throws(
    () => registerClientExtension({ id: CHARTS, settings: {} }),
    /already advertises extension com\.example\/charts/,
  );
});

test("negotiated through the extension: app mode requests the thumbnail, routed to the App sink with its _meta", async () => {
  const { host, calls } = await hostWith({ audiences: [THUMB] });
  try {
    const out = await host.call("chart", {}, { mode: "app" });
    assert.ok(out.ok, JSON.stringify(out));
    assert.deepEqual(out.plan.requested, [
      { audience: "assistant", format: "content" },
      { audience: THUMB, format: "structured" },
    ]);
    const sent = calls().at(-1)!;
    assert.deepEqual(sent.params._meta["io.modelcontextprotocol/clientCapabilities"].extensions[CHARTS], {
      audiences: [THUMB],
    });
    assert.deepEqual(out.routed.app, [
      { audience: THUMB, format: "structured", structuredContent: { sparkline: "1,2,3" } },
    ]);
    assert.deepEqual(out.routed.appMeta, { [CHARTS]: { theme: "dark" } });
    assert.equal(out.routed.model.length, 1);
    assert.doesNotMatch(JSON.stringify(out.routed.model), /sparkline|theme|secret/);
    // The extension's own audience, selected explicitly, goes the same way.
    const own = await host.call("chart", {}, { mode: "app", select: [{ audience: CHARTS, format: "structured" }] });
    assert.ok(own.ok, JSON.stringify(own));
    assert.deepEqual(own.routed.app, [
      { audience: CHARTS, format: "structured", structuredContent: { series: [1, 2, 3] } },
    ]);
  } finally {
    await host.close();
  }
});

test("not negotiated: another mode, or a server that does not list the optional audience — refused before sending", async () => {
  const a = await hostWith({ audiences: [THUMB] });
  try {
    const before = a.calls().length;
    const chat = await a.host.call("chart", {}, { mode: "chat", select: [{ audience: THUMB, format: "structured" }] });
    assert.equal(chat.ok, false);
    assert.equal(!chat.ok && chat.error.rule, "unnegotiated-selector");
    assert.equal(a.calls().length, before, "nothing was sent");
  } finally {
    await a.host.close();
  }
  const b = await hostWith({});
  try {
    const app = await b.host.call("chart", {}, { mode: "app" });
    assert.ok(app.ok, JSON.stringify(app));
    // The server's settings do not list the thumbnail: only the extension's own audience is negotiated.
    assert.deepEqual(app.plan.requested, [{ audience: "assistant", format: "content" }]);
    const thumb = await b.host.call("chart", {}, { mode: "app", select: [{ audience: THUMB, format: "structured" }] });
    assert.equal(!thumb.ok && thumb.error.rule, "unnegotiated-selector");
  } finally {
    await b.host.close();
  }
});
