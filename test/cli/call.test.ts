// `mcp-prism call` end to end: the built CLI against the real demo server and the fixture.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, ROOT, tempDir } from "../helpers/host-fixtures.js";

function cli(args: string[], cwd = tempDir()) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, XDG_CONFIG_HOME: tempDir() },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}
function fixtureConfig(): string {
  const file = join(tempDir(), "fx.json");
  writeFileSync(
    file,
    JSON.stringify({
      mcpServers: {
        fx: { command: process.execPath, args: ["--import", "tsx", "test/fixtures/misbehaving-server.ts"], cwd: ROOT },
      },
      limits: { discoverTimeoutMs: 15000 },
    }),
  );
  return file;
}
const KEYS = ["server", "tool", "protocolVersion", "requestedOutputs", "isError", "routed"];

describe("call --json", () => {
  test("prints exactly one document of the documented shape (built-in demo config)", () => {
    const r = cli(["call", "search_customers", "--args", '{"query":"Globex"}', "--json"]);
    assert.equal(r.code, 0, r.err);
    const lines = r.out.trim().split("\n");
    assert.equal(lines.length, 1, "one document on one line");
    const doc = JSON.parse(lines[0]);
    assert.deepEqual(Object.keys(doc), [...KEYS, "sizes"]);
    assert.deepEqual(Object.keys(doc.routed), ["model", "user", "programmatic", "app"]);
    assert.equal(doc.server, "demo");
    assert.equal(doc.protocolVersion, "2026-12-01");
    assert.deepEqual(doc.requestedOutputs, [
      { audience: "assistant", format: "content" },
      { audience: "user", format: "structured" },
    ]);
    for (const e of [...doc.routed.model, ...doc.routed.user]) {
      assert.deepEqual(
        Object.keys(e).sort(),
        e.format === "content" ? ["audience", "content", "format"] : ["audience", "format", "structuredContent"],
      );
    }
  });

  test("app mode adds appMeta; --select overrides the mode", () => {
    const app = JSON.parse(
      cli(["call", "search_customers", "--args", '{"query":"Globex"}', "--mode", "app", "--json"]).out,
    );
    assert.deepEqual(Object.keys(app), [...KEYS, "appMeta", "sizes"]);
    assert.ok(app.appMeta["io.modelcontextprotocol/ui"]);
    const sel = cli([
      "call",
      "search_customers",
      "--args",
      '{"query":"Globex"}',
      "--select",
      "programmatic/structured",
      "--select",
      "assistant/structured",
      "--json",
    ]);
    const doc = JSON.parse(sel.out);
    assert.deepEqual(doc.requestedOutputs, [
      { audience: "programmatic", format: "structured" },
      { audience: "assistant", format: "structured" },
    ]);
    assert.equal(doc.routed.programmatic.length, 1);
    assert.equal(doc.routed.model[0].format, "structured");
  });

  test("a legacy-era result says which wire field was read for which sink (no outputs were on the wire)", () => {
    const doc = JSON.parse(
      cli(["call", "search_customers", "--args", '{"query":"Globex"}', "--protocol", "2026-07-28", "--json"]).out,
    );
    assert.equal(doc.requestedOutputs, null);
    assert.deepEqual(doc.legacyFields, { content: "model", structuredContent: "programmatic" });
    const modern = JSON.parse(cli(["call", "search_customers", "--args", '{"query":"Globex"}', "--json"]).out);
    assert.equal(modern.legacyFields, undefined);
  });

  test("an isError result is still a routed result: exit 0", () => {
    const r = cli(["call", "lookup_order", "--args", '{"orderId":"nope"}', "--json"]);
    assert.equal(r.code, 0);
    assert.equal(JSON.parse(r.out).isError, true);
  });

  test("a refused selection: exit 1 with the error in the document", () => {
    const r = cli([
      "call",
      "generate_images",
      "--args",
      '{"prompt":"x"}',
      "--select",
      "programmatic/structured",
      "--json",
    ]);
    assert.equal(r.code, 1);
    const doc = JSON.parse(r.out);
    assert.deepEqual(Object.keys(doc), [...KEYS, "error"]);
    assert.equal(doc.error.rule, "undeclared-selector");
  });

  test("a validation error from a misbehaving server: exit 1, named rule, nothing routed", () => {
    const r = cli(["call", "duplicate_output", "--config", fixtureConfig(), "--json"]);
    assert.equal(r.code, 1, r.err);
    const doc = JSON.parse(r.out);
    assert.equal(doc.error.rule, "duplicate-output");
    assert.deepEqual(doc.routed, { model: [], user: [], programmatic: [], app: [] });
  });

  test("a connection error: exit 1, one line naming the server", () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, "mcp-prism.json"),
      JSON.stringify({ mcpServers: { broken: { command: join(dir, "no-such-binary") } } }),
    );
    const r = cli(["call", "anything", "--config", "mcp-prism.json"], dir);
    assert.equal(r.code, 1);
    assert.match(r.err, /^mcp-prism call: server broken: .*ENOENT/);
    assert.equal(r.err.trim().split("\n").length, 1);
    const j = cli(["call", "anything", "--config", "mcp-prism.json", "--json"], dir);
    assert.equal(j.code, 1);
    const { error } = JSON.parse(j.out);
    assert.equal(error.rule, "connection-failed");
    // The error as data: the server by name, the detail without it, and the same one line.
    assert.equal(error.server, "broken");
    assert.match(error.detail, /^spawn .*ENOENT/);
    assert.equal(`mcp-prism call: ${error.message}\n`, r.err);
  });

  test("a bad config: exit 1, the config's one-line message", () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, "mcp-prism.json"),
      JSON.stringify({ mcpServers: { demo: { command: "node", args: "x" } } }),
    );
    const r = cli(["call", "x"], dir);
    assert.equal(r.code, 1);
    assert.equal(r.err, "mcp-prism call: mcp-prism.json: mcpServers.demo.args: expected array of strings\n");
  });
});

