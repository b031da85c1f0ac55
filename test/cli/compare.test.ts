// `mcp-prism compare`: every mode and every legacy profile against the real demo server.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { BIN, tempDir } from "../helpers/host-fixtures.js";
import { LEGACY_PROFILES, MODES } from "../../src/host/types.js";

function cli(args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: tempDir(), encoding: "utf8", timeout: 60_000, env: { ...process.env, XDG_CONFIG_HOME: tempDir(), COLUMNS: "140" } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

test("compare --json: one row per mode (2026-12-01) and per legacy profile (2026-07-28)", () => {
  const r = cli(["compare", "search_customers", "--args", '{"query":"Globex"}', "--json"]);
  assert.equal(r.code, 0, r.err);
  const doc = JSON.parse(r.out);
  assert.deepEqual(doc.modes.map((m: any) => m.label), MODES);
  assert.deepEqual(doc.legacy.map((m: any) => m.label), LEGACY_PROFILES);
  for (const m of doc.modes) assert.equal(m.protocolVersion, "2026-12-01");
  for (const m of doc.legacy) assert.equal(m.protocolVersion, "2026-07-28");
  const mode = (l: string) => doc.modes.find((m: any) => m.label === l);
  assert.equal(mode("code").sinks.model.outputs, 0);
  assert.ok(mode("code").receipt.textBytes > 0);
  assert.ok(mode("code").sinks.programmatic.textBytes > 0);
  assert.ok(mode("app").sinks.app.textBytes > 0);
  assert.equal(mode("chat").sinks.app.outputs, 0);
  assert.equal(mode("minimal").requestedOutputs, null);
  // The same legacy result, read differently: structured-replaces-content puts JSON in the model.
  const prof = (l: string) => doc.legacy.find((m: any) => m.label === l);
  assert.ok(prof("both").sinks.model.textBytes > prof("content-only").sinks.model.textBytes);
  assert.ok(prof("sep").sinks.programmatic.textBytes > 0);
  assert.equal(prof("content-only").sinks.programmatic.outputs, 0);
});

test("compare (human): a table with the four consumers", () => {
  const r = cli(["compare", "generate_images", "--args", '{"prompt":"sunrise","count":2}']);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /│ call\s+│ model\s+│ user\s+│ program logic\s+│ App view\s+│/);
  assert.match(r.out, /mode chat/);
  assert.match(r.out, /2 images/);
  assert.match(r.out, /annotation-audience/);
});
