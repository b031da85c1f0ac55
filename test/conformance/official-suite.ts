// Runs scenarios of the official MCP conformance suite (@modelcontextprotocol/conformance, a
// devDependency) and reads their checks, plus the baseline of expected failures. Not a test file.
//
// The suite needs Node >= 22 at load; test/helpers/node20-compat/ (copied verbatim from the
// shared tools) lets it load on Node 20.
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO_ROOT } from "../helpers/raw-stdio.js";

export const SUITE_ENTRY = join(REPO_ROOT, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");
export const COMPAT_HOOK = join(REPO_ROOT, "test", "helpers", "node20-compat", "register.mjs");

export type CheckStatus = "SUCCESS" | "FAILURE" | "WARNING" | "SKIPPED" | "INFO";

export interface SuiteCheck {
  id: string;
  status: CheckStatus;
  errorMessage?: string;
}

export interface ScenarioRun {
  scenario: string;
  code: number | null;
  checks: SuiteCheck[];
  output: string;
}

/**
 * `conformance server --url URL --suite all --spec-version V -o DIR`: every scenario of that
 * version in ONE suite process (seconds, where a process per scenario takes minutes on a loaded
 * machine), each scenario's checks read from its own `server-<scenario>-<timestamp>/checks.json`.
 */
export async function runServerSuite(
  url: string,
  specVersion: string,
  timeoutMs = 180_000,
): Promise<Map<string, ScenarioRun>> {
  const out = mkdtempSync(join(tmpdir(), "mcp-prism-official-"));
  try {
    const args = [
      "--import",
      COMPAT_HOOK,
      SUITE_ENTRY,
      "server",
      "--url",
      url,
      "--suite",
      "all",
      "--spec-version",
      specVersion,
      "-o",
      out,
    ];
    const child = spawn(process.execPath, args, {
      cwd: REPO_ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NO_COLOR: "1" },
    });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (c: string) => (output += c));
    child.stderr.setEncoding("utf8").on("data", (c: string) => (output += c));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    const code = await new Promise<number | null>((resolve) => child.once("close", (c) => resolve(c)));
    clearTimeout(timer);
    const runs = new Map<string, ScenarioRun>();
    for (const dir of readdirSync(out)) {
      const m = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(dir);
      const file = m && findChecks(join(out, dir));
      if (!m || !file) continue;
      const checks = (JSON.parse(readFileSync(file, "utf8")) as SuiteCheck[]).map((c) => ({
        id: c.id,
        status: c.status,
        errorMessage: c.errorMessage,
      }));
      runs.set(m[1], { scenario: m[1], code, checks, output });
    }
    if (runs.size === 0)
      throw new Error(`conformance --suite all wrote no checks.json (exit ${code}):\n${output.slice(-2000)}`);
    return runs;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

function findChecks(dir: string): string | undefined {
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) {
      const found = findChecks(p);
      if (found) return found;
    } else if (e === "checks.json") return p;
  }
  return undefined;
}

export interface BaselineEntry {
  scenario: string;
  check: string;
  reason: string;
  line: number;
}

/**
 * Reads the suite's expected-failures format restricted to per-check server entries, each with
 * its reason as a trailing comment:
 *   server:
 *     - scenario:check-id # why it is expected to fail
 * Anything else (a whole-scenario entry, an entry without a reason) throws with the line number.
 */
export function parseBaseline(text: string): BaselineEntry[] {
  const entries: BaselineEntry[] = [];
  let inServer = false;
  text.split("\n").forEach((raw, i) => {
    const line = i + 1;
    if (/^\s*(#.*)?$/.test(raw)) return;
    if (/^server:\s*(#.*)?$/.test(raw)) {
      inServer = true;
      return;
    }
    const m = /^ {2}- ([a-z0-9-]+):([a-z0-9-]+)\s+#\s*(\S.*)$/.exec(raw);
    if (!inServer || !m)
      throw new Error(
        `baseline line ${line}: expected "  - scenario:check-id # reason" under server:, got ${JSON.stringify(raw)}`,
      );
    entries.push({ scenario: m[1], check: m[2], reason: m[3].trim(), line });
  });
  return entries;
}

export interface Judgement {
  /** FAILURE checks the baseline does not name. */
  unexpected: SuiteCheck[];
  /** Baseline entries whose check no longer fails (passed, skipped or absent): the baseline is stale. */
  stale: { entry: BaselineEntry; status: CheckStatus | "absent" }[];
}

/** A check id may occur several times in a run; it fails when any occurrence fails. */
export function judge(run: ScenarioRun, baseline: BaselineEntry[]): Judgement {
  const mine = baseline.filter((e) => e.scenario === run.scenario);
  const excused = new Set(mine.map((e) => e.check));
  const failing = new Set(run.checks.filter((c) => c.status === "FAILURE").map((c) => c.id));
  const unexpected = run.checks.filter((c) => c.status === "FAILURE" && !excused.has(c.id));
  const stale = mine
    .filter((e) => !failing.has(e.check))
    .map((entry) => ({ entry, status: run.checks.find((c) => c.id === entry.check)?.status ?? ("absent" as const) }));
  return { unexpected, stale };
}
