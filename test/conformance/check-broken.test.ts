// `mcp-prism check` against test/fixtures/broken-server.ts: the fixture without a break passes
// every check; each single break is reported as FAIL by the check that owns that rule, and
// the exit status is non-zero. Also: hangs, unreachable servers, usage errors, hostile text.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:net";
import { ALL_CHECKS } from "../../src/conformance/index.js";
import { BREAKS, type Break } from "../fixtures/broken-breaks.js";
import { BROKEN_SERVER, parseReport, runCli } from "./run-check.js";

// The fixture's tools carry no readOnlyHint: --allow-writes lets check call them (they write nothing).
const check = (extra: string[], brk?: Break) =>
  runCli([
    "check",
    "--json",
    "--timeout",
    "5",
    "--allow-writes",
    ...extra,
    "--",
    ...BROKEN_SERVER,
    ...(brk ? ["--break", brk] : []),
  ]);

/**
 * The check id(s) that own each break: FAIL for a broken MUST (exit 1); WARN for a proposed rule
 * (exit 0: not a rule of the SEP's); none for behaviour the SEP allows.
 */
const EXPECTED: Record<Exclude<Break, "hang">, { fail?: string[]; warn?: string[] }> = {
  "missing-assistant-content": { fail: ["sep-3279-declaration-assistant-content"] },
  "duplicate-variant": { fail: ["sep-3279-declaration-no-duplicate-variants"] },
  "unrequested-output": { fail: ["sep-3279-result-no-unrequested-output"] },
  "omits-requested-output": { fail: ["sep-3279-result-one-output-per-selector"] },
  "mirrors-structured": { fail: ["sep-3279-no-mirroring"] },
  "substitutes-undeclared": { fail: ["sep-3279-reject-undeclared-selector", "sep-3279-no-substitution"] },
  "duplicate-selector-wrong-code": { warn: ["sep-3279-proposed-reject-duplicate-selector"] },
  "structured-violates-schema": { fail: ["sep-3279-structured-output-conforms"] },
  "output-variants-under-2026-07-28": { fail: ["sep-3279-legacy-tool-shape-at-2026-07-28"] },
  "structured-without-output-schema-legacy": {},
  "unknown-audience-output": { fail: ["sep-3279-output-audience-valid"] },
  "programmatic-content-variant": { fail: ["sep-3279-declaration-core-combinations"] },
  "bare-audience": { fail: ["sep-3279-extension-audience-namespaced"] },
  "placeholder-assistant-content": { fail: ["sep-3279-assistant-content-usable"] },
  "legacy-fields-under-2026-12-01": { fail: ["sep-3279-version-determines-shapes"] },
  "legacy-structured-violates-schema": {
    fail: ["sep-3279-legacy-structured-conforms-at-2026-07-28", "sep-3279-legacy-structured-conforms-at-2025-11-25"],
  },
  "outputs-under-2026-07-28": { fail: ["sep-3279-legacy-result-shape-at-2026-07-28"] },
  "output-variants-under-2025-11-25": { fail: ["sep-3279-legacy-tool-shape-at-2025-11-25"] },
  "no-unsupported-version-error": { fail: ["sep-2575-server-unsupported-version-error"] },
  "ui-without-negotiation": { fail: ["sep-3279-declaration-extension-negotiated"] },
  "fallback-adds-output": { fail: ["sep-3279-fallback-assistant-content"] },
  "accepts-unnegotiated": { fail: ["sep-3279-reject-unnegotiated-selector"] },
  "no-discover": { fail: ["sep-2575-server-implements-discover"] },
  "invalid-variant-schema": { fail: ["sep-3279-variant-schemas-compile"] },
  "outputs-under-2025-11-25": { fail: ["sep-3279-legacy-result-shape-at-2025-11-25"] },
  "foreign-output-schema": {
    fail: [
      "sep-3279-legacy-no-foreign-output-schema-at-2026-07-28",
      "sep-3279-legacy-no-foreign-output-schema-at-2025-11-25",
    ],
  },
  "content-output-carries-structured": { fail: ["sep-3279-result-selector-match"] },
  "ui-meta-unnegotiated": { warn: ["sep-3279-proposed-result-meta-extension-negotiated"] },
  "empty-error-outputs": { warn: ["sep-3279-error-not-empty-outputs"] },
  "honours-requested-outputs-legacy": {
    fail: [
      "sep-3279-legacy-ignores-requested-outputs-at-2026-07-28",
      "sep-3279-legacy-ignores-requested-outputs-at-2025-11-25",
    ],
  },
  "no-result-type": { fail: ["sep-2575-server-result-type"] },
  "control-chars-in-refusal": { fail: ["sep-3279-reject-undeclared-selector"] },
};

