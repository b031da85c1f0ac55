// The toolkit in-process: definition-time refusals, server bugs caught before sending (-32603
// naming the variant, also on a real HTTP wire), error-representation rules, fromLegacyTool.
import { describe, it, after } from "node:test";
import assert from "node:assert/strict";
import { DeclarationError } from "../../src/protocol/index.js";
import {
  defineResource,
  defineTool,
  fromLegacyTool,
  serveHttp,
  ToolError,
  ToolkitServer,
  type RequestContext,
} from "../../src/server/index.js";
import { modernMeta } from "../helpers/raw-stdio.js";
import { postModern } from "../helpers/raw-http.js";

const text = (t: string) => [{ type: "text" as const, text: t }];
const ctx = (session?: { version?: string }): RequestContext => ({
  signal: new AbortController().signal,
  notify: async () => {},
  session,
});
const input = { type: "object" as const, properties: { n: { type: "integer" } } };

const brokenTool = defineTool<{ n?: number }, { n: number }>({
  name: "broken",
  description: "programmatic/structured projector violates its schema",
  inputSchema: input,
  outputVariants: [
    { audience: "assistant", format: "content", project: (r) => text(`n=${r.n}`) },
    {
      audience: "programmatic",
      format: "structured",
      schema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"], additionalProperties: false },
      project: (r) => ({ n: String(r.n) }), // wrong type on purpose
    },
    {
      audience: "user",
      format: "content",
      project: () => [{ type: "image", data: "not base64!", mimeType: "image/png" }] as any,
    },
  ],
  run: ({ n }) => ({ n: n ?? 1 }),
});

const failing = defineTool<Record<string, never>, unknown>({
  name: "failing",
  description: "always fails; has error outputs for assistant/content only",
  inputSchema: { type: "object" },
  outputVariants: [
    { audience: "assistant", format: "content", project: () => text("never") },
    { audience: "user", format: "structured", project: () => ({}) },
  ],
  run: () => {
    throw new ToolError("boom", { "assistant/content": text("it went boom") });
  },
});

const server = new ToolkitServer({ info: { name: "toolkit-test", version: "1" }, tools: [brokenTool, failing] });
const callModern = (name: string, requestedOutputs?: object[]) =>
  server.handle(
    "tools/call",
    { name, arguments: {}, ...(requestedOutputs ? { requestedOutputs } : {}), _meta: modernMeta() },
    ctx(),
  );

describe("defineTool refuses invalid declarations", () => {
  it("a tool without assistant/content → DeclarationError", () => {
    assert.throws(
      () =>
        defineTool({
          name: "x",
          description: "d",
          inputSchema: { type: "object" },
          outputVariants: [{ audience: "user", format: "content", project: () => [] }],
          run: () => 1,
        }),
      (e: unknown) =>
        e instanceof DeclarationError &&
        e.rule === "assistant-content-required" &&
        /assistant\/content/.test(e.message),
    );
  });
  it("duplicate variants, programmatic/content, arbitrary audiences and bad schemas are refused", () => {
    const base = { audience: "assistant", format: "content" as const, project: () => [] };
    const cases: [any[], string][] = [
      [[base, base], "duplicate-variant"],
      [[base, { audience: "programmatic", format: "content", project: () => [] }], "disallowed-core-combination"],
      [[base, { audience: "robot", format: "structured", project: () => 1 }], "invalid-audience"],
      [
        [base, { audience: "user", format: "structured", schema: { type: 12 }, project: () => 1 }],
        "invalid-variant-schema",
      ],
    ];
    for (const [outputVariants, rule] of cases) {
      assert.throws(
        () =>
          defineTool({ name: "x", description: "d", inputSchema: { type: "object" }, outputVariants, run: () => 1 }),
        (e: unknown) => e instanceof DeclarationError && e.issues.some((i) => i.rule === rule),
        rule,
      );
    }
  });
  it("a server refuses a tool whose extension audience it does not advertise", () => {
    const appTool = defineTool({
      name: "app",
      description: "d",
      inputSchema: { type: "object" },
      outputVariants: [
        { audience: "assistant", format: "content", project: () => [] },
        { audience: "io.modelcontextprotocol/ui", format: "structured", project: () => ({}) },
      ],
      run: () => 1,
    });
    assert.throws(() => new ToolkitServer({ info: { name: "s", version: "1" }, tools: [appTool] }), DeclarationError);
    assert.doesNotThrow(
      () =>
        new ToolkitServer({
          info: { name: "s", version: "1" },
          tools: [appTool],
          extensions: { "io.modelcontextprotocol/ui": {} },
        }),
    );
  });
});

