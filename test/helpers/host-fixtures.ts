// Configs and helpers for the host tests: the misbehaving fixture server, the demo server
// (stdio, behind the wire tee, or over HTTP) — all real processes.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { DEFAULT_LIMITS, type HostConfig, type ServerConfig } from "../../src/host/config.js";

export const ROOT = resolve(import.meta.dirname, "..", "..");
export const BIN = join(ROOT, "bin", "mcp-prism.js");
const FIXTURE = join(ROOT, "test", "fixtures", "misbehaving-server.ts");
const TEE = join(ROOT, "test", "fixtures", "wire-tee.ts");

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), "mcp-prism-host-"));
}

export function fixtureServer(era = "modern", env: Record<string, string> = {}): ServerConfig {
  return { kind: "stdio", command: process.execPath, args: ["--import", "tsx", FIXTURE, "--era", era], env, cwd: ROOT };
}

export function demoStdio(): ServerConfig {
  return { kind: "stdio", command: process.execPath, args: [BIN, "demo-server"] };
}

/** The demo server behind a tee that logs every client line to `log`. */
export function demoTeed(log: string): ServerConfig {
  return { kind: "stdio", command: process.execPath, args: ["--import", "tsx", TEE, log, process.execPath, BIN, "demo-server"], cwd: ROOT };
}

export function config(servers: Record<string, ServerConfig>, limits: Partial<HostConfig["limits"]> = {}): HostConfig {
  return { source: "test", servers, limits: { ...DEFAULT_LIMITS, ...limits } };
}

/** Lines the client sent, parsed. */
export function wireLines(log: string): Record<string, any>[] {
  if (!existsSync(log)) return [];
  return readFileSync(log, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
}

/** Starts `demo-server --http 0`; resolves with the URL it prints. */
export async function startDemoHttp(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [BIN, "demo-server", "--http", "0"], { stdio: ["ignore", "ignore", "pipe"] });
  const url = await new Promise<string>((res, rej) => {
    let buf = "";
    const timer = setTimeout(() => rej(new Error(`demo server did not start: ${buf}`)), 10_000);
    child.stderr!.on("data", (c: Buffer) => {
      buf += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(buf);
      if (m) {
        clearTimeout(timer);
        res(m[1]);
      }
    });
    child.on("exit", (code) => rej(new Error(`demo server exited (${code}): ${buf}`)));
  });
  return { url, child };
}
