// Figure 3 — what the host costs. The full host path (Host.call: tool lookup, policy, selection
// check, envelope, validation, routing, receipt) against a bare SDK request of the SAME call on
// the same transport: `RpcClient.request` (the SDK's Protocol, as the host uses it) of the host's
// own connection, with the identical params the host sends (same requestedOutputs, same `_meta`
// envelope), parsed with a loose schema. In process: an InMemoryTransport pair to the toolkit
// demo server. Over stdio: one spawned demo server. Blocks of calls alternate host/bare (ABBA) to
// cancel drift; the figure is the median of the per-pair ratios.
import { demoConfig, demoStdio } from "./lib/demo.js";
import { connectionModule, demoServerModule, hostModule, protocolModule, rpcClientModule } from "./lib/compiled.js";
import { memoryServer } from "./lib/memory-host.js";
import { fmt, int, median, ratio, type BenchOptions, type Section, type Table, type Target } from "./lib/report.js";

// In process a call takes ~50 µs: blocks of 500 calls (~25 ms) so one gc pause does not decide a block.
// Both sides run the compiled build (dist/), as shipped: see bench/lib/compiled.ts.
const { CLIENT_NAME, CLIENT_VERSION } = connectionModule;
const { Host } = hostModule;
const { RpcClient } = rpcClientModule;
const { AnyResultSchema, META, compiledSchemaCount } = protocolModule;
const { createDemoServer } = demoServerModule;

// Over stdio a call takes ~0.4 ms and scheduling noise is large: 40 block pairs per probe.
const SIZES = { "in process": { calls: 10_000, block: 500 }, stdio: { calls: 4000, block: 100 } } as const;
const WARMUP = 200;

interface Probe {
  name: string;
  tool: string;
  args: Record<string, unknown>;
}
const PROBES: Probe[] = [
  { name: "lookup_order (small result)", tool: "lookup_order", args: { orderId: "ord_5001" } },
  { name: "search_customers Globex (37 rows, schema-validated user/structured)", tool: "search_customers", args: { query: "Globex", limit: 50 } },
];

interface SideResult {
  perBlock: number[];
  median: number;
}
interface PairResult {
  host: SideResult;
  bare: SideResult;
  ratio: number;
  schemasBefore: number;
  schemasAfter: number;
  failures: number;
}

async function pair(hostCall: () => Promise<boolean>, bareCall: () => Promise<boolean>, calls: number, BLOCK: number): Promise<PairResult> {
  let failures = 0;
  for (let i = 0; i < WARMUP; i++) {
    if (!(await hostCall())) failures++;
    if (!(await bareCall())) failures++;
  }
  const schemasBefore = compiledSchemaCount();
  const host: number[] = [];
  const bare: number[] = [];
  const blocks = Math.max(2, Math.round(calls / BLOCK));
  for (let b = 0; b < blocks; b++) {
    // ABBA order: neither side always runs first.
    const order: [number[], () => Promise<boolean>][] = b % 2 === 0 ? [[host, hostCall], [bare, bareCall]] : [[bare, bareCall], [host, hostCall]];
    for (const [sink, call] of order) {
      const t0 = performance.now();
      for (let i = 0; i < BLOCK; i++) if (!(await call())) failures++;
      sink.push(BLOCK / ((performance.now() - t0) / 1000));
    }
  }
  const h = median(host);
  const r = median(bare);
  // The ratio is the median over block pairs (each host block against the bare block run right
  // next to it), so load that drifts during the run cancels within a pair.
  const pairRatios = host.map((hb, i) => bare[i] / hb);
  return { host: { perBlock: host, median: h }, bare: { perBlock: bare, median: r }, ratio: median(pairRatios), schemasBefore, schemasAfter: compiledSchemaCount(), failures };
}

/**
 * The bare side: the same request the host sends, straight through the SDK Protocol client of the
 * host's OWN connection — the same transport instance and the same server process. (Two server
 * processes, one per side, differed by more than the host costs: which CPU each landed on next to
 * this process decided a stdio round trip.) The client is a private member of the Connection: if
 * it moves, this fails loudly rather than measuring something else.
 */
function bareClient(host: import("../src/host/host.js").Host, server: string, version: string) {
  const conn = (host as unknown as { conns?: Map<string, { client?: unknown }> }).conns?.get(server);
  const client = conn?.client as InstanceType<typeof RpcClient> | undefined;
  if (!(client instanceof RpcClient)) throw new Error("bench/overhead.ts: Host.conns / Connection.client moved; update bareClient");
  const envelope = {
    [META.protocolVersion]: version,
    [META.clientInfo]: { name: CLIENT_NAME, version: CLIENT_VERSION },
    [META.clientCapabilities]: {},
  };
  return {
    call: (tool: string, args: Record<string, unknown>, requestedOutputs: unknown) => async () => {
      const params: Record<string, unknown> = { name: tool, arguments: args, _meta: envelope };
      if (requestedOutputs !== undefined) params.requestedOutputs = requestedOutputs;
      const r = await client.request({ method: "tools/call", params }, AnyResultSchema);
      return r.isError !== true || tool === "lookup_order";
    },
  };
}

