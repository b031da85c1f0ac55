// The toolkit's client features in-process (ToolkitServer.handle): pagination, resource
// templates, blobs, prompts, completion, capability advertisement, logging/setLevel, and MRTR
// (several rounds, earlier answers carried in the signed state, -32021 for an undeclared
// capability, missing answers asked again, extra keys ignored). The real-wire behaviour of the
// same paths is in client-input.test.ts, logging.test.ts and the official suite.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  definePrompt,
  defineResource,
  defineResourceTemplate,
  defineTool,
  RpcError,
  ToolkitServer,
  type RequestContext,
} from "../../src/server/index.js";
import { modernMeta } from "../helpers/raw-stdio.js";

const text = (t: string) => [{ type: "text" as const, text: t }];
const ctx = (session?: RequestContext["session"], request?: RequestContext["request"]): RequestContext => ({
  signal: new AbortController().signal,
  notify: async () => {},
  session,
  request,
});
const env = (caps: Record<string, unknown> = {}, version = "2026-07-28") => ({ _meta: modernMeta(version, caps) });
const fails = async (p: Promise<unknown>, code: number, re: RegExp) => {
  await assert.rejects(p, (e: unknown) => e instanceof RpcError && e.code === code && re.test(e.message));
};

const interview = defineTool<Record<string, never>, string>({
  name: "interview",
  description: "three rounds: name, then color, then a sampled line",
  inputSchema: { type: "object" },
  outputVariants: [{ audience: "assistant", format: "content", project: (t) => text(t) }],
  async run(_a, c) {
    const schema = (k: string) => ({ type: "object", properties: { [k]: { type: "string" } }, required: [k] });
    const name = (await c.elicit("name", { message: "Name?", requestedSchema: schema("name") })).content?.name;
    const color = (await c.elicit("color", { message: "Color?", requestedSchema: schema("color") })).content?.color;
    const line = await c.sample("line", {
      messages: [{ role: "user", content: { type: "text", text: `${name} ${color}` } }],
      maxTokens: 20,
    });
    return `${name}/${color}/${(line.content as { text: string }).text} (round ${c.round})`;
  },
});

const many = Array.from({ length: 5 }, (_, i) =>
  defineResource({ uri: `test://r/${i}`, name: `r${i}`, mimeType: "text/plain", read: () => `r${i}` }),
);
const server = new ToolkitServer({
  info: { name: "t", version: "0" },
  tools: [interview],
  pageSize: 2,
  resources: many,
  resourceTemplates: [
    defineResourceTemplate({
      uriTemplate: "test://items/{id}/bytes",
      name: "bytes",
      mimeType: "application/octet-stream",
      read: ({ id }) => (id === "none" ? undefined : { blob: new Uint8Array([1, 2, 3, id.length]) }),
      complete: { id: (v) => Array.from({ length: 150 }, (_, i) => `id${i}`).filter((x) => x.startsWith(v)) },
    }),
  ],
  prompts: [
    definePrompt({
      name: "greet",
      arguments: [{ name: "who", required: true }, { name: "style" }],
      complete: { who: (v) => ["ada", "alan", "grace"].filter((x) => x.startsWith(v)) },
      get: ({ who, style }) => ({
        messages: [{ role: "user", content: { type: "text", text: `Hello ${who}${style ? ` (${style})` : ""}` } }],
      }),
    }),
  ],
});

