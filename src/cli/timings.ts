// Opt-in start-up timings for bench/startup.ts: MCP_PRISM_TIMINGS=FILE appends one JSON line per
// milestone (ms since the process started, and the process's CPU time so far).
import { appendFileSync } from "node:fs";

export function mark(
  milestone: string,
  sinceStartMs = performance.now() /* its time origin is the process start */,
): void {
  const file = process.env.MCP_PRISM_TIMINGS;
  if (!file) return;
  try {
    const { user, system } = process.cpuUsage(); // all of this process's threads, in µs
    appendFileSync(
      file,
      `${JSON.stringify({ milestone, sinceStartMs, epochMs: performance.timeOrigin + sinceStartMs, cpuMs: (user + system) / 1000 })}\n`,
    );
  } catch {
    // timings are best-effort; never disturb the app
  }
}
