// Resources through the Host (src/host/catalog/resources.ts): listing over pages, templates, reads of
// text and blobs, the modern `_meta` envelope on every request, hostile results refused with a
// rule, and which server a URI is read from. Both eras, in memory (test/fixtures/resource-server.ts);
// server-everything over real stdio.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Host } from "../../src/host/host.js";
import { matchesTemplate } from "../../src/host/catalog/resources.js";
import { config } from "../helpers/host-fixtures.js";
import { memoryServers } from "../helpers/in-memory.js";
import { everythingStdio } from "../helpers/real-servers.js";
import { BLOB, resourceServer, type Json } from "../fixtures/resource-server.js";

for (const era of ["modern", "legacy"] as const) {
  describe(`resources, ${era} era (in memory)`, () => {
    const envelopes: Json[] = [];
    const memory = memoryServers({ res: resourceServer(era, envelopes), other: resourceServer(era) });
    let host: Host;
    before(async () => {
      host = await Host.start({
        config: config(memory.servers),
        transport: memory.transport,
        eraCache: false,
        servers: ["res"],
      });
    });
    after(() => host.close());

    test("lists both pages and the template; a malformed entry is one error, the rest usable", async () => {
      const [l] = await host.resources();
      assert.equal(l.offered, true);
      assert.deepEqual(
        l.resources.map((r) => r.uri),
        ["file:///notes.txt", "file:///dot.bin", "secret://canary"],
      );
      assert.equal(l.resources[0].title, "Notes");
      assert.deepEqual(
        l.templates.map((t) => t.uriTemplate),
        ["items://{id}"],
      );
      assert.deepEqual(
        l.errors.map((e) => e.rule),
        ["malformed-resource"],
      );
      assert.match(l.errors[0].message, /^server res: resources\/list: a resource without a usable uri/);
    });

    test("reads text and blob contents", async () => {
      const text = await host.readResource("file:///notes.txt");
      assert.ok(text.ok);
      assert.deepEqual(text.contents, [{ uri: "file:///notes.txt", mimeType: "text/plain", text: "hello notes" }]);
      const blob = await host.readResource("file:///dot.bin", "res");
      assert.ok(blob.ok);
      assert.deepEqual(blob.contents, [{ uri: "file:///dot.bin", mimeType: "application/octet-stream", blob: BLOB }]);
      const item = await host.readResource("items://7");
      assert.ok(item.ok && "text" in item.contents[0] && item.contents[0].text === "item 7");
    });

    test("hostile or failed reads are errors with a rule; the session goes on", async () => {
      const rules: Record<string, string> = {
        "bad://blob": "malformed-blob",
        "bad://shape": "malformed-result",
        "bad://deep": "too-deep",
        "nope://x": "rpc-error",
      };
      for (const [uri, rule] of Object.entries(rules)) {
        const r = await host.readResource(uri);
        assert.ok(!r.ok, uri);
        assert.equal(r.error.rule, rule, `${uri}: ${r.error.message}`);
        assert.equal(r.error.server, "res");
        assert.ok(r.error.message.startsWith(`server res, resource ${uri}: `), r.error.message);
      }
      assert.ok((await host.readResource("file:///notes.txt")).ok);
    });

    if (era === "modern") {
      test("every resources request carries the _meta envelope", () => {
        const methods = new Set(envelopes.map((e) => e.method));
        for (const m of ["resources/list", "resources/templates/list", "resources/read"]) assert.ok(methods.has(m), m);
        for (const e of envelopes) assert.equal(e._meta["io.modelcontextprotocol/clientInfo"].name, "mcp-prism");
      });
    }
  });
}

describe("which server a URI is read from", () => {
  const memory = memoryServers({ a: resourceServer("modern"), b: resourceServer("legacy") });
  let host: Host;
  before(async () => {
    host = await Host.start({ config: config(memory.servers), transport: memory.transport, eraCache: false });
  });
  after(() => host.close());

  test("two servers offering the URI: ambiguous until one is named; an unknown name is refused", async () => {
    const r = await host.readResource("file:///notes.txt");
    assert.ok(!r.ok);
    assert.equal(r.error.rule, "ambiguous-resource");
    assert.match(r.error.message, /several servers offer file:\/\/\/notes\.txt \(a, b\): name one with --server/);
    const named = await host.readResource("file:///notes.txt", "b");
    assert.ok(named.ok && named.server === "b");
    const unknown = await host.readResource("file:///notes.txt", "zz");
    assert.ok(!unknown.ok && unknown.error.rule === "unknown-server");
  });
});

test("matchesTemplate: simple and reserved expansions", () => {
  assert.ok(matchesTemplate("items://{id}", "items://7"));
  assert.ok(!matchesTemplate("items://{id}", "items://7/8"));
  assert.ok(matchesTemplate("files://{+path}", "files://a/b/c"));
  assert.ok(!matchesTemplate("items://{id}", "other://7"));
  assert.ok(matchesTemplate("a.b/{x}", "a.b/y") && !matchesTemplate("a.b/{x}", "aXb/y"));
});

describe("server-everything resources over stdio", () => {
  let host: Host;
  before(async () => {
    host = await Host.start({ config: config({ everything: everythingStdio() }), eraCache: false });
  });
  after(() => host.close());

  test("lists its resources and templates and reads a text and a blob resource", async () => {
    const [l] = await host.resources();
    assert.equal(l.offered, true);
    assert.deepEqual(l.errors, []);
    assert.ok(l.resources.length > 0, "static resources listed");
    assert.ok(
      l.templates.some((t) => t.uriTemplate === "demo://resource/dynamic/text/{resourceId}"),
      JSON.stringify(l.templates),
    );
    const text = await host.readResource("demo://resource/dynamic/text/1");
    assert.ok(text.ok, text.ok ? "" : text.error.message);
    assert.ok("text" in text.contents[0] && text.contents[0].text.startsWith("Resource 1:"));
    const blob = await host.readResource("demo://resource/dynamic/blob/1");
    assert.ok(blob.ok && "blob" in blob.contents[0], JSON.stringify(blob));
  });
});
