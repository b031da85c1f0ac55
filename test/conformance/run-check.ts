// Runs the real CLI (`node bin/mcp-prism.js check …`) and the demo server for the conformance tests.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { waitForListeningUrl } from "../helpers/listening.js";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const CLI = `${ROOT}bin/mcp-prism.js`;

/**
 * The broken server as plain JavaScript (transpiled once per test process): starting it under
 * tsx costs a second per process, and the break table starts dozens of them.
 */
function compileBrokenServer(): string {
  const dir = join(tmpdir(), `mcp-prism-broken-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  for (const name of ["broken-server", "broken-breaks"]) {
    const source = readFileSync(`${ROOT}test/fixtures/${name}.ts`, "utf8");
    const out = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    });
    writeFileSync(join(dir, `${name}.mjs`), out.outputText.replace(/\.\/broken-breaks\.js/g, "./broken-breaks.mjs"));
  }
  return join(dir, "broken-server.mjs");
}
export const BROKEN_SERVER = ["node", compileBrokenServer()];

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs the CLI to completion; kills it (and fails loudly) after `limitMs`. */
export function runCli(args: string[], limitMs = 60_000): Promise<CliRun> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`mcp-prism ${args.join(" ")} ran longer than ${limitMs} ms`));
    }, limitMs);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}

export interface JsonReport {
  checks: {
    id: string;
    status: "PASS" | "FAIL" | "WARN" | "NOT-TESTED" | "N/A";
    level: string;
    proposed?: boolean;
    detail: string;
  }[];
  passed: number;
  failed: number;
  warned: number;
  notTested: number;
  notApplicable: number;
  coverage: {
    toolsListed: number;
    toolsCalled: number;
    variantsDeclared: number;
    variantsCalled: number;
    notCalled: string[];
  };
  outcome: "pass" | "fail" | "untested";
}

export function parseReport(run: CliRun): JsonReport {
  try {
    return JSON.parse(run.stdout) as JsonReport;
  } catch {
    throw new Error(
      `not one JSON document (exit ${run.code}): ${run.stdout.slice(0, 300)} ${run.stderr.slice(0, 300)}`,
    );
  }
}

/** Starts `demo-server --http 0` and resolves with its URL (from "listening on URL" on stderr). */
export async function startHttpDemo(): Promise<{ url: string; child: ChildProcess; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [CLI, "demo-server", "--http", "0"], {
    cwd: ROOT,
    stdio: ["pipe", "ignore", "pipe"],
  });
  const stop = () =>
    new Promise<void>((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once("exit", () => done());
      child.kill("SIGTERM");
    });
  try {
    const { url } = await waitForListeningUrl(child, "demo-server --http", 15_000);
    return { url, child, stop };
  } catch (e) {
    child.kill("SIGKILL");
    throw e;
  }
}
