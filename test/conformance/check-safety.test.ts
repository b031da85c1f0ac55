// `mcp-prism check` does no harm: it calls only tools marked readOnlyHint unless --allow-writes,
// and against a server that does not offer 2026-12-01 it reports the SEP-3279 checks as not
// applicable (N/A) and still runs the legacy ones, instead of failing them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ALL_CHECKS, needsOf } from "../../src/conformance/index.js";
import { parseReport, ROOT, runCli } from "./run-check.js";

const require = createRequire(import.meta.url);
const FILESYSTEM = require.resolve("@modelcontextprotocol/server-filesystem/dist/index.js");

test("the real filesystem server (2025-11-25 only): SEP-3279 and 2026-07-28 checks N/A, legacy ones run, nothing written", async () => {
  const dir = mkdtempSync(join(tmpdir(), "mcp-prism-check-fs-"));
  writeFileSync(join(dir, "notes.txt"), "hello\n");
  const run = await runCli(["check", "--json", "--timeout", "5", "--", process.execPath, FILESYSTEM, dir], 120_000);
  const report = parseReport(run);
  // Nothing FAILs. What warns is the server's own 2025-11-25 duty, not SEP-3279's: structuredContent
  // is not also serialized in a text block (a SHOULD of the 2025-11-25 spec, which its read tools skip).
  assert.deepEqual(
    report.checks.filter((c) => c.status === "FAIL"),
    [],
  );
  const warned = report.checks.filter((c) => c.status === "WARN");
  assert.deepEqual(
    warned.map((c) => c.id),
    ["sep-3279-legacy-retains-mirroring-at-2025-11-25"],
    JSON.stringify(warned),
  );
  assert.equal(warned[0].level, "SHOULD");
  // Its write tools were not called: untested, so exit 1 all the same.
  assert.equal(report.outcome, "untested");
  assert.ok(report.coverage.notCalled.some((n) => n.startsWith("write_file ")));
  assert.equal(run.code, 1, run.stderr);
  for (const c of report.checks) {
    if (needsOf(c.id) === "any")
      assert.doesNotMatch(c.detail, /^not applicable: the server does not/, `${c.id} runs against a legacy server`);
    else assert.equal(c.status, "N/A", `${c.id}: ${c.detail}`);
  }
  assert.match(
    report.checks.find((c) => c.id === "sep-3279-declaration-assistant-content")!.detail,
    /^not applicable: the server does not implement server\/discover \(.*\); it speaks 2025-11-25 through initialize$/,
  );
  assert.equal(report.checks.find((c) => c.id === "sep-3279-legacy-tool-shape-at-2025-11-25")?.status, "PASS");
  // The write tools (write_file, edit_file, create_directory, move_file) were never called.
  const shape = report.checks.find((c) => c.id === "sep-3279-legacy-result-shape-at-2025-11-25")!;
  assert.match(shape.detail, /write_file \(not marked readOnlyHint: not called; --call write_file/);
  // (The detail is cut at 400 characters; the directory below shows no write tool ran.)
  assert.deepEqual(readdirSync(dir), ["notes.txt"]);
  assert.equal(readFileSync(join(dir, "notes.txt"), "utf8"), "hello\n");
  const text = await runCli(["check", "--timeout", "5", "--", process.execPath, FILESYSTEM, dir], 120_000);
  const na = report.checks.filter((c) => c.status === "N/A").length;
  assert.match(
    text.stdout,
    new RegExp(`\\n\\d+ passed, 0 failed, 1 warned(, \\d+ not tested)?, ${na} not applicable\\n$`),
  );
  assert.match(text.stdout, /^N\/A +sep-3279-discover-lists-2026-12-01 — not applicable: /m);
});

test("a 2026-12-01 server whose only tool is not read-only: never called without --allow-writes", async () => {
  const dir = mkdtempSync(join(tmpdir(), "mcp-prism-check-writes-"));
  const count = join(dir, "calls.txt");
  const server = [
    "--",
    "env",
    `COUNT_FILE=${count}`,
    process.execPath,
    "--import",
    "tsx",
    join(ROOT, "test", "fixtures", "counting-server.ts"),
  ];
  const run = await runCli(["check", "--json", "--timeout", "10", ...server], 120_000);
  const report = parseReport(run);
  assert.equal(existsSync(count), false, "append_note never ran");
  assert.deepEqual(
    report.checks.filter((c) => /^not applicable: the server/.test(c.detail)),
    [],
    "the server offers 2026-12-01: every check applies",
  );
  const fallback = report.checks.find((c) => c.id === "sep-3279-fallback-assistant-content")!;
  assert.equal(fallback.status, "NOT-TESTED");
  assert.equal(report.outcome, "untested");
  assert.equal(run.code, 1, "an untested requirement is not a pass");
  assert.match(
    fallback.detail,
    /append_note \(not marked readOnlyHint: not called; --call append_note --args JSON or --allow-writes calls it\)/,
  );
  const allowed = await runCli(["check", "--json", "--timeout", "10", "--allow-writes", ...server], 120_000);
  assert.equal(parseReport(allowed).checks.find((c) => c.id === "sep-3279-fallback-assistant-content")!.status, "PASS");
  assert.ok(readFileSync(count, "utf8").split("\n").filter(Boolean).length > 0, "--allow-writes calls it");
});

test("every check has a need, and only the legacy-shape checks run without 2026-12-01", () => {
  const needs = new Map(ALL_CHECKS.map((c) => [c.id, needsOf(c.id)]));
  for (const [id, need] of needs) {
    if (id.startsWith("sep-2575-")) assert.equal(need, "modern", id);
    else if (need !== "variants")
      assert.match(
        id,
        /^sep-3279-legacy-(tool-shape|result-shape|structured-conforms|structured-needs-output-schema|retains-mirroring)-at-/,
        id,
      );
  }
});
