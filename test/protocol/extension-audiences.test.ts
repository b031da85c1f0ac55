// Extension audiences beyond the extension id, with a made-up second extension, com.example/charts:
// it defines com.example/charts and an optional com.example/chart-thumbnail (negotiated through
// its settings, {"audiences": [...]}). Declared by the extension, negotiated through it (the
// toolkit server lists and serves it only then, the client selection accepts it only then) and
// routed to its sink (the App sink, with the extension's namespaced `_meta`).
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  checkSelection,
  defineExtensionAudiences,
  extensionOfAudience,
  negotiatedAudiences,
  UI_EXTENSION,
} from "../../src/protocol/index.js";
import { route } from "../../src/host/result/router.js";
import { defineTool, ToolkitServer, type RequestContext } from "../../src/server/index.js";
import { modernMeta } from "../helpers/raw-stdio.js";

const CHARTS = "com.example/charts";
const THUMB = "com.example/chart-thumbnail";
defineExtensionAudiences({ id: CHARTS, audiences: [{ id: CHARTS }, { id: THUMB, optional: true }] });
const BOTH = { [CHARTS]: { audiences: [THUMB] } };

test("the registry refuses a core audience, a bare name and another extension's audience", () => {
  assert.throws(
    () => defineExtensionAudiences({ id: "com.example/bad", audiences: [{ id: "user" }] }),
    /cannot redefine the core audience user/,
  );
  assert.throws(
    () => defineExtensionAudiences({ id: "com.example/bad", audiences: [{ id: "thumbnail" }] }),
    /not a namespaced identifier/,
  );
  assert.throws(
    () => defineExtensionAudiences({ id: "com.example/other", audiences: [{ id: THUMB }] }),
    /already defined by com\.example\/charts/,
  );
  assert.equal(extensionOfAudience(THUMB), CHARTS);
  assert.equal(extensionOfAudience(UI_EXTENSION), UI_EXTENSION, "a one-audience extension: its id is its audience");
});

test("negotiated audiences: the extension's own; the optional one only when both settings list it", () => {
  assert.deepEqual([...negotiatedAudiences(BOTH, BOTH)].sort(), [THUMB, CHARTS].sort());
  assert.deepEqual([...negotiatedAudiences({ [CHARTS]: {} }, BOTH)], [CHARTS]);
  assert.deepEqual([...negotiatedAudiences(BOTH, { [CHARTS]: {} })], [CHARTS]);
  assert.deepEqual([...negotiatedAudiences(BOTH, { [UI_EXTENSION]: {} })], [], "not advertised by the server");
  assert.deepEqual([...negotiatedAudiences({ [UI_EXTENSION]: {} }, { [UI_EXTENSION]: {} })], [UI_EXTENSION]);
});

test("the client's selection check accepts the additional audience only when negotiated", () => {
  const variants = [
    { audience: "assistant", format: "content" as const },
    { audience: THUMB, format: "structured" as const },
  ];
  const sel = [{ audience: THUMB, format: "structured" as const }];
  assert.equal(checkSelection(sel, variants, negotiatedAudiences(BOTH, BOTH)), undefined);
  assert.equal(
    checkSelection(sel, variants, negotiatedAudiences({ [CHARTS]: {} }, BOTH))?.rule,
    "unnegotiated-selector",
  );
});

const chart = defineTool<Record<string, never>, { points: number[] }>({
  name: "chart",
  description: "a chart for the charts extension, and a thumbnail",
  inputSchema: { type: "object" },
  outputVariants: [
    { audience: "assistant", format: "content", project: (r) => [{ type: "text", text: `${r.points.length} points` }] },
    { audience: CHARTS, format: "structured", project: (r) => ({ series: r.points }) },
    {
      audience: THUMB,
      format: "structured",
      project: (r) => ({ sparkline: r.points.join(",") }),
      resultMeta: () => ({ [CHARTS]: { theme: "dark" } }),
    },
  ],
  run: () => ({ points: [1, 2, 3] }),
});
const ctx = (): RequestContext => ({ signal: new AbortController().signal, notify: async () => {} });

test("a toolkit server: the tool's audiences need the defining extension advertised by the server", () => {
  assert.throws(
    () => new ToolkitServer({ info: { name: "x", version: "1" }, tools: [chart] }),
    /uses extension com\.example\/charts, which the server does not advertise/,
  );
});

test("a toolkit server lists and serves the additional audience only when negotiated through the extension", async () => {
  const server = new ToolkitServer({ info: { name: "charts", version: "1" }, tools: [chart], extensions: BOTH });
  const list = async (caps: Record<string, unknown>) =>
    (
      (await server.handle("tools/list", { _meta: modernMeta("2026-12-01", caps) }, ctx())) as any
    ).tools[0].outputVariants.map((v: any) => v.audience);
  assert.deepEqual(await list({}), ["assistant"]);
  assert.deepEqual(await list({ extensions: { [CHARTS]: {} } }), ["assistant", CHARTS]);
  assert.deepEqual(await list({ extensions: BOTH }), ["assistant", CHARTS, THUMB]);
  const call = (caps: Record<string, unknown>) =>
    server.handle(
      "tools/call",
      {
        name: "chart",
        arguments: {},
        requestedOutputs: [{ audience: THUMB, format: "structured" }],
        _meta: modernMeta("2026-12-01", caps),
      },
      ctx(),
    );
  await assert.rejects(
    call({ extensions: { [CHARTS]: {} } }),
    (e: any) => e.code === -32602 && /chart-thumbnail/.test(e.message),
  );
  const r = (await call({ extensions: BOTH })) as any;
  assert.deepEqual(r.outputs, [{ audience: THUMB, format: "structured", structuredContent: { sparkline: "1,2,3" } }]);

  // Routed to its sink: the App sink, with the defining extension's namespaced _meta only.
  const routed = route(r.outputs, { appExtensions: [THUMB], meta: { ...r._meta, "com.example/secret": 1 } });
  assert.deepEqual(routed.app, r.outputs);
  assert.deepEqual(routed.model, []);
  assert.deepEqual(routed.appMeta, { [CHARTS]: { theme: "dark" } });
  assert.throws(() => route(r.outputs, { appExtensions: [] }), /no sink for com\.example\/chart-thumbnail\/structured/);
});
