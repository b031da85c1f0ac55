// The SEP testing plan's client-side items against the REAL demo server: in process (the in-memory
// tier, test/helpers/in-memory.ts, recording what the host sends) and over Streamable HTTP (a
// spawned server behind a logging proxy). The stdio wire itself is the subject of lifecycle,
// era, rejection and the hostile tests.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { createDemoServer } from "../../src/demo/server.js";
import { Host } from "../../src/host/host.js";
import type { CallOutcome } from "../../src/host/types.js";
import { config, startDemoHttp, startLoggingProxy } from "../helpers/host-fixtures.js";
import { memoryServers } from "../helpers/in-memory.js";

const UI = "io.modelcontextprotocol/ui";
const Q = { query: "Globex" };

function ok(o: CallOutcome) {
  assert.ok(o.ok, o.ok ? "" : `${o.error.rule}: ${o.error.message}`);
  return o as Extract<CallOutcome, { ok: true }>;
}
const text = (entries: readonly any[]) =>
  entries
    .flatMap((e) => e.content?.map((b: any) => b.text ?? `[${b.type}]`) ?? [JSON.stringify(e.structuredContent)])
    .join("\n");

interface Wire {
  start(protocol?: string): Promise<Host>;
  sent(): Record<string, any>[];
  stop(): Promise<void>;
}

function memoryWire(): Wire {
  const memory = memoryServers({ demo: createDemoServer() });
  const hosts: Host[] = [];
  return {
    async start(protocol) {
      const h = await Host.start({
        config: config(memory.servers),
        protocol,
        transport: memory.transport,
        eraCache: false,
      });
      hosts.push(h);
      return h;
    },
    sent: () => memory.sent("demo"),
    stop: async () => void (await Promise.all(hosts.map((h) => h.close()))),
  };
}

function httpWire(): Wire {
  let child: ChildProcess | undefined;
  let proxy: Awaited<ReturnType<typeof startLoggingProxy>> | undefined;
  const hosts: Host[] = [];
  return {
    async start(protocol) {
      if (!proxy) {
        const demo = await startDemoHttp();
        child = demo.child;
        proxy = await startLoggingProxy(demo.url);
      }
      const h = await Host.start({ config: config({ demo: { kind: "http", url: proxy.url } }), protocol });
      hosts.push(h);
      return h;
    },
    sent: () => proxy?.bodies ?? [],
    async stop() {
      await Promise.all(hosts.map((h) => h.close()));
      await proxy?.close();
      child?.kill();
    },
  };
}

