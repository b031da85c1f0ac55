// The official MCP conformance suite (@modelcontextprotocol/conformance) against the built
// `demo-server --http 0 --conformance-fixtures` (the demo plus the suite's named fixtures:
// test://static-text, test_simple_prompt, test_input_required_result_*, …, all on the toolkit).
// At 2026-07-28 every FAILURE must be named in official-baseline.yaml with a reason, and every
// baseline entry must still fail (a fixed one has to leave the file). The legacy path
// (initialize sessions, --spec-version 2025-11-25) has no baseline: nothing may fail.
import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { startHttpServer, type HttpServerProcess } from "../helpers/raw-http.js";
import { judge, parseBaseline, runServerSuite, type BaselineEntry, type ScenarioRun } from "./official-suite.js";

const SPEC = "2026-07-28";
const CONTENT_SCENARIOS = [
  "resources-list",
  "resources-read-text",
  "resources-read-binary",
  "resources-templates-read",
  "prompts-list",
  "prompts-get-simple",
  "prompts-get-with-args",
  "prompts-get-embedded-resource",
  "prompts-get-with-image",
  "completion-complete",
];
const SCENARIOS = [
  "server-stateless",
  "tools-list",
  "caching",
  "dns-rebinding-protection",
  "server-sse-multiple-streams",
  ...CONTENT_SCENARIOS,
  ...[
    "basic-elicitation",
    "basic-sampling",
    "basic-list-roots",
    "request-state",
    "multiple-input-requests",
    "multi-round",
    "missing-input-response",
    "non-tool-request",
    "result-type",
    "unsupported-methods",
    "tampered-state",
    "capability-check",
    "ignore-extra-params",
    "validate-input",
  ].map((s) => `input-required-result-${s}`),
];
const LEGACY_SPEC = "2025-11-25";
const LEGACY_SCENARIOS = [
  "server-initialize",
  "server-session-lifecycle",
  "ping",
  "tools-list",
  "dns-rebinding-protection",
  "server-sse-multiple-streams",
  "server-sse-polling",
  ...CONTENT_SCENARIOS,
  // Real server→client requests on the POST's SSE stream, answered by POSTs in the session.
  "logging-set-level",
  "tools-call-with-logging",
  "tools-call-sampling",
  "tools-call-elicitation",
  "elicitation-sep1034-defaults",
  "elicitation-sep1330-enums",
];
const BASELINE_FILE = fileURLToPath(new URL("official-baseline.yaml", import.meta.url));
const baseline = parseBaseline(readFileSync(BASELINE_FILE, "utf8"));

const show = (c: { id: string; status: string; errorMessage?: string }) =>
  `${c.id} ${c.status}: ${(c.errorMessage ?? "").slice(0, 400)}`;

describe("the baseline file", () => {
  it("names only scenarios this test runs, each check once, each with a reason", () => {
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
    assert.deepEqual(
      j.unexpected.map((c) => c.id),
      ["a"],
    );
    assert.deepEqual(
      j.stale.map((s) => [s.entry.check, s.status]),
      [
        ["b", "SUCCESS"],
        ["gone", "absent"],
      ],
    );
  });
});

// One suite process per version runs every scenario (`--suite all`); only the scenarios listed
// above are judged. The others (tools-call-*, json-schema-2020-12, http-custom-header-*,
// resources-subscribe) look for fixtures and features outside this server's scope.
describe("official conformance suite (server) against demo-server --http --conformance-fixtures", () => {
  let srv: HttpServerProcess;
  let modern: Map<string, ScenarioRun>;
  let legacy: Map<string, ScenarioRun>;
  before(async () => {
    srv = await startHttpServer(["demo-server", "--http", "0", "--conformance-fixtures"]);
    modern = await runServerSuite(srv.url, SPEC);
    legacy = await runServerSuite(srv.url, LEGACY_SPEC);
  });
  after(() => srv.close());
  const ran = (runs: Map<string, ScenarioRun>, scenario: string): ScenarioRun => {
    const run = runs.get(scenario);
    assert.ok(run, `${scenario}: the suite did not run it (ran: ${[...runs.keys()].join(", ")})`);
    return run;
  };

  for (const scenario of SCENARIOS) {
    it(scenario, () => {
      const run = ran(modern, scenario);
      assert.ok(run.checks.length > 0, `${scenario}: no checks ran\n${run.output.slice(-2000)}`);
      const { unexpected, stale } = judge(run, baseline);
      const problems = [
        ...unexpected.map((c) => `unexpected failure ${show(c)}`),
        ...stale.map(
          (s) => `baseline line ${s.entry.line} (${s.entry.check}) no longer fails (${s.status}): remove it`,
        ),
      ];
      assert.deepEqual(problems, [], `${scenario}:\n${problems.join("\n")}`);
    });
  }

  for (const scenario of LEGACY_SCENARIOS) {
    it(`${scenario} (${LEGACY_SPEC}, initialize sessions)`, () => {
      const run = ran(legacy, scenario);
      assert.ok(run.checks.length > 0, `${scenario}: no checks ran\n${run.output.slice(-2000)}`);
      const failed = run.checks.filter((c) => c.status === "FAILURE").map(show);
      assert.deepEqual(failed, [], `${scenario}:\n${failed.join("\n")}`);
    });
  }
});
