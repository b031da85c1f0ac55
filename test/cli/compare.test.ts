// `mcp-prism compare`: every mode and every legacy profile against the real demo server.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, ROOT, tempDir } from "../helpers/host-fixtures.js";
import { LEGACY_PROFILES, MODES } from "../../src/host/types.js";

function cli(args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: tempDir(),
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, XDG_CONFIG_HOME: tempDir(), COLUMNS: "140" },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

test("compare --json: one row per mode (2026-12-01) and per legacy profile (2026-07-28)", () => {
  const r = cli(["compare", "search_customers", "--args", '{"query":"Globex"}', "--json"]);
  assert.equal(r.code, 0, r.err);
  const doc = JSON.parse(r.out);
  assert.deepEqual(
    doc.modes.map((m: any) => m.label),
    MODES,
  );
  assert.deepEqual(
    doc.legacy.map((m: any) => m.label),
    LEGACY_PROFILES,
  );
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

// A tool that is not read-only: compare asks first, and runs each distinct request once.
const COUNTING = join(ROOT, "test", "fixtures", "counting-server.ts");
function counting(protocol?: string) {
  const dir = tempDir();
  const count = join(dir, "calls.txt");
  const configFile = join(dir, "config.json");
  writeFileSync(
    configFile,
    JSON.stringify({
      mcpServers: {
        counting: {
          command: process.execPath,
          args: ["--import", "tsx", COUNTING],
          env: { COUNT_FILE: count },
          cwd: ROOT,
        },
      },
    }),
  );
  const run = (...extra: string[]) =>
    cli([
      "compare",
      "append_note",
      "--args",
      '{"text":"hi"}',
      "--config",
      configFile,
      ...(protocol ? ["--protocol", protocol] : []),
      ...extra,
    ]);
  const calls = () => (existsSync(count) ? readFileSync(count, "utf8").split("\n").filter(Boolean).length : 0);
  return { run, calls };
}

test("compare of a tool not marked readOnlyHint: refused without --yes (no terminal to ask), nothing runs", () => {
  const c = counting();
  const r = c.run();
  assert.equal(r.code, 1);
  assert.match(
    r.err,
    /^mcp-prism compare: append_note on counting is not marked readOnlyHint; comparing would run it 4 calls: chat\+structured\+code, app, minimal, and once more at 2026-07-28 for the legacy client profiles\. Pass --yes to run it\.\n$/,
  );
  assert.equal(c.calls(), 0, "the tool never ran");
  const j = c.run("--json");
  assert.equal(JSON.parse(j.out).error.rule, "not-approved");
  assert.equal(c.calls(), 0);
});

test("compare --yes runs each distinct request once (2026-12-01: 3 mode requests + 1 at 2026-07-28)", () => {
  const c = counting();
  const r = c.run("--yes", "--json");
  assert.equal(r.code, 0, r.err);
  const doc = JSON.parse(r.out);
  assert.equal(c.calls(), 4, "one wire call per distinct request");
  assert.equal(doc.calls, 4);
  assert.deepEqual(
    doc.modes.map((m: any) => [m.label, m.sameCallAs ?? null]),
    [
      ["chat", null],
      ["structured", "chat"],
      ["code", "chat"],
      ["app", null],
      ["minimal", null],
    ],
  );
  assert.equal(doc.legacy.length, LEGACY_PROFILES.length);
});

test("compare --yes on a legacy-era server: one call answers every mode and every client profile", () => {
  const c = counting("2025-11-25");
  const r = c.run("--yes", "--json");
  assert.equal(r.code, 0, r.err);
  const doc = JSON.parse(r.out);
  assert.equal(c.calls(), 1);
  assert.equal(doc.calls, 1);
  assert.equal(doc.modes.length, MODES.length);
  assert.deepEqual(
    doc.legacy.map((m: any) => m.protocolVersion),
    LEGACY_PROFILES.map(() => "2025-11-25"),
  );
});