for (const [transport, make] of [
  ["in-memory", memoryWire],
  ["http", httpWire],
] as const) {
  describe(`demo server over ${transport}`, () => {
    const wire = make();
    let host: Host;
    before(async () => {
      host = await wire.start();
    });
    after(() => wire.stop());
    const calls = () => wire.sent().filter((m) => m.method === "tools/call");

    test("connects modern (2026-12-01) with no tool rejected", async () => {
      const s = host.servers()[0];
      assert.equal(s.protocolVersion, "2026-12-01", s.error);
      assert.deepEqual(await host.toolErrors(), []);
    });

    test("conversational: assistant/content reaches the model", async () => {
      const o = ok(await host.call("search_customers", Q, { mode: "chat" }));
      assert.match(text(o.routed.model), /37 Globex customer records/);
      assert.deepEqual(
        o.routed.model.map((e) => e.format),
        ["content"],
      );
      assert.equal(o.receipt, undefined);
    });

    test("code mode: programmatic/structured to program logic, the model gets a receipt only", async () => {
      const o = ok(await host.call("search_customers", Q, { mode: "code" }));
      assert.deepEqual(o.plan.requested, [{ audience: "programmatic", format: "structured" }]);
      assert.equal(o.routed.model.length, 0);
      const data = o.routed.programmatic[0].structuredContent as any;
      assert.ok(Array.isArray(data.items) && data.items.length > 0);
      assert.match(
        o.receipt!.text,
        /^search_customers: programmatic\/structured \d+(\.\d)? k?B went to program logic, not to you\.$/,
      );
      assert.ok(!o.receipt!.text.includes(data.items[0].customerId), "the receipt carries no server data");
    });

    test("structured mode: assistant/structured reaches the model", async () => {
      const o = ok(await host.call("search_customers", Q, { mode: "structured" }));
      assert.equal(o.routed.model[0].format, "structured");
      assert.equal((o.routed.model[0] as any).structuredContent.total, 37);
    });

    test("user/content media goes to the user sink only", async () => {
      const o = ok(await host.call("generate_images", { prompt: "sunrise", count: 2 }, { mode: "chat" }));
      const images = o.routed.user.flatMap((e: any) => e.content).filter((b: any) => b.type === "image");
      assert.equal(images.length, 2);
      assert.ok(!JSON.stringify(o.routed.model).includes('"image"'), "no image in the model sink");
    });

    test("user/structured table goes to the user sink, not the model", async () => {
      const o = ok(await host.call("search_customers", Q, { mode: "chat" }));
      const table = o.routed.user.find((e) => e.format === "structured") as any;
      assert.ok(
        Array.isArray(table.structuredContent.items) &&
          table.structuredContent.items.length > 0 &&
          table.structuredContent.total === 37,
      );
      assert.ok(!o.routed.model.some((e) => e.format === "structured"));
    });

    test("per-sink byte counts: the payload of each sink (text, structured JSON), the same object on every read, and kept in the outcome's JSON", async () => {
      const o = ok(await host.call("search_customers", Q, { mode: "chat" }));
      const size = (xs: readonly any[]) =>
        xs.reduce<number>(
          (n, x) =>
            n +
            Buffer.byteLength(
              x.format === "structured"
                ? JSON.stringify(x.structuredContent)
                : x.content.map((b: any) => b.text).join(""),
            ),
          0,
        );
      assert.deepEqual(o.bytes, { model: size(o.routed.model), user: size(o.routed.user), programmatic: 0, app: 0 });
      assert.ok(o.bytes.user > o.bytes.model, "the 37-row table is the user's, not the model's");
      assert.equal(o.bytes, o.bytes, "computed once, then kept");
      assert.deepEqual(JSON.parse(JSON.stringify(o)).bytes, o.bytes);
      assert.deepEqual(Object.keys(JSON.parse(JSON.stringify(o))).sort(), [
        "bytes",
        "durationMs",
        "isError",
        "ok",
        "plan",
        "routed",
      ]);
    });

    test("app mode: assistant/content + ui/structured with the ui _meta in appMeta only", async () => {
      const o = ok(await host.call("search_customers", Q, { mode: "app" }));
      assert.deepEqual(o.plan.requested, [
        { audience: "assistant", format: "content" },
        { audience: UI, format: "structured" },
      ]);
      assert.equal(o.routed.app.length, 1);
      assert.ok(Array.isArray((o.routed.app[0] as any).structuredContent.rows));
      assert.deepEqual(Object.keys(o.routed.appMeta), [UI]);
      assert.ok(!JSON.stringify(o.routed.model).includes("continuationToken"));
      // The tools/list used in app mode is the one made with the extension advertised.
      const appList = wire
        .sent()
        .filter(
          (m) =>
            m.method === "tools/list" && m.params._meta["io.modelcontextprotocol/clientCapabilities"].extensions?.[UI],
        );
      assert.ok(appList.length >= 1);
      const call = calls().at(-1)!;
      assert.deepEqual(call.params._meta["io.modelcontextprotocol/clientCapabilities"], {
        extensions: { [UI]: { mimeTypes: ["text/html;profile=mcp-app"] }, "io.modelcontextprotocol/tasks": {} },
      });
    });

    test("the Apps extension is advertised only in app mode", async () => {
      ok(await host.call("search_customers", Q, { mode: "chat" }));
      assert.deepEqual(calls().at(-1)!.params._meta["io.modelcontextprotocol/clientCapabilities"], {
        extensions: { "io.modelcontextprotocol/tasks": {} },
      });
    });

    test("App-only tool: explicit ui/structured selection, and the fallback without selection", async () => {
      assert.ok(
        !host.modelTools().some((t) => t.name === "refresh_dashboard"),
        "App-only tools are not exposed to the model",
      );
      const explicit = ok(
        await host.call("refresh_dashboard", {}, { mode: "app", select: [{ audience: UI, format: "structured" }] }),
      );
      assert.equal(explicit.routed.model.length, 0);
      assert.equal(typeof (explicit.routed.app[0] as any).structuredContent.datasetVersion, "string");
      const fallback = ok(await host.call("refresh_dashboard", {}, { mode: "minimal" }));
      assert.equal("requestedOutputs" in calls().at(-1)!.params, false);
      assert.equal(fallback.routed.model.length, 1);
      assert.equal(fallback.routed.app.length, 0);
    });

    test("undeclared and unnegotiated selectors are refused locally; nothing is sent", async () => {
      const before = calls().length;
      const undeclared = await host.call(
        "generate_images",
        { prompt: "x" },
        { select: [{ audience: "programmatic", format: "structured" }] },
      );
      assert.ok(!undeclared.ok && undeclared.error.rule === "undeclared-selector");
      const unnegotiated = await host.call("search_customers", Q, {
        mode: "chat",
        select: [{ audience: UI, format: "structured" }],
      });
      assert.ok(!unnegotiated.ok && unnegotiated.error.rule === "unnegotiated-selector");
      assert.match(unnegotiated.ok ? "" : unnegotiated.error.message, /not negotiated/);
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(calls().length, before);
    });

    test("isError results route per audience with no substitution", async () => {
      const o = ok(await host.call("lookup_order", { orderId: "nope" }, { mode: "chat" }));
      assert.equal(o.isError, true);
      assert.match(text(o.routed.model), /no order with id nope/);
      assert.match(text(o.routed.user), /not found/);
      assert.equal(o.routed.programmatic.length, 0);
    });

    test("requestedOutputs appear on the wire under 2026-12-01 exactly as planned", () => {
      const withSel = calls().filter((c) => c.params.requestedOutputs);
      assert.ok(withSel.length > 0);
      for (const c of calls()) assert.equal(c.params._meta["io.modelcontextprotocol/protocolVersion"], "2026-12-01");
    });

    for (const protocol of ["2026-07-28", "2025-11-25"]) {
      test(`under ${protocol}: legacy tool projection, legacy results, and no requestedOutputs on the wire`, async () => {
        const legacy = await wire.start(protocol);
        assert.equal(legacy.servers()[0].protocolVersion, protocol, legacy.servers()[0].error);
        const tools = await legacy.tools();
        const weather = tools.find((t) => t.name === "legacy_weather")!;
        assert.deepEqual(weather.variants, [{ audience: "assistant", format: "content" }]);
        assert.ok(weather.legacyOutputSchema, "the assistant/structured schema is projected to outputSchema");
        assert.equal(tools.find((t) => t.name === "generate_images")!.legacyOutputSchema, undefined);
        const before = calls().length;
        for (const mode of ["chat", "code", "app"] as const) {
          const o = ok(await legacy.call("search_customers", Q, { mode }));
          assert.match(text(o.routed.model), /37 Globex/);
          // search_customers has an App: in app mode a legacy result's structuredContent is its View's data.
          assert.equal(o.routed.app.length, mode === "app" ? 1 : 0);
        }
        const w = ok(await legacy.call("legacy_weather", { city: "Seattle" }));
        assert.equal((w.routed.programmatic[0] as any).structuredContent.city, "Seattle");
        const sent = calls().slice(before);
        assert.equal(sent.length, 4);
        for (const c of sent) assert.equal("requestedOutputs" in c.params, false, JSON.stringify(c.params));
      });
    }
  });
}
