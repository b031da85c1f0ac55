// The brick fixture server (test/fixtures/brick-server.ts) as plain JS (transpiled once per
// source change: tsx costs ~1 s per process start), its configs and canaries.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, statSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ts from "typescript";
import type { ServerConfig } from "../../src/host/config/config.js";
import { ROOT } from "./host-fixtures.js";

export { CORRUPT_PNG, NOT_A_PNG, SERVER_MESSAGE, STDERR_CANARY } from "../fixtures/brick-server.js";

const SOURCE = join(ROOT, "test", "fixtures", "brick-server.ts");

export const BRICK_JS: string = (() => {
  const dir = join(tmpdir(), "mcp-prism-brick");
  const out = join(dir, `brick-server-${statSync(SOURCE).mtimeMs}.mjs`);
  if (!existsSync(out)) {
    mkdirSync(dir, { recursive: true });
    const js = ts.transpileModule(readFileSync(SOURCE, "utf8"), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    writeFileSync(`${out}.${process.pid}`, js);
    renameSync(`${out}.${process.pid}`, out); // atomic: test files run in parallel
  }
  return out;
})();

/** A stdio config for the brick server; `state` (a fresh dir) arms leaks_and_exits' failing restarts. */
export function brickStdio(opts: { huge?: boolean; state?: string } = {}): ServerConfig {
  const env: Record<string, string> = {};
  if (opts.huge) env.BRICK_HUGE = "1";
  if (opts.state) env.BRICK_STATE = opts.state;
  return { kind: "stdio", command: process.execPath, args: [BRICK_JS], env, cwd: ROOT };
}

/** The same as an mcp-prism.json server entry. */
export function brickJson(opts: { huge?: boolean; state?: string } = {}): Record<string, unknown> {
  const c = brickStdio(opts) as Extract<ServerConfig, { kind: "stdio" }>;
  return { command: c.command, args: c.args, env: c.env, cwd: c.cwd };
}

const made: string[] = [];
process.once("exit", () => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A state file's path in a fresh directory, removed when the test file's process exits. */
export function freshState(): string {
  const dir = mkdtempSync(join(tmpdir(), "mcp-prism-brick-state-"));
  made.push(dir);
  return join(dir, "s");
}
