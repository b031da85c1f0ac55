// The demo server over REAL stdio and REAL Streamable HTTP: discovery, versioning, the SEP's
// examples, every server-side MUST, isError outputs, and the legacy projections of all eras.
import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import jpeg from "jpeg-js";
import { compileSchema } from "../../src/protocol/index.js";
import { APPS_CAPS } from "../helpers/raw-stdio.js";
import { httpWire, stdioWire, type Wire } from "./wire.js";

const UI = "io.modelcontextprotocol/ui";
const SEP_TEXT =
  "I found 37 Globex customer records. The three most recently active accounts are Globex Retail, Globex Energy, and Globex Labs.";
const sel = (audience: string, format: "content" | "structured") => ({ audience, format });
const valid = (schema: object, value: unknown): boolean => compileSchema(schema)(value) === true;
const keys = (outputs: any[]) => outputs.map((o) => `${o.audience}/${o.format}`).sort();

for (const make of [stdioWire, httpWire]) {
  describe(`demo server over ${make === stdioWire ? "stdio" : "HTTP"}`, () => {
    let w: Wire;
    let tools: any[]; // 2026-12-01 tools/list with the Apps extension
    const call = (name: string, args: object, requestedOutputs?: object[], caps?: object) =>
      w.modern(
        "tools/call",
        { name, arguments: args, ...(requestedOutputs ? { requestedOutputs } : {}) },
        { caps: caps as any },
      );
    const variantSchema = (tool: string, key: string) => {
      const v = tools.find((t) => t.name === tool).outputVariants.find((x: any) => `${x.audience}/${x.format}` === key);
      return v.schema;
    };
    before(async () => {
      w = await make();
      tools = (await w.modern("tools/list", {}, { caps: APPS_CAPS })).result.tools;
    });
    after(() => w.close());

    describe("discovery and versioning", () => {
      it("server/discover lists versions, the Apps extension, serverInfo and instructions", async () => {
        const r = (await w.modern("server/discover")).result;
        assert.equal(r.resultType, "complete");
        for (const v of ["2026-12-01", "2026-07-28", "2025-11-25"]) assert.ok(r.supportedVersions.includes(v), v);
        assert.deepEqual(r.capabilities.extensions, { [UI]: {} });
        assert.ok(r.capabilities.tools && r.capabilities.resources);
        assert.equal(r._meta["io.modelcontextprotocol/serverInfo"].name, "mcp-prism-demo");
        assert.match(r.instructions, /search_customers/);
      });
      it("an unsupported version gets -32022 with data.supported and data.requested", async () => {
        const r = await w.modern("tools/list", {}, { version: "1900-01-01" });
        assert.equal(r.error?.code, -32022);
        assert.equal(r.error?.data.requested, "1900-01-01");
        assert.ok(r.error?.data.supported.includes("2026-12-01") && r.error?.data.supported.includes("2025-11-25"));
      });
      it("a modern request missing required _meta fields gets -32602", async () => {
        const noMeta = await w.send({ jsonrpc: "2.0", id: "m1", method: "tools/list", params: {} });
        assert.equal(noMeta.msg.error?.code, -32602);
        assert.match(noMeta.msg.error!.message, /protocolVersion/);
        const noCaps = await w.send({
          jsonrpc: "2.0",
          id: "m2",
          method: "tools/list",
          params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-12-01" } },
        });
        assert.equal(noCaps.msg.error?.code, -32602);
        assert.match(noCaps.msg.error!.message, /clientCapabilities/);
      });
      for (const version of ["2026-12-01", "2026-07-28"]) {
        it(`${version}: every cacheable result carries ttlMs and cacheScope (SEP-2549); tools/call does not`, async () => {
          const opts = { version };
          const results = {
            "server/discover": (await w.modern("server/discover", {}, opts)).result,
            "tools/list": (await w.modern("tools/list", {}, opts)).result,
            "resources/list": (await w.modern("resources/list", {}, opts)).result,
            "resources/templates/list": (await w.modern("resources/templates/list", {}, opts)).result,
            "resources/read": (await w.modern("resources/read", { uri: "ui://dashboard/index.html" }, opts)).result,
            "prompts/list": (await w.modern("prompts/list", {}, opts)).result,
          };
          for (const [method, r] of Object.entries(results)) {
            assert.equal(r?.ttlMs, 300_000, method);
            assert.equal(r?.cacheScope, "public", method);
          }
          assert.deepEqual(
            results["resources/templates/list"].resourceTemplates.map((t: any) => t.uriTemplate),
            ["customers://{id}", "customers://{id}/badge.png"],
          );
          const prompt = (await w.modern("prompts/get", { name: "weekly_digest" }, opts)).result;
          assert.equal("ttlMs" in prompt || "cacheScope" in prompt, false, "prompts/get is not a CacheableResult");
          const call = (
            await w.modern("tools/call", { name: "lookup_order", arguments: { orderId: "ord_5001" } }, opts)
          ).result;
          assert.equal("ttlMs" in call || "cacheScope" in call, false);
        });
      }
      it("an initialize carrying the modern envelope is a removed method: -32601", async () => {
        const r = await w.modern(
          "initialize",
          { protocolVersion: "2026-07-28", capabilities: {}, clientInfo: { name: "t", version: "0" } },
          { version: "2026-07-28" },
        );
        assert.equal(r.error?.code, -32601);
      });
      it("results carry resultType complete and serverInfo in _meta", async () => {
        const r = (await call("search_customers", { query: "Globex" })).result;
        assert.equal(r.resultType, "complete");
        assert.equal(r._meta["io.modelcontextprotocol/serverInfo"].version, "0.1.0");
      });
    });

    describe("tools/list per version and per-request extension negotiation", () => {
      it("2026-12-01 without the Apps extension omits extension-audience variants", async () => {
        const list = (await w.modern("tools/list")).result.tools;
        const search = list.find((t: any) => t.name === "search_customers");
        assert.deepEqual(keys(search.outputVariants), [
          "assistant/content",
          "assistant/structured",
          "programmatic/structured",
          "user/structured",
        ]);
        const dash = list.find((t: any) => t.name === "refresh_dashboard");
        assert.deepEqual(keys(dash.outputVariants), ["assistant/content"]);
        assert.deepEqual(dash._meta.ui, { resourceUri: "ui://dashboard/index.html", visibility: ["app"] });
        for (const t of list) assert.equal("outputSchema" in t, false, t.name);
      });
      it("2026-12-01 with the Apps extension on that request lists the ui variants with their own schemas", () => {
        const search = tools.find((t) => t.name === "search_customers");
        assert.ok(keys(search.outputVariants).includes(`${UI}/structured`));
        assert.deepEqual(variantSchema("refresh_dashboard", `${UI}/structured`).required, ["datasetVersion"]);
        // Each structured variant has its own contract.
        const schemas = ["assistant/structured", "programmatic/structured", "user/structured", `${UI}/structured`].map(
          (k) => JSON.stringify(variantSchema("search_customers", k)),
        );
        assert.equal(new Set(schemas).size, 4);
        assert.equal(variantSchema("search_customers", "user/structured").properties.items.type, "array");
      });
      it("2026-07-28 returns the legacy Tool shape: no outputVariants, outputSchema only from assistant/structured", async () => {
        const r = (await w.modern("tools/list", {}, { version: "2026-07-28", caps: APPS_CAPS })).result;
        assert.equal(r.resultType, "complete");
        const byName = Object.fromEntries(r.tools.map((t: any) => [t.name, t]));
        for (const t of r.tools) assert.equal("outputVariants" in t, false, t.name);
        assert.deepEqual(
          byName.search_customers.outputSchema,
          variantSchema("search_customers", "assistant/structured"),
        );
        assert.equal("outputSchema" in byName.generate_images, false);
        assert.equal(
          "outputSchema" in byName.refresh_dashboard,
          false,
          "a ui schema is never projected into outputSchema",
        );
        assert.equal(
          "outputSchema" in byName.lookup_order,
          false,
          "a programmatic schema is never projected into outputSchema",
        );
        assert.equal(byName.legacy_weather.outputSchema.required.includes("temperatureC"), true);
      });
    });

    describe("the SEP's examples (2026-12-01)", () => {
      it("conversational: assistant/content is the SEP's prose", async () => {
        const r = (await call("search_customers", { query: "Globex" }, [sel("assistant", "content")])).result;
        assert.deepEqual(r.outputs, [
          { audience: "assistant", format: "content", content: [{ type: "text", text: SEP_TEXT }] },
        ]);
        assert.equal(UI in r._meta, false);
      });
      it("code mode: programmatic/structured has stable ids, a cursor and provenance, valid against its schema", async () => {
        const r = (await call("search_customers", { query: "Globex" }, [sel("programmatic", "structured")])).result;
        assert.deepEqual(keys(r.outputs), ["programmatic/structured"]);
        const data: any = r.outputs[0].structuredContent;
        assert.deepEqual(
          data.items.slice(0, 2).map((i: any) => [i.customerId, i.displayName]),
          [
            ["cust_1042", "Globex Retail"],
            ["cust_2088", "Globex Energy"],
          ],
        );
        assert.equal(data.total, 37);
        assert.deepEqual(JSON.parse(Buffer.from(data.nextCursor, "base64").toString()), { offset: 25 });
        assert.ok(valid(variantSchema("search_customers", "programmatic/structured"), data));
        const page2 = (
          await call("search_customers", { query: "Globex", cursor: data.nextCursor }, [
            sel("programmatic", "structured"),
          ])
        ).result;
        assert.equal(page2.outputs[0].structuredContent.items.length, 12);
        assert.equal("nextCursor" in page2.outputs[0].structuredContent, false);
      });
      it("structured model input: assistant/structured uses its own (different) schema", async () => {
        const r = (await call("search_customers", { query: "Globex" }, [sel("assistant", "structured")])).result;
        const data: any = r.outputs[0].structuredContent;
        assert.deepEqual(
          data.mostRecent.map((m: any) => m.name),
          ["Globex Retail", "Globex Energy", "Globex Labs"],
        );
        assert.ok(valid(variantSchema("search_customers", "assistant/structured"), data));
        assert.equal(valid(variantSchema("search_customers", "programmatic/structured"), data), false);
      });
      it("host-native presentation: user/structured is the page's rows, the total and the next page's cursor", async () => {
        const r = (await call("search_customers", { query: "Globex", limit: 2 }, [sel("user", "structured")])).result;
        const page = r.outputs[0].structuredContent;
        assert.deepEqual(
          page.items.map((x: any) => [x.displayName, x.region]),
          [
            ["Globex Retail", "NA"],
            ["Globex Energy", "EMEA"],
          ],
        );
        assert.equal(page.total, 37);
        assert.equal(typeof page.nextCursor, "string");
        assert.ok(valid(variantSchema("search_customers", "user/structured"), page));
      });
      it("user-visible media: user/content carries real PNG and JPEG images; assistant/content does not", async () => {
        const r = (
          await call("generate_images", { prompt: "A sunrise over Puget Sound", count: 2 }, [sel("user", "content")])
        ).result;
        assert.deepEqual(keys(r.outputs), ["user/content"]);
        const [png, jpg] = r.outputs[0].content;
        assert.equal(png.mimeType, "image/png");
        const pngBytes = Buffer.from(png.data, "base64");
        assert.deepEqual([...pngBytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
        assert.equal(pngBytes.subarray(12, 16).toString("ascii"), "IHDR");
        assert.deepEqual([pngBytes.readUInt32BE(16), pngBytes.readUInt32BE(20)], [256, 160]);
        assert.equal(jpg.mimeType, "image/jpeg");
        const jpgBytes = Buffer.from(jpg.data, "base64");
        assert.deepEqual([...jpgBytes.subarray(0, 2)], [0xff, 0xd8]);
        const decoded = jpeg.decode(jpgBytes);
        assert.deepEqual([decoded.width, decoded.height], [256, 160]);
        const prose = (await call("generate_images", { prompt: "A sunrise over Puget Sound", count: 2 })).result
          .outputs;
        assert.deepEqual(keys(prose), ["assistant/content"]);
        assert.ok(JSON.stringify(prose).length < 600, "the assistant output carries no pixels");
        assert.equal(
          prose[0].content.some((b: any) => b.type === "image"),
          false,
        );
      });
      it("MCP Apps: assistant/content plus ui/structured with the ui _meta namespace", async () => {
        const r = (
          await call(
            "search_customers",
            { query: "Globex" },
            [sel("assistant", "content"), sel(UI, "structured")],
            APPS_CAPS,
          )
        ).result;
        assert.deepEqual(keys(r.outputs), ["assistant/content", `${UI}/structured`]);
        assert.equal(
          r.outputs.find((o: any) => o.audience === "assistant").content[0].text,
          "I found 37 Globex customer records and displayed them in an interactive table.",
        );
        const view = r.outputs.find((o: any) => o.audience === UI).structuredContent;
        assert.deepEqual(view.columns.slice(0, 3), ["displayName", "region", "lastActivity"]);
        assert.deepEqual(view.rows[0].customerId, "cust_1042");
        assert.deepEqual(view.facets.region.slice(0, 3), ["NA", "EMEA", "APAC"]);
        assert.ok(valid(variantSchema("search_customers", `${UI}/structured`), view));
        assert.equal(r._meta[UI].datasetVersion, "v18");
        assert.equal(typeof r._meta[UI].continuationToken, "string");
      });
      it("App-only refresh_dashboard: explicit ui/structured request, and the assistant/content fallback without one", async () => {
        const app = (await call("refresh_dashboard", {}, [sel(UI, "structured")], APPS_CAPS)).result;
        assert.deepEqual(keys(app.outputs), [`${UI}/structured`]);
        assert.equal(app.outputs[0].structuredContent.datasetVersion, "v18");
        const plain = (await call("refresh_dashboard", {}, undefined, APPS_CAPS)).result;
        assert.deepEqual(keys(plain.outputs), ["assistant/content"]);
        assert.match(plain.outputs[0].content[0].text, /Dashboard refreshed/);
      });
      it("serves the dashboard App resource", async () => {
        const list = (await w.modern("resources/list")).result;
        assert.deepEqual(list.resources[0], {
          uri: "ui://dashboard/index.html",
          name: "dashboard",
          title: "Customer dashboard",
          description: "The App View of refresh_dashboard",
          mimeType: "text/html;profile=mcp-app",
        });
        const read = (await w.modern("resources/read", { uri: "ui://dashboard/index.html" })).result;
        assert.equal(read.resultType, "complete");
        assert.match(read.contents[0].text, /<!doctype html>/);
        const missing = await w.modern("resources/read", { uri: "ui://nope" });
        assert.equal(missing.error?.code, -32602);
      });
    });

    describe("server-side MUSTs", () => {
      it("exactly one output per requested selector and no other", async () => {
        const r = (
          await call("search_customers", { query: "NA" }, [
            sel("programmatic", "structured"),
            sel("user", "structured"),
          ])
        ).result;
        assert.equal(r.outputs.length, 2);
        assert.deepEqual(keys(r.outputs), ["programmatic/structured", "user/structured"]);
      });
      it("each output's audience and format come from its selector", async () => {
        const requested = [sel("user", "structured"), sel("assistant", "structured"), sel("assistant", "content")];
        const r = (await call("search_customers", { query: "Globex" }, requested)).result;
        for (const o of r.outputs) {
          assert.ok(requested.some((s) => s.audience === o.audience && s.format === o.format));
          assert.equal(
            o.format === "content"
              ? "content" in o && !("structuredContent" in o)
              : "structuredContent" in o && !("content" in o),
            true,
          );
        }
      });
      it("structured outputs validate against their own variant schema", async () => {
        const all = [
          sel("assistant", "structured"),
          sel("programmatic", "structured"),
          sel("user", "structured"),
          sel(UI, "structured"),
        ];
        const r = (await call("search_customers", { query: "enterprise" }, all, APPS_CAPS)).result;
        for (const o of r.outputs)
          assert.ok(
            valid(variantSchema("search_customers", `${o.audience}/${o.format}`), o.structuredContent),
            o.audience,
          );
      });
      it("no mirroring: assistant/structured alone has no content output, and content is prose, not JSON", async () => {
        const only = (await call("search_customers", { query: "Globex" }, [sel("assistant", "structured")])).result;
        assert.deepEqual(keys(only.outputs), ["assistant/structured"]);
        const both = (
          await call("search_customers", { query: "Globex" }, [
            sel("assistant", "content"),
            sel("assistant", "structured"),
          ])
        ).result;
        const text = both.outputs.find((o: any) => o.format === "content").content[0].text;
        assert.equal(text, SEP_TEXT);
        assert.throws(() => JSON.parse(text));
      });
      it("absent requestedOutputs returns assistant/content only", async () => {
        const r = (await call("search_customers", { query: "Globex" })).result;
        assert.deepEqual(keys(r.outputs), ["assistant/content"]);
      });
      it("rejects an undeclared selector with -32602 naming it", async () => {
        const r = await call("search_customers", { query: "Globex" }, [sel("user", "content")]);
        assert.equal(r.error?.code, -32602);
        assert.match(r.error!.message, /user\/content/);
      });
      it("answers a repeated selector with one output (the SEP forbids it to the client, not the server)", async () => {
        const r = await call("search_customers", { query: "Globex" }, [
          sel("assistant", "content"),
          sel("assistant", "content"),
        ]);
        assert.deepEqual(keys(r.result.outputs), ["assistant/content"]);
      });
      it("rejects an unnegotiated extension selector with -32602 naming it (negotiation is per request)", async () => {
        const r = await call("search_customers", { query: "Globex" }, [sel(UI, "structured")]);
        assert.equal(r.error?.code, -32602);
        assert.match(r.error!.message, /io\.modelcontextprotocol\/ui\/structured/);
        const ok = await call("search_customers", { query: "Globex" }, [sel(UI, "structured")], APPS_CAPS);
        assert.equal(ok.result.outputs.length, 1);
      });
      it("answers an empty requestedOutputs with no outputs (not a rule of the SEP's to refuse it)", async () => {
        const r = await call("search_customers", { query: "x" }, []);
        assert.equal(r.error, undefined);
        assert.deepEqual(r.result.outputs, []);
      });
      it("rejects malformed requestedOutputs and unknown tools with -32602", async () => {
        assert.equal(
          (await call("search_customers", { query: "x" }, [{ audience: "assistant", format: "text" }])).error?.code,
          -32602,
        );
        const unknown = await call("no_such_tool", {});
        assert.equal(unknown.error?.code, -32602);
        assert.match(unknown.error!.message, /no_such_tool/);
      });
    });

    describe("the assistant text tells only what this call did (routing is the host's)", () => {
      const text = (r: any) => r.result.outputs.find((o: any) => o.audience === "assistant").content[0].text as string;
      it("generate_images: returned for the user only when user/content was requested; never 'shown'", async () => {
        const alone = text(await call("generate_images", { prompt: "x", count: 1, size: "32x32" }));
        assert.match(
          alone,
          /The image itself was not returned by this call \(only this description was requested\)\.$/,
        );
        const both = text(
          await call("generate_images", { prompt: "x", count: 2, size: "32x32" }, [
            sel("assistant", "content"),
            sel("user", "content"),
          ]),
        );
        assert.match(both, /The images were returned in this call's user output\.$/);
        for (const t of [alone, both]) assert.doesNotMatch(t, /shown|displayed/);
      });
    });

    describe("isError outputs per audience", () => {
      it("returns the error output of each requested audience", async () => {
        const r = (
          await call("lookup_order", { orderId: "ord_0000" }, [
            sel("assistant", "content"),
            sel("programmatic", "structured"),
            sel("user", "content"),
          ])
        ).result;
        assert.equal(r.isError, true);
        assert.deepEqual(keys(r.outputs), ["assistant/content", "programmatic/structured", "user/content"]);
        assert.deepEqual(r.outputs.find((o: any) => o.audience === "programmatic").structuredContent, {
          error: { code: "order_not_found", message: "no order with id ord_0000" },
        });
        assert.match(r.outputs.find((o: any) => o.audience === "user").content[0].text, /was not found/);
      });
      it("returns only the requested error outputs it has, and a protocol error when it has none", async () => {
        const some = (
          await call("lookup_order", { orderId: "ord_0000" }, [sel("assistant", "content"), sel("user", "structured")])
        ).result;
        assert.deepEqual(keys(some.outputs), ["assistant/content"]);
        const none = await call("lookup_order", { orderId: "ord_0000" }, [sel("user", "structured")]);
        assert.equal(none.result, undefined);
        assert.equal(none.error?.code, -32603);
      });
      it("succeeds for a known order", async () => {
        const r = (await call("lookup_order", { orderId: "ord_5001" }, [sel("programmatic", "structured")])).result;
        assert.equal(r.isError, undefined);
        assert.equal(r.outputs[0].structuredContent.order.orderId, "ord_5001");
      });
      it("invalid arguments are a tool execution error for the requested audience", async () => {
        const r = (await call("search_customers", { query: "" }, [sel("programmatic", "structured")])).result;
        assert.equal(r.isError, true);
        assert.equal(r.outputs[0].structuredContent.error.code, "invalid_arguments");
      });
    });

    describe("legacy projections", () => {
      it("2026-07-28: requestedOutputs is ignored; content from assistant/content, structuredContent from assistant/structured", async () => {
        const r = (
          await w.modern(
            "tools/call",
            {
              name: "search_customers",
              arguments: { query: "Globex" },
              requestedOutputs: [sel("programmatic", "structured")],
            },
            { version: "2026-07-28" },
          )
        ).result;
        assert.equal(r.resultType, "complete");
        assert.equal("outputs" in r, false);
        // content = assistant/content, then the serialized structuredContent the old versions recommend
        assert.deepEqual(r.content, [
          { type: "text", text: SEP_TEXT },
          { type: "text", text: JSON.stringify(r.structuredContent) },
        ]);
        assert.equal(r.structuredContent.total, 37);
        assert.ok(valid(variantSchema("search_customers", "assistant/structured"), r.structuredContent));
      });
      it("2026-07-28: no outputSchema, no structuredContent; errors keep isError", async () => {
        const img = (
          await w.modern(
            "tools/call",
            { name: "generate_images", arguments: { prompt: "x", count: 1 } },
            { version: "2026-07-28" },
          )
        ).result;
        assert.equal("structuredContent" in img, false);
        assert.equal(
          img.content.some((b: any) => b.type === "image"),
          false,
        );
        const err = (
          await w.modern(
            "tools/call",
            { name: "lookup_order", arguments: { orderId: "nope" } },
            { version: "2026-07-28" },
          )
        ).result;
        assert.equal(err.isError, true);
        assert.match(err.content[0].text, /no order with id nope/);
      });
      it("2026-07-28: a migrated legacy tool keeps its established outputSchema and structuredContent", async () => {
        const r = (
          await w.modern(
            "tools/call",
            { name: "legacy_weather", arguments: { city: "Seattle" } },
            { version: "2026-07-28" },
          )
        ).result;
        assert.equal(r.structuredContent.city, "Seattle");
        assert.match(r.content[0].text, /^Seattle: /);
      });
      it("2025-11-25 (initialize): legacy tools/list and tools/call, requestedOutputs ignored", async () => {
        const legacy = await w.legacy("2025-11-25");
        assert.equal(legacy.initializeResult.protocolVersion, "2025-11-25");
        assert.equal(legacy.initializeResult.serverInfo.name, "mcp-prism-demo");
        assert.match(legacy.initializeResult.instructions, /search_customers/);
        const list = (await legacy.request("tools/list")).result;
        assert.equal("resultType" in list, false);
        const search = list.tools.find((t: any) => t.name === "search_customers");
        assert.equal("outputVariants" in search, false);
        assert.deepEqual(search.outputSchema, variantSchema("search_customers", "assistant/structured"));
        const r = (
          await legacy.request("tools/call", {
            name: "search_customers",
            arguments: { query: "Globex" },
            requestedOutputs: [sel("user", "structured")],
          })
        ).result;
        assert.deepEqual(Object.keys(r).sort(), ["content", "structuredContent"]);
        assert.deepEqual(r.content, [
          { type: "text", text: SEP_TEXT },
          { type: "text", text: JSON.stringify(r.structuredContent) },
        ]);
        const weather = (await legacy.request("tools/call", { name: "legacy_weather", arguments: { city: "Oslo" } }))
          .result;
        assert.equal(weather.structuredContent.city, "Oslo");
        const images = (
          await legacy.request("tools/call", { name: "generate_images", arguments: { prompt: "p", count: 1 } })
        ).result;
        assert.deepEqual(Object.keys(images), ["content"]);
        assert.deepEqual((await legacy.request("ping")).result, {});
        // The 2025-11-25 shapes: no SEP-2549 caching hints, no resultType.
        for (const [method, params] of [
          ["resources/list"],
          ["resources/templates/list"],
          ["resources/read", { uri: "ui://dashboard/index.html" }],
        ] as const) {
          const res = (await legacy.request(method, params)).result;
          assert.ok(res, method);
          for (const k of ["ttlMs", "cacheScope", "resultType"]) assert.equal(k in res, false, `${method} ${k}`);
        }
        for (const k of ["ttlMs", "cacheScope"]) assert.equal(k in list, false, `tools/list ${k}`);
        assert.equal((await legacy.request("resources/read", { uri: "ui://missing" })).error?.code, -32002);
      });
      it("older legacy versions are echoed; an unknown one is answered with 2025-11-25", async () => {
        assert.equal((await w.legacy("2025-06-18")).initializeResult.protocolVersion, "2025-06-18");
        assert.equal((await w.legacy("2099-01-01")).initializeResult.protocolVersion, "2025-11-25");
      });
    });
  });
}
