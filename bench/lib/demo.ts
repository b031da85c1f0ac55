// The demo server as the benches use it: the compiled build over stdio, a host config for it,
// and the committed context workload.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { DEFAULT_LIMITS, type HostConfig, type ServerConfig } from "../../src/host/config/config.js";

export const ROOT = resolve(import.meta.dirname, "..", "..");
export const BIN = join(ROOT, "bin", "mcp-prism.js");
export const WORKLOAD_PATH = join(ROOT, "bench", "workloads", "context.json");

export interface WorkloadCall {
  tool: string;
  args: Record<string, unknown>;
  expectRecords?: number;
  expectImages?: number;
}
export interface Workload {
  description: string;
  server: string;
  calls: WorkloadCall[];
}

export function loadWorkload(path = WORKLOAD_PATH): Workload {
  return JSON.parse(readFileSync(path, "utf8")) as Workload;
}

export function demoStdio(): ServerConfig {
  return { kind: "stdio", command: process.execPath, args: [BIN, "demo-server"], cwd: ROOT };
}

export function demoConfig(servers: Record<string, ServerConfig> = { demo: demoStdio() }): HostConfig {
  return { source: "bench", servers, limits: { ...DEFAULT_LIMITS, discoverTimeoutMs: 15_000 } };
}

export const label = (c: WorkloadCall) => `${c.tool} ${JSON.stringify(c.args)}`;