describe("server bugs are caught before anything is sent", () => {
  it("a structured output failing its variant schema → -32603 naming the variant", async () => {
    await assert.rejects(callModern("broken", [{ audience: "programmatic", format: "structured" }]), (e: any) => {
      assert.equal(e.code, -32603);
      assert.match(e.message, /programmatic\/structured/);
      return true;
    });
    // The valid variant of the same tool is unaffected.
    const ok = await callModern("broken", [{ audience: "assistant", format: "content" }]);
    assert.deepEqual(ok.outputs, [{ audience: "assistant", format: "content", content: text("n=1") }]);
  });
  it("a malformed content block → -32603 naming the variant", async () => {
    await assert.rejects(
      callModern("broken", [{ audience: "user", format: "content" }]),
      (e: any) => e.code === -32603 && /user\/content/.test(e.message),
    );
  });
  it("on the HTTP wire the reply is a JSON-RPC error without any output data", async () => {
    const handle = await serveHttp(server, { port: 0 });
    after(() => handle.close());
    const r = await postModern(handle.url, {
      jsonrpc: "2.0",
      id: 5,
      method: "tools/call",
      params: {
        name: "broken",
        arguments: { n: 7 },
        requestedOutputs: [
          { audience: "assistant", format: "content" },
          { audience: "programmatic", format: "structured" },
        ],
        _meta: modernMeta(),
      },
    });
    assert.equal(r.json.error.code, -32603);
    assert.match(r.json.error.message, /programmatic\/structured/);
    assert.equal("result" in r.json, false);
    assert.equal(r.text.includes("n=7"), false, "not even the valid output was sent");
  });
});

describe("cancellation reaches run() as an abort signal", () => {
  it("closing the HTTP response stream aborts the running tool", async () => {
    let aborted = false;
    const slow = defineTool({
      name: "slow",
      description: "waits for its abort signal",
      inputSchema: { type: "object" },
      outputVariants: [{ audience: "assistant", format: "content", project: () => text("done") }],
      run: async (_args, rc) => {
        await rc.progress(1);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 5000);
          rc.signal.addEventListener("abort", () => {
            aborted = true;
            clearTimeout(timer);
            resolve();
          });
        });
        return {};
      },
    });
    const handle = await serveHttp(new ToolkitServer({ info: { name: "s", version: "1" }, tools: [slow] }), {
      port: 0,
    });
    after(() => handle.close());
    const controller = new AbortController();
    const req = {
      jsonrpc: "2.0" as const,
      id: 1,
      method: "tools/call",
      params: { name: "slow", arguments: {}, _meta: { ...modernMeta(), progressToken: "p" } },
    };
    await assert.rejects(
      postModern(handle.url, req, {}, { signal: controller.signal, onEvent: () => controller.abort() }),
    );
    for (let i = 0; i < 50 && !aborted; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(aborted, true);
  });
});

describe("isError without a representation for the request", () => {
  it("returns the error outputs it has", async () => {
    const r = await callModern("failing", [
      { audience: "assistant", format: "content" },
      { audience: "user", format: "structured" },
    ]);
    assert.deepEqual(r, {
      resultType: "complete",
      outputs: [{ audience: "assistant", format: "content", content: text("it went boom") }],
      isError: true,
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "toolkit-test", version: "1" } },
    });
  });
  it("fails with a protocol-level error instead of empty outputs when it has none", async () => {
    await assert.rejects(
      callModern("failing", [{ audience: "user", format: "structured" }]),
      (e: any) => e.code === -32603 && /user\/structured/.test(e.message),
    );
  });
});

