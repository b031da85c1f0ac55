// Process-leak checks by pid: the forking fixture server (test/fixtures/forking-server.mjs) under a
// wrapper, the pids it records, and a bounded wait for each of them to be gone.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ServerConfig } from "../../src/host/config/config.js";
import { BIN, ROOT } from "./host-fixtures.js";

export const FORKING_SERVER = join(ROOT, "test", "fixtures", "forking-server.mjs");

const sh = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const fixture = `${sh(process.execPath)} ${sh(FORKING_SERVER)}`;

/** How the server is started: the fixture itself, or behind bash with or without exec. */
export const WRAPPERS = {
  direct: (): { command: string; args: string[] } => ({ command: process.execPath, args: [FORKING_SERVER] }),
  "bash -c 'exec node …'": () => ({ command: "bash", args: ["-c", `exec ${fixture}`] }),
  // `; exit $?` keeps bash from exec'ing its last command: bash stays the server's parent.
  "bash -c 'node …' (bash stays)": () => ({ command: "bash", args: ["-c", `${fixture}; exit $?`] }),
} as const;
export type Wrapper = keyof typeof WRAPPERS;

export function forkingServer(
  wrapper: Wrapper,
  pidsFile: string,
  env: Record<string, string> = {},
): Extract<ServerConfig, { kind: "stdio" }> {
  return { kind: "stdio", ...WRAPPERS[wrapper](), env: { PIDS_FILE: pidsFile, ...env } };
}

export interface StartedServer {
  pid: number;
  ppid: number;
  /** The parent's command name (bash when the wrapper stays). */
  parent: string | null;
  child: number | null;
}

function lines(file: string): Record<string, unknown>[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

export function readPids(file: string): StartedServer[] {
  return lines(file).filter((l) => l.event === undefined) as unknown as StartedServer[];
}

/** The servers that saw their stdin end (a graceful stop begins so), by pid. */
export function sawEof(file: string): number[] {
  return lines(file)
    .filter((l) => l.event === "eof")
    .map((l) => l.pid as number);
}

/** Every process the servers recorded: each server, its child, and a wrapper that stayed. */
export function recordedPids(file: string): number[] {
  return readPids(file).flatMap((s) => [
    s.pid,
    ...(s.child ? [s.child] : []),
    ...(s.parent === "bash" ? [s.ppid] : []),
  ]);
}

/** Running: kill(pid, 0) succeeds and it is not a zombie (dead, waiting for init to reap it). */
export function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ESRCH") return false;
    throw e;
  }
  try {
    return !/^\d+ \(.*\) [ZX]/s.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

/** Waits (bounded) until none of `pids` runs; fails naming the ones still running. */
export async function assertAllGone(pids: number[], what: string, timeoutMs = 5000): Promise<void> {
  if (pids.length === 0) throw new Error(`${what}: no pid was recorded (did the server start?)`);
  const end = Date.now() + timeoutMs;
  let left = pids.filter(running);
  while (left.length && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 50));
    left = left.filter(running);
  }
  if (left.length) {
    const show = left.map((p) => `${p} (${commandOf(p)})`).join(", ");
    throw new Error(`${what}: still running ${timeoutMs} ms later: ${show}`);
  }
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ").trim();
  } catch {
    return "?";
  }
}

/** Cleanup after a failed test: SIGKILL whatever the servers recorded, so no failure leaks either. */
export function killRecorded(file: string): void {
  for (const pid of recordedPids(file)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone
    }
  }
}

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built CLI (`node bin/mcp-prism.js ARGS`) and resolves when it exits; rejects with a clear
 * message if it has not exited within `timeoutMs` (it is SIGKILLed then). `during` runs once the
 * process has spawned (to signal it, say).
 */
export function runCli(
  args: string[],
  opts: {
    cwd: string;
    timeoutMs?: number;
    env?: Record<string, string>;
    during?: (pid: number) => void | Promise<void>;
  },
): Promise<CliRun> {
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: opts.cwd,
    env: { ...process.env, XDG_CONFIG_HOME: opts.cwd, XDG_STATE_HOME: opts.cwd, ...opts.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(
        new Error(
          `mcp-prism ${args.join(" ")} did not exit within ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`,
        ),
      );
    }, timeoutMs);
    child.once("spawn", () => void Promise.resolve(opts.during?.(child.pid!)).catch(reject));
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      // The pipes may still be draining: take what the CLI wrote.
      child.stdout.once("close", () => resolve({ code, signal, stdout, stderr }));
      if (child.stdout.closed) resolve({ code, signal, stdout, stderr });
    });
  });
}

/** Waits (bounded) until the servers have recorded `count` starts. */
export async function waitForStarts(file: string, count = 1, timeoutMs = 15_000): Promise<StartedServer[]> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const started = readPids(file);
    if (started.length >= count) return started;
    if (Date.now() > end) throw new Error(`the server did not start ${count} time(s) within ${timeoutMs} ms (${file})`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
