// The built CLI on the schema-edge fixture: `tools` shows every declined variant, warning and
// unavailable tool with its rule (and exits 1 when a server has no usable tool); `call` shows
// and `call --json` keeps the warnings and the legacy result _meta.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, ROOT, tempDir } from "../helpers/host-fixtures.js";
import { SCHEMA_EDGE } from "../helpers/schema-edge.js";
import { RESULT_META, TASK_INPUT } from "../fixtures/schema-edge-data.js";

function cli(args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: tempDir(),
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, XDG_CONFIG_HOME: tempDir() },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const server = (...args: string[]) => ({
  command: process.execPath,
  args: ["--import", "tsx", SCHEMA_EDGE, ...args],
  cwd: ROOT,
});
function configFile(servers: Record<string, unknown>): string {
  const file = join(tempDir(), "config.json");
  writeFileSync(file, JSON.stringify({ mcpServers: servers, limits: { discoverTimeoutMs: 15000 } }));
  return file;
}

test("tools: declined variants, warnings and unavailable tools with their rules (human and --json)", () => {
  const cfg = configFile({ modern: server("--era", "modern"), old: server("--era", "legacy") });
  const r = cli(["tools", "--config", cfg]);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^modern · protocol 2026-12-01 · 1 tool, 1 unavailable$/m);
  assert.match(
    r.out,
    /^ {4}✗ programmatic\/structured declined \[uncompilable-variant-schema\]: schema does not compile: /m,
  );
  assert.match(r.out, /^ {4}✗ unavailable \[task-required\]: execution\.taskSupport is "required"/m);
  assert.match(r.out, /^ {4}⚠ \[uncompilable-output-schema\] outputSchema does not compile: /m);
  const doc = JSON.parse(cli(["tools", "--json", "--config", cfg]).out);
  const modern = doc.servers.find((s: any) => s.name === "modern");
  const declined = modern.tools.find((t: any) => t.name === "declined_variant");
  assert.deepEqual(
    declined.declined.map((d: any) => [d.audience, d.format, d.rule]),
    [["programmatic", "structured", "uncompilable-variant-schema"]],
  );
  assert.equal(declined.usable, true);
  const task = doc.servers.find((s: any) => s.name === "old").tools.find((t: any) => t.name === "task_only");
  assert.deepEqual(
    {
      usable: task.usable,
      rule: task.unavailable.rule,
      inputSchema: task.inputSchema,
      annotations: task.annotations,
      _meta: task._meta,
      execution: task.execution,
    },
    {
      usable: false,
      rule: "task-required",
      inputSchema: TASK_INPUT,
      annotations: { readOnlyHint: true },
      _meta: { "com.example/owner": "tests" },
      execution: { taskSupport: "required" },
    },
  );
  const bad = doc.servers.find((s: any) => s.name === "old").tools.find((t: any) => t.name === "bad_output_schema");
  assert.deepEqual(
    bad.warnings.map((w: any) => [w.server, w.tool, w.rule]),
    [["old", "bad_output_schema", "uncompilable-output-schema"]],
  );
});

test("tools exits 1 when a server lists tools and none is usable", () => {
  const r = cli(["tools", "--config", configFile({ tasks: server("--era", "legacy", "--only-task") })]);
  assert.equal(r.code, 1);
  assert.match(r.out, /^tasks · protocol 2025-11-25 \(initialize era\) · 0 tools, 1 unavailable$/m);
  assert.match(r.err, /^mcp-prism tools: no usable tool on tasks$/m);
  const json = cli(["tools", "--json", "--config", configFile({ tasks: server("--era", "legacy", "--only-task") })]);
  assert.equal(json.code, 1);
  assert.equal(JSON.parse(json.out).servers[0].tools[0].unavailable.rule, "task-required");
});

test("call: a broken legacy structuredContent is dropped with the reason shown; --json keeps warnings and resultMeta", () => {
  const cfg = configFile({ old: server("--era", "legacy") });
  const human = cli(["call", "breaks_schema", "--config", cfg]);
  assert.equal(human.code, 0, human.err);
  assert.match(
    human.out,
    /^⚠ \[schema-violation\] structuredContent dropped: \/n must be number \(outputSchema\); the content is routed$/m,
  );
  assert.match(human.out, /── program logic · nothing/);
  assert.match(human.out, /^result _meta \(no sink; kept in --json\): com\.example\/trace, io\.example\/cost$/m);
  const doc = JSON.parse(cli(["call", "breaks_schema", "--json", "--config", cfg]).out);
  assert.deepEqual(doc.routed.model, [
    { audience: "assistant", format: "content", content: [{ type: "text", text: "n is seven" }] },
  ]);
  assert.deepEqual(doc.routed.programmatic, []);
  assert.deepEqual(doc.warnings, [
    {
      server: "old",
      tool: "breaks_schema",
      rule: "schema-violation",
      detail: "structuredContent dropped: /n must be number (outputSchema); the content is routed",
    },
  ]);
  assert.deepEqual(doc.resultMeta, RESULT_META);
  const task = cli(["call", "task_only", "--args", '{"topic":"x"}', "--config", cfg]);
  assert.equal(task.code, 1);
  assert.match(task.out, /✗ rejected \[task-required\]/);
});
