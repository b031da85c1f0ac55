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
const check = (extra: string[], brk?: Break) => runCli(["check", "--json", "--timeout", "5", "--allow-writes", ...extra, "--", ...BROKEN_SERVER, ...(brk ? ["--break", brk] : [])]);

/** The check id(s) that own each break. */
const EXPECTED: Record<Exclude<Break, "hang">, string[]> = {
  "missing-assistant-content": ["sep-3279-declaration-assistant-content"],
  "duplicate-variant": ["sep-3279-declaration-no-duplicate-variants"],
  "unrequested-output": ["sep-3279-result-no-unrequested-output"],
  "omits-requested-output": ["sep-3279-result-one-output-per-selector"],
  "mirrors-structured": ["sep-3279-no-mirroring"],
  "substitutes-undeclared": ["sep-3279-reject-undeclared-selector", "sep-3279-no-substitution"],
  "duplicate-selector-wrong-code": ["sep-3279-reject-duplicate-selector"],
  "structured-violates-schema": ["sep-3279-structured-output-conforms"],
  "output-variants-under-2026-07-28": ["sep-3279-legacy-tool-shape-at-2026-07-28"],
  "structured-without-output-schema-legacy": ["sep-3279-legacy-structured-needs-output-schema-at-2026-07-28", "sep-3279-legacy-structured-needs-output-schema-at-2025-11-25"],
  "no-unsupported-version-error": ["sep-2575-server-unsupported-version-error"],
  "ui-without-negotiation": ["sep-3279-declaration-extension-negotiated"],
  "fallback-adds-output": ["sep-3279-fallback-assistant-content"],
  "accepts-unnegotiated": ["sep-3279-reject-unnegotiated-selector"],
  "no-discover": ["sep-2575-server-implements-discover"],
  "invalid-variant-schema": ["sep-3279-variant-schemas-compile"],
  "outputs-under-2025-11-25": ["sep-3279-legacy-result-shape-at-2025-11-25"],
  "foreign-output-schema": ["sep-3279-legacy-no-foreign-output-schema-at-2026-07-28", "sep-3279-legacy-no-foreign-output-schema-at-2025-11-25"],
  "content-output-carries-structured": ["sep-3279-result-selector-match"],
  "ui-meta-unnegotiated": ["sep-3279-result-meta-extension-negotiated"],
  "empty-error-outputs": ["sep-3279-error-not-empty-outputs"],
  "honours-requested-outputs-legacy": ["sep-3279-legacy-ignores-requested-outputs-at-2026-07-28", "sep-3279-legacy-ignores-requested-outputs-at-2025-11-25"],
  "no-result-type": ["sep-2575-server-result-type"],
  "control-chars-in-refusal": ["sep-3279-reject-undeclared-selector", "sep-3279-reject-duplicate-selector"],
};

test("the table covers every break the fixture offers", () => {
  assert.deepEqual(Object.keys(EXPECTED).sort(), BREAKS.filter((b) => b !== "hang").sort());
  const ids = new Set(ALL_CHECKS.map((c) => c.id));
  for (const list of Object.values(EXPECTED)) for (const id of list) assert.ok(ids.has(id), `${id} is not a check`);
});

test("without a break the fixture conforms: every check passes, exit 0", async () => {
  const run = await check([]);
  const report = parseReport(run);
  const bad = report.checks.filter((c) => c.status === "FAIL" || (c.status === "SKIP" && !c.id.includes("-http-server-")));
  assert.deepEqual(bad, []);
  assert.equal(run.code, 0);
});

describe("each break is reported by the check that owns it", { concurrency: 2 }, () => {
  for (const [brk, ids] of Object.entries(EXPECTED) as [Exclude<Break, "hang">, string[]][]) {
    test(brk, async () => {
      const run = await check([], brk);
      const report = parseReport(run);
      for (const id of ids) {
        const c = report.checks.find((x) => x.id === id);
        assert.equal(c?.status, "FAIL", `${id} should FAIL for --break ${brk}; got ${c?.status}: ${c?.detail}`);
      }
      assert.ok(report.failed >= ids.length);
      assert.equal(run.code, 1);
    });
  }
});

test("hostile server text is printed without control characters", async () => {
  const run = await runCli(["check", "--timeout", "5", "--allow-writes", "--", ...BROKEN_SERVER, "--break", "control-chars-in-refusal"]);
  assert.equal(run.code, 1);
  assert.match(run.stdout, /FAIL sep-3279-reject-undeclared-selector — .*-32000/);
  assert.doesNotMatch(run.stdout, /[\x00-\x08\x0b-\x1f\x7f]/);
  const { sanitize } = await import("../../src/conformance/report.js");
  // The one terminal sanitizer (src/protocol/sanitize.ts): controls shown visibly, one line.
  assert.equal(sanitize("a\x1b[31mred\x1b[0m\nb\x07\rc\u202e"), "a␛[31mred␛[0m⏎b␇␍c⟨U+202E⟩");
});

test("a server that never answers: FAIL with 'no answer within Ns', never a hang", async () => {
  const run = await runCli(["check", "--timeout", "1", "--allow-writes", "--", ...BROKEN_SERVER, "--break", "hang"], 30_000);
  assert.equal(run.code, 1);
  assert.match(run.stdout, /^FAIL sep-2575-server-implements-discover — server\/discover: no answer to server\/discover within 1s$/m);
  assert.match(run.stdout.trimEnd().split("\n").at(-1)!, /^0 passed, \d+ failed, \d+ skipped$/);
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
