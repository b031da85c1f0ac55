// Untrusted schemas and deep JSON through the built CLI (`call`, `tools`): catastrophic patterns
// match in linear time (the call answers, it does not hang), a pattern RE2 cannot run is declined,
// a value, declaration, $ref or argument object past limits.maxJsonDepth gets rule too-deep, and
// listing compiles no schema. Every call has a 20 s kill timer: a hang is a failure, not a wait.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, tempDir } from "../helpers/host-fixtures.js";
import { schemaBomb } from "../helpers/schema-bomb.js";

function configFile(era: "modern" | "legacy", limits: Record<string, number> = {}): string {
  const s = schemaBomb(era);
  const file = join(tempDir(), `bomb-${era}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      mcpServers: { bomb: { command: s.command, args: s.args, cwd: s.cwd } },
      limits: { callTimeoutMs: 15_000, ...limits },
    }),
  );
  return file;
}

function cli(args: string[]): Promise<{ code: number | null; out: string; err: string; killed: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: tempDir(),
      env: { ...process.env, XDG_CONFIG_HOME: tempDir() },
    });
    let out = "";
    let err = "";
    let killed = false;
    child.stdout.on("data", (c) => (out += c));
    child.stderr.on("data", (c) => (err += c));
    const timer = setTimeout(() => ((killed = true), child.kill("SIGKILL")), 20_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, out, err, killed });
    });
  });
}

async function callJson(config: string, tool: string, extra: string[] = []): Promise<Record<string, any>> {
  const r = await cli(["call", tool, "--config", config, "--json", ...extra]);
  assert.equal(r.killed, false, `call ${tool} hung`);
  return JSON.parse(r.out);
}

const DEEP_ARGS = '{"a":'.repeat(5000) + "1" + "}".repeat(5000);

describe("2026-12-01 variants", { concurrency: 4 }, () => {
  const config = configFile("modern");
  test("a catastrophic pattern (^([a-zA-Z0-9]+)*@x\\.com$) on a 41-character value: schema-violation at once", async () => {
    const doc = await callJson(config, "redos_variant", ["--select", "programmatic/structured"]);
    assert.equal(doc.error?.rule, "schema-violation");
    assert.match(doc.error.message, /\/email must match pattern/);
  });
  test("a pattern with lookahead makes the variant declined (never run by a backtracking engine)", async () => {
    const doc = await callJson(config, "lookahead_variant", ["--select", "programmatic/structured"]);
    assert.equal(doc.error?.rule, "declined-variant");
    assert.match(doc.error.message, /not supported .*linear-time engine.*\[uncompilable-variant-schema\]/);
  });
  test('{"$ref": "#"} fails the call with too-deep instead of overflowing', async () => {
    const doc = await callJson(config, "ref_loop", ["--select", "programmatic/structured"]);
    assert.equal(doc.error?.rule, "too-deep");
    assert.match(doc.error.message, /\$ref recursion does not descend/);
  });
  test("structuredContent nested 10,000 levels is rejected whole with too-deep", async () => {
    const doc = await callJson(config, "deep_result", ["--select", "programmatic/structured"]);
    assert.equal(doc.error?.rule, "too-deep");
    assert.match(
      doc.error.message,
      /server bomb, tool deep_result: .*goes deeper than 100 levels \(limits\.maxJsonDepth\)/,
    );
  });
  test("arguments nested 5,000 levels are not sent (too-deep); a lower limits.maxJsonDepth is obeyed", async () => {
    const doc = await callJson(config, "echo", ["--args", DEEP_ARGS]);
    assert.equal(doc.error?.rule, "too-deep");
    assert.match(doc.error.message, /the arguments .* not sent/);
    const strict = configFile("modern", { maxJsonDepth: 5 });
    const deep6 = await callJson(strict, "echo", ["--args", '{"a":{"b":{"c":{"d":{"e":{"f":1}}}}}}']);
    assert.equal(deep6.error?.rule, "too-deep");
    assert.match(deep6.error.message, /deeper than 5 levels/);
    const deep5 = await callJson(strict, "echo", ["--args", '{"a":{"b":{"c":{"d":{"e":1}}}}}']);
    assert.equal(deep5.error, undefined, JSON.stringify(deep5.error));
    const fine = await callJson(config, "echo", ["--args", '{"a":{"b":{"c":1}}}']);
    assert.equal(fine.error, undefined, JSON.stringify(fine.error));
  });
  test("tools: an inputSchema nested 10,000 levels is rejected with too-deep (not offered); the other tools are listed", async () => {
    const r = await cli(["tools", "--config", config]);
    assert.equal(r.killed, false);
    assert.match(
      r.out,
      /✗ deep_input rejected \[too-deep\]: server bomb, tool deep_input: nesting in the declaration goes deeper than 100 levels/,
    );
    assert.match(r.out, /lookahead_variant[\s\S]*declined \[uncompilable-variant-schema\]/);
    for (const t of ["redos_variant", "ref_loop", "deep_result", "echo"])
      assert.match(r.out, new RegExp(`^  ${t}$`, "m"));
  });
});

describe("legacy outputSchema", { concurrency: 4 }, () => {
  const config = configFile("legacy");
  test("a catastrophic pattern (^(a+)+$) on a 41-character value: structuredContent dropped with a warning, content routed", async () => {
    const doc = await callJson(config, "redos_legacy");
    assert.equal(doc.error, undefined);
    assert.deepEqual(
      doc.warnings?.map((w: { rule: string }) => w.rule),
      ["schema-violation"],
    );
  });
  test("structuredContent nested 10,000 levels is rejected whole with too-deep", async () => {
    const doc = await callJson(config, "deep_result");
    assert.equal(doc.error?.rule, "too-deep");
  });
});

test("a config nested deeper than the limit is refused with one line naming the file and the rule", async () => {
  const file = join(tempDir(), "deep.json");
  writeFileSync(file, `{"mcpServers":{},"x":${"[".repeat(5000)}${"]".repeat(5000)}}`);
  const r = await cli(["tools", "--config", file]);
  assert.notEqual(r.code, 0);
  assert.match(r.err, /deep\.json: nests deeper than 100 levels \[too-deep\]/);
  assert.equal(r.err.trim().split("\n").length, 1, r.err);
});