test("the table covers every break the fixture offers", () => {
  assert.deepEqual(Object.keys(EXPECTED).sort(), BREAKS.filter((b) => b !== "hang").sort());
  const checks = new Map(ALL_CHECKS.map((c) => [c.id, c]));
  for (const { fail = [], warn = [] } of Object.values(EXPECTED)) {
    for (const id of fail) assert.equal(checks.get(id)?.level, "MUST", `${id} is a MUST check`);
    for (const id of warn)
      assert.ok(checks.get(id)?.level === "SHOULD" || checks.get(id)?.proposed, `${id} is a SHOULD or proposed check`);
  }
});

test("every MUST check of a result, declaration or legacy shape has a break that fails it", () => {
  const covered = new Set(Object.values(EXPECTED).flatMap((e) => e.fail ?? []));
  const must = ALL_CHECKS.filter(
    (c) =>
      c.level === "MUST" &&
      !c.proposed &&
      c.id.startsWith("sep-3279-") &&
      c.id !== "sep-3279-discover-lists-2026-12-01",
  );
  assert.deepEqual(
    must.map((c) => c.id).filter((id) => !covered.has(id)),
    [],
  );
});

test("without a break the fixture conforms: every check passes, everything was called, exit 0", async () => {
  const run = await check([]);
  const report = parseReport(run);
  const bad = report.checks.filter(
    (c) =>
      c.status === "FAIL" ||
      c.status === "WARN" ||
      c.status === "NOT-TESTED" ||
      (c.status === "N/A" && !c.id.includes("-http-server-")),
  );
  assert.deepEqual(bad, []);
  assert.deepEqual(report.coverage, {
    toolsListed: 2,
    toolsCalled: 2,
    variantsDeclared: 8,
    variantsCalled: 8,
    notCalled: [],
  });
  assert.equal(report.outcome, "pass");
  assert.equal(run.code, 0);
});

describe("each break is reported by the check that owns it", { concurrency: 2 }, () => {
  for (const [brk, { fail = [], warn = [] }] of Object.entries(EXPECTED) as [
    Exclude<Break, "hang">,
    { fail?: string[]; warn?: string[] },
  ][]) {
    test(brk, async () => {
      const run = await check([], brk);
      const report = parseReport(run);
      for (const [ids, status] of [
        [fail, "FAIL"],
        [warn, "WARN"],
      ] as const) {
        for (const id of ids) {
          const c = report.checks.find((x) => x.id === id);
          assert.equal(c?.status, status, `${id} should ${status} for --break ${brk}; got ${c?.status}: ${c?.detail}`);
        }
      }
      if (fail.length === 0)
        assert.deepEqual(
          report.checks.filter((c) => c.status === "FAIL"),
          [],
          `--break ${brk} breaks no MUST`,
        );
      assert.ok(report.failed >= fail.length);
      assert.equal(run.code, fail.length > 0 ? 1 : 0);
    });
  }
});