async function measureTransport(kind: "in process" | "stdio", log: (l: string) => void): Promise<{ rows: { probe: Probe; r: PairResult }[] }> {
  // Each transport starts from a collected heap (npm run bench exposes gc), not from the garbage of
  // the figures before it; both sides then collect their own garbage as they go.
  (globalThis as { gc?: () => void }).gc?.();
  const server = kind === "in process" ? createDemoServer() : undefined;
  const host = await Host.start({ config: demoConfig({ demo: server ? memoryServer("overhead", server) : demoStdio() }), mode: "chat" });
  const version = host.servers()[0]?.protocolVersion ?? "";
  if (version !== "2026-12-01") throw new Error(`host did not connect on 2026-12-01 (${host.servers()[0]?.error ?? version})`);
  const bare = bareClient(host, "demo", version);
  const rows: { probe: Probe; r: PairResult }[] = [];
  try {
    for (const probe of PROBES) {
      const first = await host.call(probe.tool, probe.args);
      if (!first.ok) throw new Error(`${probe.tool}: ${first.error.message}`);
      log(`overhead ${kind}: ${probe.tool}`);
      const r = await pair(
        async () => (await host.call(probe.tool, probe.args)).ok,
        bare.call(probe.tool, probe.args, first.plan.requested),
        SIZES[kind].calls,
        SIZES[kind].block,
      );
      rows.push({ probe, r });
    }
  } finally {
    await host.close();
  }
  return { rows };
}

export async function overheadBench({ log }: BenchOptions): Promise<Section> {
  const schemasAtStart = compiledSchemaCount();
  const inProc = await measureTransport("in process", log);
  const stdio = await measureTransport("stdio", log);
  const all = [
    ...inProc.rows.map((x) => ({ kind: "in process", limit: 1.1, ...x })),
    ...stdio.rows.map((x) => ({ kind: "stdio", limit: 1.05, ...x })),
  ];
  const table: Table = {
    caption: `Median calls/s per side (in process ${SIZES["in process"].calls / SIZES["in process"].block} blocks of ${SIZES["in process"].block} calls, over stdio ${SIZES.stdio.calls / SIZES.stdio.block} blocks of ${SIZES.stdio.block} calls per side, after ${WARMUP} warm-up calls each), blocks alternating ABBA`,
    head: ["transport", "call", "bare SDK request (calls/s)", "Host.call (calls/s)", "host cost (median of per-pair bare ÷ host)", "µs added per call", "host block spread (min–max calls/s)"],
    rows: all.map(({ kind, probe, r }) => [
      kind,
      probe.name,
      int(r.bare.median),
      int(r.host.median),
      ratio(r.ratio),
      fmt(1e6 / r.host.median - 1e6 / r.bare.median, 1),
      `${int(Math.min(...r.host.perBlock))}–${int(Math.max(...r.host.perBlock))}`,
    ]),
  };
  const targets: Target[] = all.map(({ kind, limit, probe, r }) => ({
    name: `Host overhead ${kind}, ${probe.tool}`,
    target: `≤ ${limit.toFixed(2)}×`,
    figure: `${ratio(r.ratio)}: ${int(r.host.median)} vs ${int(r.bare.median)} calls/s`,
    met: r.ratio <= limit,
  }));
  const compiledPerCall = all.filter(({ r }) => r.schemasAfter !== r.schemasBefore);
  targets.push({
    name: "Schema validators compiled once per tool",
    target: "compiledSchemaCount() unchanged across the measured calls",
    figure: compiledPerCall.length
      ? `NOT ONCE: ${compiledPerCall.map(({ kind, probe, r }) => `${kind} ${probe.tool} ${r.schemasBefore} → ${r.schemasAfter}`).join("; ")}`
      : `${all.map(({ kind, probe, r }) => `${kind} ${probe.tool}: ${r.schemasBefore} → ${r.schemasAfter}`).join("; ")} (${schemasAtStart} before the first call of this figure)`,
    met: compiledPerCall.length === 0,
  });
  const failures = all.reduce((a, x) => a + x.r.failures, 0);
  return {
    id: "overhead",
    title: "3. Host overhead",
    intro: [
      "Host side: `Host.call(tool, args)` in chat mode (tool lookup, policy, local selection check, `_meta` envelope, request, whole-result validation incl. Ajv schemas, routing into sinks; in process also the result-size rule, which the stdio transport applies while reading). Per-sink byte counts are computed when an outcome's `bytes` is first read (the app reads them when it draws a call); this loop does not read them, and no event listener is attached, so the host asks for no progress — neither does the bare side. Bare side: `RpcClient.request` (the SDK's Protocol, no capability checks) of the identical `tools/call` params — the same `requestedOutputs` the host chose and the same envelope — parsed with a loose object schema. Both sides use the SAME connection: the bare side sends through the SDK Protocol client of the host's own connection (one transport, one server process: in process an SDK `InMemoryTransport` pair to the toolkit demo server, over stdio one spawned `mcp-prism demo-server`). With a server process per side, which CPU each one landed on next to the bench decided a stdio round trip by more than the host costs.",
      "Both sides run the compiled build (`dist/`, what the bundle is made from), not the TypeScript sources through the bench's loader. Each call is awaited before the next (no pipelining). The ratio (host cost) is the median over the block pairs of bare throughput ÷ host throughput (= host time per call ÷ bare time per call) of two blocks run back to back, so load that changes during the run cancels within each pair; the calls/s columns are the plain medians per side.",
    ],
    tables: [table],
    targets,
    notes: [
      failures ? `${failures} calls did not succeed (counted, not retried).` : "Every measured call succeeded on both sides.",
    ],
  };
}
