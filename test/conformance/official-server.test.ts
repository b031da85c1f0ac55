// The official MCP conformance suite (@modelcontextprotocol/conformance) against the built
// `demo-server --http 0`: the server scenarios that need no suite-specific diagnostic tools.
// At 2026-07-28 every FAILURE must be named in official-baseline.yaml with a reason, and every
// baseline entry must still fail (a fixed one has to leave the file). The legacy path
// (initialize sessions, --spec-version 2025-11-25) has no baseline: nothing may fail.
import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { startHttpServer, type HttpServerProcess } from "../helpers/raw-http.js";
import { judge, parseBaseline, runServerScenario, type BaselineEntry, type ScenarioRun } from "./official-suite.js";

const SPEC = "2026-07-28";
const SCENARIOS = ["server-stateless", "tools-list", "caching", "dns-rebinding-protection", "server-sse-multiple-streams"];
const LEGACY_SPEC = "2025-11-25";
const LEGACY_SCENARIOS = ["server-initialize", "server-session-lifecycle", "ping", "tools-list", "resources-list", "dns-rebinding-protection", "server-sse-multiple-streams", "server-sse-polling"];
const BASELINE_FILE = fileURLToPath(new URL("official-baseline.yaml", import.meta.url));
const baseline = parseBaseline(readFileSync(BASELINE_FILE, "utf8"));

const show = (c: { id: string; status: string; errorMessage?: string }) => `${c.id} ${c.status}: ${(c.errorMessage ?? "").slice(0, 400)}`;

describe("the baseline file", () => {
  it("names only scenarios this test runs, each check once, each with a reason", () => {
    assert.ok(baseline.length > 0);
    const seen = new Set<string>();
    for (const e of baseline) {
      assert.ok(SCENARIOS.includes(e.scenario), `line ${e.line}: ${e.scenario} is not run here`);
      assert.ok(!seen.has(`${e.scenario}:${e.check}`), `line ${e.line}: listed twice`);
      seen.add(`${e.scenario}:${e.check}`);
      assert.ok(e.reason.length >= 20, `line ${e.line}: the reason is too short to be one`);
    }
  });
  it("an entry without a reason, or a whole-scenario entry, is refused", () => {
    assert.throws(() => parseBaseline("server:\n  - caching:sep-2549-ttl-non-negative\n"), /line 2/);
    assert.throws(() => parseBaseline("server:\n  - caching # all of it\n"), /line 2/);
  });
  it("the judgement catches an unexpected failure and a stale entry", () => {
    const entry = (check: string): BaselineEntry => ({ scenario: "caching", check, reason: "r", line: 1 });
    const run: ScenarioRun = {
      scenario: "caching",
      code: 1,
      output: "",
      checks: [
        { id: "a", status: "FAILURE" },
        { id: "b", status: "SUCCESS" },
        { id: "c", status: "FAILURE" },
        { id: "c", status: "SUCCESS" },
      ],
    };
    const j = judge(run, [entry("b"), entry("c"), entry("gone")]);
    assert.deepEqual(j.unexpected.map((c) => c.id), ["a"]);
    assert.deepEqual(j.stale.map((s) => [s.entry.check, s.status]), [["b", "SUCCESS"], ["gone", "absent"]]);
  });
});

describe("official conformance suite (server) against demo-server --http", () => {
  let srv: HttpServerProcess;
  before(async () => {
    srv = await startHttpServer();
  });
  after(() => srv.close());

  for (const scenario of SCENARIOS) {
    it(scenario, async () => {
      const run = await runServerScenario(srv.url, scenario, SPEC);
      assert.ok(run.checks.length > 0, `${scenario}: no checks ran\n${run.output.slice(-2000)}`);
      const { unexpected, stale } = judge(run, baseline);
      const problems = [
        ...unexpected.map((c) => `unexpected failure ${show(c)}`),
        ...stale.map((s) => `baseline line ${s.entry.line} (${s.entry.check}) no longer fails (${s.status}): remove it`),
      ];
      assert.deepEqual(problems, [], `${scenario}:\n${problems.join("\n")}`);
    });
  }

  for (const scenario of LEGACY_SCENARIOS) {
    it(`${scenario} (${LEGACY_SPEC}, initialize sessions)`, async () => {
      const run = await runServerScenario(srv.url, scenario, LEGACY_SPEC);
      assert.ok(run.checks.length > 0, `${scenario}: no checks ran\n${run.output.slice(-2000)}`);
      const failed = run.checks.filter((c) => c.status === "FAILURE").map(show);
      assert.deepEqual(failed, [], `${scenario}:\n${failed.join("\n")}`);
    });
  }
});
