// Configs and helpers for the host tests: the misbehaving fixture server, the demo server
// (stdio, behind the wire tee, or over HTTP) — all real processes.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, existsSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { DEFAULT_LIMITS, type HostConfig, type ServerConfig } from "../../src/host/config/config.js";
import { waitForListeningUrl } from "./listening.js";

export const ROOT = resolve(import.meta.dirname, "..", "..");
export const BIN = join(ROOT, "bin", "mcp-prism.js");
const FIXTURE = join(ROOT, "test", "fixtures", "misbehaving-server.ts");
const TEE = join(ROOT, "test", "fixtures", "wire-tee.mjs");

const made: string[] = [];
// Each test file is its own process: what its tests made goes when it exits (servers stopped by then).
process.once("exit", () => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A temporary directory, removed when the test file's process exits. */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "mcp-prism-host-"));
  made.push(dir);
  return dir;
}

export function fixtureServer(
  era = "modern",
  env: Record<string, string> = {},
  extraArgs: string[] = [],
): ServerConfig {
  return {
    kind: "stdio",
    command: process.execPath,
    args: ["--import", "tsx", FIXTURE, "--era", era, ...extraArgs],
    env,
    cwd: ROOT,
  };
}

export function demoStdio(): ServerConfig {
  return { kind: "stdio", command: process.execPath, args: [BIN, "demo-server"] };
}

/** The demo server run from the sources (the unit layer runs without a build). */
export function demoStdioSource(): ServerConfig {
  return {
    kind: "stdio",
    command: process.execPath,
    args: ["--import", "tsx", join(ROOT, "test", "fixtures", "demo-source.ts")],
    cwd: ROOT,
  };
}

/** The demo server behind a tee that logs every client line to `log`. */
export function demoTeed(log: string): ServerConfig {
  return {
    kind: "stdio",
    command: process.execPath,
    args: [TEE, log, process.execPath, BIN, "demo-server"],
    cwd: ROOT,
  };
}

export function config(servers: Record<string, ServerConfig>, limits: Partial<HostConfig["limits"]> = {}): HostConfig {
  // A generous probe timeout: the fixtures answer discover, and a loaded test machine starts slowly.
  return { source: "test", servers, limits: { ...DEFAULT_LIMITS, discoverTimeoutMs: 15_000, ...limits } };
}

/** Lines the client sent, parsed. */
export function wireLines(log: string): Record<string, any>[] {
  if (!existsSync(log)) return [];
  return readFileSync(log, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

/** Starts `demo-server --http 0`; resolves with the URL it prints. */
export async function startDemoHttp(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [BIN, "demo-server", "--http", "0"], { stdio: ["ignore", "ignore", "pipe"] });
  const { url } = await waitForListeningUrl(child, "demo server", 10_000);
  return { url, child };
}

/** A loopback HTTP proxy that records every JSON body POSTed through it (a wire capture for HTTP). */
export async function startLoggingProxy(
  target: string,
): Promise<{ url: string; bodies: Record<string, any>[]; close(): Promise<void> }> {
  const { createServer } = await import("node:http");
  const bodies: Record<string, any>[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    if (body) {
      try {
        bodies.push(JSON.parse(body));
      } catch {
        bodies.push({ unparsable: body });
      }
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers))
      if (typeof v === "string" && k !== "host" && k !== "content-length") headers[k] = v;
    // A long-lived stream (subscriptions/listen) ends when the client goes: so does the upstream one.
    const ac = new AbortController();
    res.on("close", () => ac.abort());
    try {
      const up = await fetch(target, { method: req.method, headers, body: body || undefined, signal: ac.signal });
      const out: Record<string, string> = {};
      up.headers.forEach((v, k) => {
        if (k !== "content-length" && k !== "transfer-encoding" && k !== "content-encoding") out[k] = v;
      });
      res.writeHead(up.status, out);
      if (up.body) for await (const c of up.body as unknown as AsyncIterable<Uint8Array>) res.write(c);
      res.end();
    } catch (e) {
      if (res.headersSent) res.destroy();
      else res.writeHead(502).end(String(e));
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}/mcp`, bodies, close: () => new Promise((r) => server.close(() => r())) };
}