describe("fromLegacyTool applies the SEP's migration inferences", () => {
  const schema = { type: "object", properties: { v: { type: "integer" } }, required: ["v"] };
  const legacyDef = {
    name: "old",
    description: "d",
    inputSchema: { type: "object" as const },
    outputSchema: schema,
    handler: () => ({ content: text("v is 3"), structuredContent: { v: 3 } }),
  };

  it("content → assistant/content, outputSchema → assistant/structured; programmatic only when opted in", () => {
    assert.deepEqual(fromLegacyTool(legacyDef).declaration().outputVariants, [
      { audience: "assistant", format: "content" },
      { audience: "assistant", format: "structured", schema },
    ]);
    const opted = fromLegacyTool({ ...legacyDef, programmatic: true }).declaration().outputVariants;
    assert.deepEqual(
      opted.map((v) => `${v.audience}/${v.format}`),
      ["assistant/content", "assistant/structured", "programmatic/structured"],
    );
    const plain = fromLegacyTool({ ...legacyDef, outputSchema: undefined }).declaration().outputVariants;
    assert.deepEqual(plain, [{ audience: "assistant", format: "content" }]);
  });
  it("legacy eras keep the established outputSchema and structuredContent", async () => {
    const s = new ToolkitServer({
      info: { name: "s", version: "1" },
      tools: [fromLegacyTool({ ...legacyDef, assistantStructured: false })],
    });
    const session = { version: undefined as string | undefined };
    await s.handle("initialize", { protocolVersion: "2025-06-18", capabilities: {} }, ctx(session));
    const list = await s.handle("tools/list", {}, ctx(session));
    assert.deepEqual((list.tools as any[])[0].outputSchema, schema);
    const r = await s.handle("tools/call", { name: "old", arguments: {} }, ctx(session));
    assert.deepEqual(r, {
      content: [...text("v is 3"), { type: "text", text: '{"v":3}' }],
      structuredContent: { v: 3 },
    });
  });
  it("an established legacy outputSchema wins over assistant/structured in the legacy projection", async () => {
    const legacySchema = { type: "object", properties: { legacy: { type: "boolean" } }, required: ["legacy"] };
    const t = defineTool<Record<string, never>, { x: number }>({
      name: "both",
      description: "d",
      inputSchema: { type: "object" },
      outputVariants: [
        { audience: "assistant", format: "content", project: (r) => text(`x=${r.x}`) },
        {
          audience: "assistant",
          format: "structured",
          schema: { type: "object", required: ["x"] },
          project: (r) => ({ x: r.x }),
        },
      ],
      legacy: { outputSchema: legacySchema, structured: () => ({ legacy: true }) },
      run: () => ({ x: 2 }),
    });
    const s = new ToolkitServer({ info: { name: "s", version: "1" }, tools: [t] });
    const list = await s.handle("tools/list", { _meta: modernMeta("2026-07-28") }, ctx());
    assert.deepEqual((list.tools as any[])[0].outputSchema, legacySchema);
    const r = await s.handle("tools/call", { name: "both", arguments: {}, _meta: modernMeta("2026-07-28") }, ctx());
    assert.deepEqual(r.structuredContent, { legacy: true });
    assert.deepEqual(r.content, [...text("x=2"), { type: "text", text: '{"legacy":true}' }]);
  });
});

describe("SEP-2549 caching hints (2026-07-28 CacheableResult)", () => {
  const page = defineResource({
    uri: "ui://t/page.html",
    name: "page",
    mimeType: "text/html",
    read: () => "<p>hi</p>",
    cache: { ttlMs: 0, cacheScope: "private" },
  });
  const meta = { _meta: modernMeta("2026-07-28") };
  it("the server's hint goes on every cacheable result; a resource's own hint on its read", async () => {
    const s = new ToolkitServer({
      info: { name: "t", version: "0" },
      tools: [failing],
      resources: [page],
      cache: { ttlMs: 60_000, cacheScope: "private" },
    });
    for (const method of ["server/discover", "tools/list", "resources/list", "resources/templates/list"]) {
      const r = await s.handle(method, meta, ctx());
      assert.deepEqual([r.ttlMs, r.cacheScope], [60_000, "private"], method);
    }
    const read = await s.handle("resources/read", { ...meta, uri: page.uri }, ctx());
    assert.deepEqual([read.ttlMs, read.cacheScope], [0, "private"]);
  });
  it("an invalid hint is refused when the server or resource is defined", () => {
    assert.throws(
      () =>
        new ToolkitServer({ info: { name: "t", version: "0" }, tools: [], cache: { ttlMs: -1, cacheScope: "public" } }),
      /ttlMs must be a non-negative integer/,
    );
    assert.throws(
      () =>
        new ToolkitServer({
          info: { name: "t", version: "0" },
          tools: [],
          cache: { ttlMs: 1.5, cacheScope: "public" },
        }),
      /ttlMs/,
    );
    assert.throws(
      () => defineResource({ ...page, cache: { ttlMs: 1, cacheScope: "shared" as "public" } }),
      /cacheScope must be "public" or "private"/,
    );
  });
});