describe("lists, reads and completion", () => {
  it("resources/list pages through every resource with opaque cursors; a foreign cursor is -32602", async () => {
    const seen: string[] = [];
    let cursor: unknown;
    let pages = 0;
    do {
      const r = await server.handle("resources/list", { ...env(), ...(cursor ? { cursor } : {}) }, ctx());
      seen.push(...(r.resources as { uri: string }[]).map((x) => x.uri));
      cursor = r.nextCursor;
      pages++;
    } while (cursor);
    assert.deepEqual(
      seen,
      many.map((r) => r.uri),
    );
    assert.equal(pages, 3);
    await fails(server.handle("resources/list", { ...env(), cursor: "bm90IG1pbmU" }, ctx()), -32602, /Invalid cursor/);
  });
  it("a template reads blobs as base64, decodes its variables, and says not found for nothing there", async () => {
    const r = await server.handle("resources/read", { ...env(), uri: "test://items/a%20b/bytes" }, ctx());
    assert.deepEqual(r.contents, [
      {
        uri: "test://items/a%20b/bytes",
        mimeType: "application/octet-stream",
        blob: Buffer.from([1, 2, 3, 3]).toString("base64"),
      },
    ]);
    await fails(
      server.handle("resources/read", { ...env(), uri: "test://items/none/bytes" }, ctx()),
      -32602,
      /Resource not found/,
    );
    await fails(
      server.handle("resources/read", { ...env(), uri: "test://items/a/b/bytes" }, ctx()),
      -32602,
      /Resource not found/,
    );
  });
  it("completion: at most 100 values with total and hasMore; no completer → no values; unknown refs → -32602", async () => {
    const c = await server.handle(
      "completion/complete",
      {
        ...env(),
        ref: { type: "ref/resource", uri: "test://items/{id}/bytes" },
        argument: { name: "id", value: "id" },
      },
      ctx(),
    );
    assert.deepEqual(
      {
        n: (c.completion as any).values.length,
        total: (c.completion as any).total,
        hasMore: (c.completion as any).hasMore,
      },
      { n: 100, total: 150, hasMore: true },
    );
    const p = await server.handle(
      "completion/complete",
      { ...env(), ref: { type: "ref/prompt", name: "greet" }, argument: { name: "who", value: "a" } },
      ctx(),
    );
    assert.deepEqual(p.completion, { values: ["ada", "alan"], total: 2, hasMore: false });
    const none = await server.handle(
      "completion/complete",
      { ...env(), ref: { type: "ref/prompt", name: "greet" }, argument: { name: "style", value: "" } },
      ctx(),
    );
    assert.deepEqual((none.completion as any).values, []);
    await fails(
      server.handle(
        "completion/complete",
        { ...env(), ref: { type: "ref/prompt", name: "nope" }, argument: { name: "x", value: "" } },
        ctx(),
      ),
      -32602,
      /Unknown prompt/,
    );
    await fails(
      server.handle(
        "completion/complete",
        { ...env(), ref: { type: "ref/prompt", name: "greet" }, argument: { name: "x", value: "" } },
        ctx(),
      ),
      -32602,
      /no argument x/,
    );
  });
  it("prompts/get substitutes arguments; a missing required one or a non-string is -32602", async () => {
    const r = await server.handle(
      "prompts/get",
      { ...env(), name: "greet", arguments: { who: "ada", style: "warm" } },
      ctx(),
    );
    assert.deepEqual(r.messages, [{ role: "user", content: { type: "text", text: "Hello ada (warm)" } }]);
    assert.equal(r.resultType, "complete");
    await fails(
      server.handle("prompts/get", { ...env(), name: "greet", arguments: {} }, ctx()),
      -32602,
      /needs argument who/,
    );
    await fails(
      server.handle("prompts/get", { ...env(), name: "greet", arguments: { who: 5 } }, ctx()),
      -32602,
      /must be a string/,
    );
  });
  it("advertises exactly what it serves: prompts and completions only with some; logging always", async () => {
    assert.deepEqual(Object.keys(server.capabilities).sort(), [
      "completions",
      "logging",
      "prompts",
      "resources",
      "tools",
    ]);
    const bare = new ToolkitServer({ info: { name: "b", version: "0" }, tools: [interview] });
    assert.deepEqual(Object.keys(bare.capabilities).sort(), ["logging", "resources", "tools"]);
    await fails(bare.handle("prompts/list", env(), ctx()), -32601, /prompts\/list/);
    await fails(bare.handle("completion/complete", env(), ctx()), -32601, /completion/);
    const init = await bare.handle("initialize", { protocolVersion: "2025-11-25", capabilities: {} }, ctx({}));
    assert.deepEqual(Object.keys(init.capabilities as object).sort(), ["logging", "resources", "tools"]);
  });
  it("definition-time refusals: a template without variables, completion for an unknown argument", () => {
    assert.throws(() => defineResourceTemplate({ uriTemplate: "test://fixed", name: "x", read: () => "" }), /level-1/);
    assert.throws(
      () =>
        definePrompt({
          name: "p",
          arguments: [{ name: "a" }],
          complete: { b: () => [] },
          get: () => ({ messages: [] }),
        }),
      /not one of its arguments/,
    );
  });
});

