// Runs the official MCP conformance suite's CLIENT scenarios (@modelcontextprotocol/conformance,
// on Node 20 through test/helpers/node20-compat) against the mcp-prism host: each scenario starts
// its own server, runs test/conformance/host-client-driver.ts on its URL, and writes its checks.
// A scenario's failures are its FAILURE check ids, "(no checks)" when it recorded none (the client
// never exercised it) and "(client exit)" when the driver failed. Every failure must be in
// official-client-baseline.json with a reason, and every baseline entry must still fail. Shared by
// official-client.test.ts and official-client-auth.test.ts (each its own file: its own time
// budget). Not a test file.
import { describe, it, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "../helpers/host-fixtures.js";

export const SUITE = join(ROOT, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");
export const COMPAT = join(ROOT, "test", "helpers", "node20-compat", "register.mjs");
const DRIVER = `${process.execPath} --import tsx ${join(ROOT, "test", "conformance", "host-client-driver.ts")}`;

export const AUTH_SCENARIOS = [
  "auth/metadata-default",
  "auth/metadata-var1",
  "auth/metadata-var2",
  "auth/metadata-var3",
  "auth/basic-cimd",
  "auth/scope-from-www-authenticate",
  "auth/scope-from-scopes-supported",
  "auth/scope-omitted-when-undefined",
  "auth/scope-step-up",
  "auth/scope-retry-limit",
  "auth/token-endpoint-auth-basic",
  "auth/token-endpoint-auth-post",
  "auth/token-endpoint-auth-none",
  "auth/pre-registration",
  "auth/resource-mismatch",
  "auth/offline-access-scope",
  "auth/offline-access-not-supported",
  "auth/authorization-server-migration",
  "auth/iss-supported",
  "auth/iss-not-advertised",
  "auth/iss-supported-missing",
  "auth/iss-wrong-issuer",
  "auth/iss-unexpected",
  "auth/iss-normalized",
  "auth/metadata-issuer-mismatch",
];
/** The "browser" the driver's sign-in opens: it follows the authorization redirect to the loopback listener. */
const BROWSER = `${process.execPath} ${join(ROOT, "test", "fixtures", "oauth-browser.mjs")}`;

/** The scenarios official-client.test.ts runs (the auth ones run in official-client-auth.test.ts). */
export const SCENARIOS: [scenario: string, specVersion: string][] = [
  ["tools_call", "2026-07-28"],
  ["request-metadata", "2026-07-28"],
  ["http-standard-headers", "2026-07-28"],
  ["http-custom-headers", "2026-07-28"],
  ["http-invalid-tool-headers", "2026-07-28"],
  ["json-schema-ref-no-deref", "2026-07-28"],
  ["sep-2322-client-request-state", "2026-07-28"],
  ["initialize", "2025-11-25"],
  ["elicitation-sep1034-client-defaults", "2025-11-25"],
];
export const AUTH: [scenario: string, specVersion: string][] = AUTH_SCENARIOS.map((s) => [s, "2026-07-28"]);

interface BaselineEntry {
  scenario: string;
  check: string;
  reason: string;
}
export const baseline = JSON.parse(
  readFileSync(join(import.meta.dirname, "official-client-baseline.json"), "utf8"),
) as BaselineEntry[];

function run(
  out: string,
  scenario: string,
  specVersion: string,
): Promise<{ stdout: string; checks: { id: string; status: string; errorMessage?: string }[] }> {
  const dir = join(out, scenario);
  const args = [
    "--import",
    COMPAT,
    SUITE,
    "client",
    "--command",
    DRIVER,
    "--scenario",
    scenario,
    "--spec-version",
    specVersion,
    "--timeout",
    "60000",
    "-o",
    dir,
  ];
  return new Promise((resolve, reject) => {
    // The suite exits 1 when a check failed: the checks file is what is read.
    execFile(
      process.execPath,
      args,
      { cwd: ROOT, timeout: 120_000, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, BROWSER } },
      (error, stdout, stderr) => {
        // The results are in DIR/<scenario>-<timestamp>/ ("auth/x": DIR/auth/x-<timestamp>/).
        const parent = join(dir, scenario.split("/").slice(0, -1).join("/"));
        let sub: string[] = [];
        try {
          sub = readdirSync(parent);
        } catch {
          // no results directory: reported below
        }
        if (sub.length !== 1)
          return reject(new Error(`no results for ${scenario} (${error?.message ?? ""}):\n${stdout}\n${stderr}`));
        const checks = JSON.parse(readFileSync(join(parent, sub[0], "checks.json"), "utf8"));
        resolve({
          stdout: `${stdout}\n--- driver stderr ---\n${readFileSync(join(parent, sub[0], "stderr.txt"), "utf8")}`,
          checks,
        });
      },
    );
  });
}

/** One test per scenario, `concurrency` at a time, in a describe named `title`. */
export function clientScenarioTests(
  title: string,
  scenarios: [string, string][],
  concurrency: number,
  extra?: () => void,
): void {
  const out = mkdtempSync(join(tmpdir(), "mcp-prism-official-client-"));
  after(() => rmSync(out, { recursive: true, force: true }));
  describe(title, { concurrency }, () => {
    extra?.();
    for (const [scenario, specVersion] of scenarios) {
      it(`${scenario} (${specVersion})`, async () => {
        const { stdout, checks } = await run(out, scenario, specVersion);
        const failed = new Set(checks.filter((c) => c.status === "FAILURE").map((c) => c.id));
        if (checks.length === 0) failed.add("(no checks)");
        if (/CLIENT EXITED WITH ERROR|CLIENT TIMED OUT/.test(stdout)) failed.add("(client exit)");
        const expected = new Set(baseline.filter((b) => b.scenario === scenario).map((b) => b.check));
        const unexpected = [...failed].filter((f) => !expected.has(f));
        const nowPassing = [...expected].filter((f) => !failed.has(f));
        const detail = checks
          .filter((c) => c.status === "FAILURE")
          .map((c) => `${c.id}: ${c.errorMessage ?? ""}`)
          .join("\n");
        assert.deepEqual(unexpected, [], `unexpected failures:\n${detail}\n${stdout}`);
        assert.deepEqual(
          nowPassing,
          [],
          "these baseline entries pass now: remove them from official-client-baseline.json",
        );
      });
    }
  });
}
