// `mcp-prism tools`: eras, declared variants and schemas, rejected tools.
import { test } from "node:test";
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

test("tools --json lists the demo's variants; --mode app shows the App variants", () => {
  const chat = JSON.parse(cli(["tools", "--json"]).out);
  const demo = chat.servers[0];
  assert.equal(demo.name, "demo");
  assert.equal(demo.era, "2026-12-01");
  const search = demo.tools.find((t: any) => t.name === "search_customers");
  const keys = search.variants.map((v: any) => `${v.audience}/${v.format}`);
  assert.ok(keys.includes("programmatic/structured") && !keys.includes("io.modelcontextprotocol/ui/structured"));
  const app = JSON.parse(cli(["tools", "--mode", "app", "--json"]).out);
  const appSearch = app.servers[0].tools.find((t: any) => t.name === "search_customers");
  assert.ok(appSearch.variants.some((v: any) => v.audience === "io.modelcontextprotocol/ui" && v.schema));
  assert.equal(app.servers[0].tools.find((t: any) => t.name === "refresh_dashboard").appOnly, true);
});

test("tools shows the era per server, rejected tools with reasons, and legacy inference", () => {
  const dir = tempDir();
  writeFileSync(
    join(dir, "mcp-prism.json"),
    JSON.stringify({
      mcpServers: {
        fx: { command: process.execPath, args: ["--import", "tsx", "test/fixtures/misbehaving-server.ts"], cwd: ROOT },
        old: {
          command: process.execPath,
          args: ["--import", "tsx", "test/fixtures/misbehaving-server.ts", "--era", "legacy"],
          cwd: ROOT,
        },
      },
      limits: { discoverTimeoutMs: 15000 },
    }),
  );
  const r = cli(["tools", "--config", "mcp-prism.json"], dir);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^fx · protocol 2026-12-01 · 11 tools, 2 rejected$/m);
  assert.match(
    r.out,
    /✗ no_variants rejected \[missing-output-variants\]: server fx, tool no_variants: no outputVariants under protocol 2026-12-01/,
  );
  assert.match(r.out, /^old · protocol 2025-11-25 \(initialize era\) · 11 tools$/m);
  assert.match(r.out, /\(inferred from the legacy shape\)  outputSchema: object "CustomerPage" \{items\}/);
  // Both servers offer the same names: qualified as server__tool.
  assert.match(r.out, /^  fx__good \(good\)$/m);
  const doc = JSON.parse(cli(["tools", "--config", "mcp-prism.json", "--server", "old", "--json"], dir).out);
  assert.equal(doc.servers.length, 1);
  assert.equal(doc.servers[0].tools[0].qualifiedName, "good", "no clash with one server");
});

test("tools shows each tool's first description line and its arguments, in every era (34, polish)", () => {
  const dir = tempDir();
  for (const protocol of ["2026-12-01", "2025-11-25"]) {
    const r = cli(["tools", "--protocol", protocol], dir);
    assert.equal(r.code, 0, r.err);
    assert.match(
      r.out,
      /^ {2}search_customers\n {4}Search the customer directory by name word prefix[^\n]*…\n {4}args: query, cursor\?, limit\?$/m,
      protocol,
    );
    assert.match(r.out, /^ {2}refresh_dashboard {2}\[App-only\]\n[^\n]*\n {4}args: none$/m, protocol);
  }
});
