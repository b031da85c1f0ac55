// Load: the demo server through the Host, over stdio and over HTTP (loopback only): 1,000
// sequential and 100 concurrent calls of mixed tools and modes. Counts errors (must be 0),
// expected isError results (lookup_order of unknown ids), misrouted outputs (must be 0), and
// memory before/after with gc. Bounded: a fixed number of calls, a per-call timeout.
//   npm run load            (node --expose-gc --import tsx scripts/load.ts)
//   ... scripts/load.ts --sequential 1000 --concurrent 100
import { spawn, type ChildProcess } from "node:child_process";
import { cpus, totalmem } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { DEFAULT_LIMITS, type HostConfig, type ServerConfig } from "../src/host/config/config.js";
import { Host } from "../src/host/host.js";
import type { CallOptions, CallOutcome, Mode, SinkName } from "../src/host/types.js";
import { effectiveSelection, sameSelector, selectorKey } from "../src/protocol/index.js";

const ROOT = resolve(import.meta.dirname, "..");
const BIN = join(ROOT, "bin", "mcp-prism.js");
const UI = "io.modelcontextprotocol/ui";

const { values } = parseArgs({
  options: { sequential: { type: "string", default: "1000" }, concurrent: { type: "string", default: "100" } },
});
const SEQUENTIAL = Number(values.sequential);
const CONCURRENT = Number(values.concurrent);

interface Work {
  tool: string;
  args: Record<string, unknown>;
  mode: Mode;
  select?: CallOptions["select"];
  /** lookup_order of an unknown id: an isError result is the expected outcome. */
  expectIsError?: boolean;
}

/** The mix, cycled: every mode, every tool, failures included. */
function work(i: number): Work {
  const mix: Work[] = [
    { tool: "search_customers", args: { query: "Globex" }, mode: "chat" },
    { tool: "search_customers", args: { query: "NA", limit: 50 }, mode: "code" },
    { tool: "search_customers", args: { query: "Globex" }, mode: "app" },
    { tool: "search_customers", args: { query: "Labs" }, mode: "structured" },
    { tool: "search_customers", args: { query: "Globex" }, mode: "minimal" },
    { tool: "generate_images", args: { prompt: `load ${i % 7}`, count: 1, size: "64x40" }, mode: "chat" },
    { tool: "lookup_order", args: { orderId: `ord_${5001 + (i % 40)}` }, mode: "chat" },
    { tool: "lookup_order", args: { orderId: `ord_${5001 + (i % 40)}` }, mode: "code" },
    { tool: "lookup_order", args: { orderId: `nope_${i}` }, mode: "chat", expectIsError: true },
    { tool: "refresh_dashboard", args: {}, mode: "app", select: [{ audience: UI, format: "structured" }] },
    {
      tool: "search_customers",
      args: { query: "Globex" },
      mode: "chat",
      select: [
        { audience: "programmatic", format: "structured" },
        { audience: "assistant", format: "content" },
      ],
    },
  ];
  return mix[i % mix.length];
}

const SINK_OF: Record<string, SinkName> = {
  assistant: "model",
  user: "user",
  programmatic: "programmatic",
  [UI]: "app",
};

interface Tally {
  calls: number;
  ok: number;
  expectedIsError: number;
  errors: string[];
  misrouted: string[];
  ms: number[];
}

/** Zero misroutes: each entry sits in its audience's sink, was requested, and each selector appears once. */
function check(w: Work, o: CallOutcome, t: Tally): void {
  t.calls++;
  t.ms.push(o.durationMs);
  if (!o.ok) return void t.errors.push(`${w.tool} (${w.mode}): [${o.error.rule}] ${o.error.message}`);
  if (o.isError !== Boolean(w.expectIsError))
    return void t.errors.push(`${w.tool} ${JSON.stringify(w.args)}: isError ${o.isError}`);
  if (o.isError) t.expectedIsError++;
  else t.ok++;
  const requested = effectiveSelection(o.plan.requested);
  const seen: string[] = [];
  for (const sink of ["model", "user", "programmatic", "app"] as const) {
    for (const e of o.routed[sink]) {
      const key = selectorKey(e);
      if (SINK_OF[e.audience] !== sink) t.misrouted.push(`${w.tool}: ${key} in ${sink}`);
      if (!requested.some((s) => sameSelector(s, e))) t.misrouted.push(`${w.tool}: ${key} not requested`);
      if (seen.includes(key)) t.misrouted.push(`${w.tool}: ${key} twice`);
      seen.push(key);
    }
  }
  if (!o.isError && seen.length !== requested.length)
    t.misrouted.push(`${w.tool}: ${seen.length} outputs for ${requested.length} selectors`);
  for (const k of Object.keys(o.routed.appMeta))
    if (k !== UI || o.plan.mode !== "app") t.misrouted.push(`${w.tool}: appMeta ${k} in mode ${o.plan.mode}`);
}