// The reviewer's case: a server breaking result MUSTs on tools without readOnlyHint scored
// "14 passed, 0 failed, 37 skipped" and exit 0. Untested is not a pass.
describe("tools that were not called are not a pass", () => {
  const plain = (extra: string[], brk: Break) =>
    runCli(["check", "--json", "--timeout", "5", ...extra, "--", ...BROKEN_SERVER, "--break", brk]);

  test("without --call or --allow-writes: nothing called, requirements NOT-TESTED, exit 1", async () => {
    const run = await plain([], "unrequested-output");
    const report = parseReport(run);
    assert.equal(run.code, 1);
    assert.equal(report.outcome, "untested");
    assert.equal(report.coverage.toolsCalled, 0);
    assert.equal(report.coverage.toolsListed, 2);
    assert.match(
      report.coverage.notCalled[0],
      /^search \(not marked readOnlyHint: not called; --call search --args JSON/,
    );
    for (const id of [
      "sep-3279-result-no-unrequested-output",
      "sep-3279-fallback-assistant-content",
      "sep-3279-reject-undeclared-selector",
    ]) {
      assert.equal(report.checks.find((c) => c.id === id)?.status, "NOT-TESTED", id);
    }
    assert.ok(report.notTested > 10);
    assert.equal(
      report.checks.some((c) => c.status === ("SKIP" as string)),
      false,
    );
  });

  test("--allow-untested accepts it: exit 0, the report still says untested", async () => {
    const run = await plain(["--allow-untested"], "structured-without-output-schema-legacy");
    assert.equal(run.code, 0);
    assert.equal(parseReport(run).outcome, "untested");
  });

  test("--call TOOL --args JSON exercises that tool: its broken MUSTs FAIL, exit 1", async () => {
    for (const brk of [
      "unrequested-output",
      "mirrors-structured",
      "omits-requested-output",
      "structured-violates-schema",
    ] as const) {
      const run = await plain(["--call", "search", "--args", '{"query":"q"}'], brk);
      const report = parseReport(run);
      assert.equal(run.code, 1, brk);
      assert.equal(report.outcome, "fail", brk);
      assert.equal(report.coverage.toolsCalled, 1, brk);
      assert.deepEqual(
        report.coverage.notCalled.map((n) => n.split(" ")[0]),
        ["fail_always"],
        brk,
      );
      assert.equal(report.checks.find((c) => c.id === EXPECTED[brk].fail![0])?.status, "FAIL", brk);
    }
  });

  test("text report: the coverage line, the untested line, then the tally", async () => {
    const run = await runCli(["check", "--timeout", "5", "--", ...BROKEN_SERVER]);
    const lines = run.stdout.trimEnd().split("\n");
    assert.match(
      lines.at(-3)!,
      /^called 0 of 2 tools, 0 of 8 declared variants; not called: search \(not marked readOnlyHint/,
    );
    assert.match(
      lines.at(-2)!,
      /^untested: not a pass \(--call TOOL --args JSON exercises a tool; --allow-untested accepts it\)$/,
    );
    assert.match(lines.at(-1)!, /^\d+ passed, 0 failed, \d+ not tested/);
    assert.equal(run.code, 1);
  });
});

test("hostile server text is printed without control characters", async () => {
  const run = await runCli([
    "check",
    "--timeout",
    "5",
    "--allow-writes",
    "--",
    ...BROKEN_SERVER,
    "--break",
    "control-chars-in-refusal",
  ]);
  assert.equal(run.code, 1);
  assert.match(run.stdout, /FAIL +sep-3279-reject-undeclared-selector — .*-32000/);
  assert.doesNotMatch(run.stdout, /[\x00-\x08\x0b-\x1f\x7f]/);
  const { sanitize } = await import("../../src/conformance/report.js");
  // The one terminal sanitizer (src/protocol/sanitize.ts): controls shown visibly, one line.
  assert.equal(sanitize("a\x1b[31mred\x1b[0m\nb\x07\rc\u202e"), "a␛[31mred␛[0m⏎b␇␍c⟨U+202E⟩");
});

test("a server that never answers: FAIL with 'no answer within Ns', never a hang", async () => {
  const run = await runCli(
    ["check", "--timeout", "1", "--allow-writes", "--", ...BROKEN_SERVER, "--break", "hang"],
    30_000,
  );
  assert.equal(run.code, 1);
  assert.match(
    run.stdout,
    /^FAIL +sep-2575-server-implements-discover — server\/discover: no answer to server\/discover within 1s$/m,
  );
  assert.match(run.stdout.trimEnd().split("\n").at(-1)!, /^0 passed, \d+ failed, \d+ not tested/);
  assert.ok(run.ms < 20_000, `took ${run.ms} ms`);
});

describe("servers that cannot be started or reached: one clear line, exit 1", () => {
  test("a command that does not exist", async () => {
    const run = await runCli(["check", "--", "no-such-command-for-mcp-prism"]);
    assert.equal(run.code, 1);
    assert.equal(run.stdout, "");
    assert.match(run.stderr, /^mcp-prism check: cannot start no-such-command-for-mcp-prism: .*ENOENT\n$/);
  });

  test("a process that exits at once", async () => {
    const run = await runCli(["check", "--", "node", "-e", "process.stderr.write('boom\\n'); process.exit(3)"]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /^mcp-prism check: server exited \(code 3\): boom\n$/);
  });

  test("a URL nobody listens on", async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, "127.0.0.1", () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const run = await runCli(["check", "--url", `http://127.0.0.1:${port}/mcp`]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /^mcp-prism check: cannot reach http:\/\/127\.0\.0\.1:\d+\/mcp: ECONNREFUSED\n$/);
  });
});

describe("usage errors exit 2", () => {
  const cases: [string, string[], RegExp][] = [
    ["no server", [], /give the server to check/],
    ["both -- and --url", ["--url", "http://127.0.0.1:1/mcp", "--", "x"], /either -- COMMAND or --url/],
    ["--args without =", ["--args", "search", "--", "x"], /--args takes TOOL=JSON/],
    ["--args not JSON", ["--args", "search={", "--", "x"], /not JSON/],
    ["--url not http", ["--url", "ftp://x"], /http or https/],
    ["--timeout not a number", ["--timeout", "soon", "--", "x"], /--timeout/],
    ["unknown option", ["--frobnicate", "--", "x"], /unknown option --frobnicate/],
    ["--url without a value", ["--url"], /option --url needs a value/],
    ["--url followed by an option", ["--url", "--json"], /option --url needs a value/],
    ["a value for a flag", ["--json=yes", "--", "x"], /--json/],
    ["a word before --", ["stray", "--", "x"], /unexpected argument "stray"/],
  ];
  for (const [name, args, message] of cases) {
    test(name, async () => {
      const run = await runCli(["check", ...args]);
      assert.equal(run.code, 2);
      assert.match(run.stderr.split("\n")[0], message);
      assert.match(run.stderr, /^mcp-prism check: .*\nUsage: mcp-prism check/);
    });
  }
});

test("--args TOOL=JSON replaces the generated arguments", async () => {
  // the override is used for every call of search; the fixture still conforms with it.
  const run = await check(["--args", 'search={"query":"override"}']);
  const report = parseReport(run);
  assert.equal(report.failed, 0);
  assert.equal(run.code, 0);
});