describe("MRTR (2026-07-28 and 2026-12-01)", () => {
  const caps = { elicitation: {}, sampling: {} };
  const call = (extra: Record<string, unknown> = {}, c: Record<string, unknown> = caps, version = "2026-07-28") =>
    server.handle("tools/call", { name: "interview", arguments: {}, ...env(c, version), ...extra }, ctx());
  const accept = (k: string, v: string) => ({ action: "accept", content: { [k]: v } });

  for (const version of ["2026-07-28", "2026-12-01"]) {
    it(`${version}: three rounds, each state new, earlier answers carried in the state`, async () => {
      const r1 = await call({}, caps, version);
      assert.equal(r1.resultType, "input_required");
      assert.deepEqual(Object.keys(r1.inputRequests as object), ["name"]);
      // Round 2 answers only `name`; round 3 only `color`: `name` comes back from the state.
      const r2 = await call(
        { inputResponses: { name: accept("name", "Ada") }, requestState: r1.requestState },
        caps,
        version,
      );
      assert.deepEqual(Object.keys(r2.inputRequests as object), ["color"]);
      assert.notEqual(r2.requestState, r1.requestState);
      const r3 = await call(
        { inputResponses: { color: accept("color", "teal") }, requestState: r2.requestState },
        caps,
        version,
      );
      assert.deepEqual(Object.keys(r3.inputRequests as object), ["line"]);
      const line = { role: "assistant", content: { type: "text", text: "hi" }, model: "m" };
      const done = await call(
        { inputResponses: { line, name: accept("name", "Mallory") }, requestState: r3.requestState },
        caps,
        version,
      );
      assert.equal(done.resultType, "complete");
      // `name` in the last retry is not a key the last round asked for: ignored.
      assert.match(JSON.stringify(done), /Ada\/teal\/hi \(round 4\)/);
    });
  }
  it("a missing answer is asked again; an answer without a state is taken at its key", async () => {
    const again = await call({ inputResponses: { wrong_key: accept("x", "y") } });
    assert.equal(again.resultType, "input_required");
    assert.deepEqual(Object.keys(again.inputRequests as object), ["name"]);
    const r = await call({ inputResponses: { name: accept("name", "Ada") } });
    assert.deepEqual(Object.keys(r.inputRequests as object), ["color"]);
  });
  it("asking without the client's capability is -32021 naming it (HTTP 400)", async () => {
    await assert.rejects(
      call({}, {}),
      (e: unknown) =>
        e instanceof RpcError &&
        e.code === -32021 &&
        e.httpStatus === 400 &&
        JSON.stringify(e.data) === '{"requiredCapabilities":{"elicitation":{}}}',
    );
  });
  it("-32021 for sampling once the elicitation rounds are answered", async () => {
    const ecaps = { elicitation: {} };
    const r1 = await call({}, ecaps);
    const r2 = await call({ inputResponses: { name: accept("name", "A") }, requestState: r1.requestState }, ecaps);
    await assert.rejects(
      call({ inputResponses: { color: accept("color", "B") }, requestState: r2.requestState }, ecaps),
      (e: unknown) => e instanceof RpcError && e.code === -32021 && /sampling/.test(e.message),
    );
  });
  it("inputResponses that are not an object, or a requestState that is not a string, are -32602", async () => {
    await fails(call({ inputResponses: "nope" }), -32602, /inputResponses must be an object/);
    await fails(call({ requestState: 5 }), -32602, /requestState/);
  });
});

describe("initialize era", () => {
  it("tools ask through ctx.request, with the capabilities from initialize; no requester is -32603", async () => {
    const session = {};
    await server.handle(
      "initialize",
      { protocolVersion: "2025-11-25", capabilities: { elicitation: {}, sampling: {} } },
      ctx(session),
    );
    const asked: string[] = [];
    const request = async (method: string, params: Record<string, unknown>) => {
      asked.push(`${method}:${String(params.message ?? "")}`);
      if (method === "sampling/createMessage")
        return { role: "assistant", content: { type: "text", text: "ok" }, model: "m" };
      return { action: "accept", content: { name: "Ada", color: "red" } };
    };
    const r = await server.handle("tools/call", { name: "interview", arguments: {} }, ctx(session, request));
    assert.match(JSON.stringify(r.content), /Ada\/red\/ok \(round 1\)/);
    assert.deepEqual(asked, ["elicitation/create:Name?", "elicitation/create:Color?", "sampling/createMessage:"]);
    await fails(
      server.handle("tools/call", { name: "interview", arguments: {} }, ctx(session)),
      -32603,
      /cannot carry requests/,
    );
    const bad = async () => ({ action: "accept", content: "not an object" });
    await fails(
      server.handle("tools/call", { name: "interview", arguments: {} }, ctx(session, bad)),
      -32602,
      /content that is not an object/,
    );
  });
});
