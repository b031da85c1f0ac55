// `mcp-prism resources` and `mcp-prism read` through the built CLI: server-everything (legacy
// era) over stdio and over Streamable HTTP, and the bundled demo server (modern era): listing
// with templates, text printed, a blob saved with --out, --json documents, and failures as one
// line with exit 1.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, tempDir } from "../helpers/host-fixtures.js";
import { EVERYTHING, startEverythingHttp } from "../helpers/real-servers.js";

function cli(args: string[], cwd = tempDir()) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: "utf8",
    timeout: 90_000,
    env: { ...process.env, XDG_CONFIG_HOME: tempDir() },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function configWith(servers: Record<string, unknown>): string {
  const file = join(tempDir(), "mcp-prism.json");
  writeFileSync(file, JSON.stringify({ mcpServers: servers }));
  return file;
}

const BLOB_URI = "demo://resource/dynamic/blob/3";
const TEXT_URI = "demo://resource/dynamic/text/3";

function everythingChecks(config: () => string) {
  test("resources lists the static resources and both templates", () => {
    const r = cli(["resources", "--config", config()]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^everything · \d+ resources, 2 templates$/m);
    assert.match(
      r.out,
      /^  demo:\/\/resource\/static\/document\/architecture\.md  architecture\.md \(text\/markdown\)$/m,
    );
    assert.match(r.out, /^  demo:\/\/resource\/dynamic\/blob\/\{resourceId\}  Dynamic Blob Resource \(template\)$/m);
    const doc = JSON.parse(cli(["resources", "--config", config(), "--json"]).out);
    assert.equal(doc.servers[0].server, "everything");
    assert.ok(doc.servers[0].templates.some((t: any) => t.uriTemplate === "demo://resource/dynamic/text/{resourceId}"));
  });

  test("read prints a text resource; --json is {server, uri, contents}", () => {
    const r = cli(["read", TEXT_URI, "--config", config()]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^Resource 3: This is a plaintext resource created at /);
    const doc = JSON.parse(cli(["read", TEXT_URI, "--config", config(), "--json"]).out);
    assert.deepEqual(Object.keys(doc), ["server", "uri", "contents"]);
    assert.equal(doc.server, "everything");
    assert.equal(doc.contents[0].mimeType, "text/plain");
  });

  test("a blob is one line without --out, and saved whole (mode 0600) with it", () => {
    const shown = cli(["read", BLOB_URI, "--config", config()]);
    assert.equal(shown.code, 0, shown.err);
    assert.match(shown.out, /^\[blob text\/plain, \d+ B: save it with --out FILE\]$/m);
    const file = join(tempDir(), "blob.bin");
    const saved = cli(["read", BLOB_URI, "--config", config(), "--out", file]);
    assert.equal(saved.code, 0, saved.err);
    assert.equal(saved.out, "");
    assert.match(saved.err, /saved \d+ B to /);
    // The blob's bytes decoded (its text carries a timestamp: each read differs).
    assert.equal(`saved ${statSync(file).size} B`, /saved (\d+ B)/.exec(saved.err)?.[0]);
    assert.match(readFileSync(file, "utf8"), /^Resource 3: This is a base64 blob/);
    assert.equal(statSync(file).mode & 0o777, 0o600);
  });

  test("an unknown resource: one line naming server and URI, exit 1", () => {
    const r = cli(["read", "demo://nope", "--config", config()]);
    assert.equal(r.code, 1);
    assert.match(
      r.err,
      /^mcp-prism read: server everything, resource demo:\/\/nope: error -32602: Resource demo:\/\/nope not found\n$/,
    );
    const doc = JSON.parse(cli(["read", "demo://nope", "--config", config(), "--json"]).out);
    assert.equal(doc.error.rule, "rpc-error");
  });
}

describe("server-everything over stdio", () => {
  const file = configWith({ everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } });
  everythingChecks(() => file);
});

describe("server-everything over Streamable HTTP", () => {
  let http: Awaited<ReturnType<typeof startEverythingHttp>>;
  let file = "";
  before(async () => {
    http = await startEverythingHttp();
    file = configWith({ everything: { url: http.url } });
  });
  after(() => http.stop());
  everythingChecks(() => file);
});

test("the demo server (modern era) lists its ui:// resource, its customers and their template, and reads them", () => {
  const doc = JSON.parse(cli(["resources", "--json"]).out);
  const uris: string[] = doc.servers[0].resources.map((r: any) => r.uri);
  assert.equal(uris[0], "ui://dashboard/index.html");
  assert.ok(uris.includes("customers://cust_1005"), uris.slice(0, 5).join(", "));
  assert.ok(
    doc.servers[0].templates.some((t: any) => t.uriTemplate === "customers://{id}"),
    JSON.stringify(doc.servers[0].templates),
  );
  const customer = JSON.parse(cli(["read", "customers://cust_1005", "--json"]).out);
  assert.equal(customer.server, "demo");
  assert.match(customer.contents[0].text, /cust_1005/);
  const read = JSON.parse(cli(["read", "ui://dashboard/index.html", "--json"]).out);
  assert.equal(read.server, "demo");
  assert.match(read.contents[0].text, /<html/i);
});

test("usage: read needs a URI (exit 2)", () => {
  const r = cli(["read"]);
  assert.equal(r.code, 2);
  assert.equal(r.err, "mcp-prism read: missing the resource URI\n");
});