function memory(): { rss: number; heap: number } {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) for (let i = 0; i < 3; i++) gc();
  const m = process.memoryUsage();
  return { rss: m.rss / 2 ** 20, heap: m.heapUsed / 2 ** 20 };
}

async function startDemoHttp(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [BIN, "demo-server", "--http", "0"], { stdio: ["ignore", "ignore", "pipe"] });
  const url = await new Promise<string>((res, rej) => {
    let buf = "";
    const timer = setTimeout(() => rej(new Error(`demo server did not start: ${buf}`)), 15_000);
    child.stderr!.on("data", (c: Buffer) => {
      buf += c.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+\S*)/.exec(buf);
      if (m) {
        clearTimeout(timer);
        res(m[1]);
      }
    });
    child.once("exit", (code) => rej(new Error(`demo server exited (${code}): ${buf}`)));
  });
  return { url, child };
}

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))] ?? 0;

async function runTransport(name: string, server: ServerConfig) {
  const config: HostConfig = {
    source: "load",
    servers: { demo: server },
    limits: { ...DEFAULT_LIMITS, callTimeoutMs: 60_000, discoverTimeoutMs: 15_000 },
  };
  const host = await Host.start({ config });
  try {
    const call = (i: number) => {
      const w = work(i);
      return host.call(w.tool, w.args, { mode: w.mode, select: w.select }).then((o) => [w, o] as const);
    };
    for (let i = 0; i < 22; i++) await call(i); // warm-up: every mix entry twice, listings cached
    const before = memory();
    const seq: Tally = { calls: 0, ok: 0, expectedIsError: 0, errors: [], misrouted: [], ms: [] };
    let t0 = performance.now();
    for (let i = 0; i < SEQUENTIAL; i++) {
      const [w, o] = await call(i);
      check(w, o, seq);
    }
    const seqSecs = (performance.now() - t0) / 1000;
    const afterSeq = memory();
    const conc: Tally = { calls: 0, ok: 0, expectedIsError: 0, errors: [], misrouted: [], ms: [] };
    t0 = performance.now();
    for (const [w, o] of await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => call(i)))) check(w, o, conc);
    const concSecs = (performance.now() - t0) / 1000;
    const after = memory();
    return { name, seq, seqSecs, conc, concSecs, before, afterSeq, after };
  } finally {
    await host.close();
  }
}

const http = await startDemoHttp();
try {
  const results = [
    await runTransport("stdio", { kind: "stdio", command: process.execPath, args: [BIN, "demo-server"] }),
    await runTransport("http", { kind: "http", url: http.url }),
  ];
  const mb = (n: number) => n.toFixed(1);
  console.log(
    `mcp-prism load · ${new Date().toISOString().slice(0, 10)} · node ${process.version} · ${cpus().length}× ${cpus()[0]?.model ?? "cpu"} · ${(totalmem() / 2 ** 30).toFixed(1)} GB RAM · gc ${typeof (globalThis as { gc?: unknown }).gc === "function" ? "on" : "OFF (run with --expose-gc)"}`,
  );
  console.log(
    "| transport | phase | calls | routed ok | expected isError | errors | misrouted | wall s | p50 ms | p99 ms |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|---|");
  for (const r of results) {
    for (const [phase, t, secs] of [
      [`${SEQUENTIAL} sequential`, r.seq, r.seqSecs],
      [`${CONCURRENT} concurrent`, r.conc, r.concSecs],
    ] as const) {
      console.log(
        `| ${r.name} | ${phase} | ${t.calls} | ${t.ok} | ${t.expectedIsError} | ${t.errors.length} | ${t.misrouted.length} | ${secs.toFixed(1)} | ${pct(t.ms, 50).toFixed(1)} | ${pct(t.ms, 99).toFixed(1)} |`,
      );
    }
  }
  console.log(
    "\n| transport | RSS before MB | RSS after sequential | RSS after concurrent | heap before MB | heap after sequential | heap after concurrent |",
  );
  console.log("|---|---|---|---|---|---|---|");
  for (const r of results) {
    console.log(
      `| ${r.name} | ${mb(r.before.rss)} | ${mb(r.afterSeq.rss)} | ${mb(r.after.rss)} | ${mb(r.before.heap)} | ${mb(r.afterSeq.heap)} | ${mb(r.after.heap)} |`,
    );
  }
  const problems = results.flatMap((r) =>
    [...r.seq.errors, ...r.seq.misrouted, ...r.conc.errors, ...r.conc.misrouted].map((p) => `${r.name}: ${p}`),
  );
  for (const p of problems.slice(0, 20)) console.error(p);
  process.exitCode = problems.length ? 1 : 0;
} finally {
  http.child.kill("SIGTERM");
}