describe("call usage errors: exit 2, one clear line", () => {
  const cases: [string[], RegExp][] = [
    [["call", "x", "--bogus"], /^mcp-prism call: unknown option --bogus\n$/],
    [["call", "x", "--args", "{nope"], /^mcp-prism call: --args: invalid JSON \(.+\)\n$/],
    [["call", "x", "--args", "[1]"], /^mcp-prism call: --args: expected a JSON object\n$/],
    [["call"], /^mcp-prism call: missing the tool name\n$/],
    [["call", "x", "--select", "assistant"], /^mcp-prism call: --select: expected audience\/format/],
    [["call", "x", "--mode", "turbo"], /^mcp-prism call: --mode: expected one of chat, structured, code, app, minimal/],
    [["call", "x", "--protocol", "1999-01-01"], /^mcp-prism call: --protocol: expected one of 2026-12-01/],
    [["call", "x", "--args"], /^mcp-prism call: option --args needs a value\n$/],
  ];
  for (const [args, re] of cases) {
    test(args.join(" "), () => {
      const r = cli(args);
      assert.equal(r.code, 2);
      assert.match(r.err, re);
      assert.equal(r.out, "");
    });
  }
});

describe("call human output", () => {
  test("shows each sink's share", () => {
    const r = cli(["call", "search_customers", "--args", '{"query":"Globex"}', "--mode", "code"]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /search_customers on demo \(protocol 2026-12-01, mode code\)/);
    assert.match(r.out, /── model · host receipt only · \d+ B ≈ \d+ tokens/);
    assert.match(r.out, /── program logic · [\d.]+ k?B ≈ \d+ tokens/);
    assert.match(r.out, /── user · nothing/);
    assert.match(r.out, /── App view · nothing/);
  });
  test("a rejected result says nothing was routed", () => {
    const r = cli(["call", "extra_output", "--config", fixtureConfig(), "--select", "assistant/content"]);
    assert.equal(r.code, 1);
    assert.match(r.out, /✗ rejected \[unrequested-output\]/);
    assert.match(r.out, /nothing was routed/);
  });
});
