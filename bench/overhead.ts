// Figure 3 — what the host costs. The full host path (Host.call: tool lookup, policy, selection
// check, envelope, validation, routing, receipt) against a bare SDK request of the SAME call on
// the same transport: `RpcClient.request` (the SDK's Protocol, as the host uses it) of the host's
// own connection, with the identical params the host sends (same requestedOutputs, same `_meta`
// envelope), parsed with a loose schema. In process: an InMemoryTransport pair to the toolkit
// demo server. Over stdio: one spawned demo server. Within each block the sides alternate call
// by call; the figure is the median over blocks of host time ÷ bare time.
import { demoConfig, demoStdio } from "./lib/demo.js";
import { connectionModule, demoServerModule, hostModule, protocolModule, rpcClientModule } from "./lib/compiled.js";
import { memoryServer } from "./lib/memory-host.js";
import { fmt, int, median, quantile, ratio, type BenchOptions, type Section, type Table, type Target } from "./lib/report.js";

// In process a call takes ~30–50 µs: blocks of 500 calls per side so one gc pause does not decide a block.
// Both sides run the compiled build (dist/), as shipped: see bench/lib/compiled.ts.
const { CLIENT_NAME, CLIENT_VERSION } = connectionModule;
const { Host } = hostModule;
const { RpcClient } = rpcClientModule;
const { AnyResultSchema, META, compiledSchemaCount } = protocolModule;
const { createDemoServer } = demoServerModule;

// Over stdio a call takes 0.1–0.4 ms, and most of it is the OS waking the server process and
// then this one (the pipe write alone measures ~100 µs): the per-block noise is large, so 200
// blocks per probe. --quick takes a quarter of every figure.
const FULL = { "in process": { calls: 10_000, block: 500 }, stdio: { calls: 20_000, block: 100 } } as const;
const QUICK = { "in process": { calls: 2_500, block: 500 }, stdio: { calls: 5_000, block: 100 } } as const;
let SIZES: typeof FULL | typeof QUICK = FULL;
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
  /** Interquartile range of the per-block host ÷ bare ratios: how noisy the figure is. */
  iqr: [number, number];
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
  const pairRatios: number[] = [];
  const blocks = Math.max(2, Math.round(calls / BLOCK));
  for (let b = 0; b < blocks; b++) {
    // Within a block the two sides alternate CALL BY CALL (host-bare, then bare-host), each call
    // timed on its own: both sides see the same moment of the machine (scheduling, the other
    // process, JIT and heap state), which whole blocks taken one after the other did not give
    // over stdio. A gc pause lands in whichever call triggers it, so each side still pays for
    // the garbage it makes.
    let hostMs = 0;
    let bareMs = 0;
    for (let i = 0; i < BLOCK; i++) {
      const hostFirst = i % 2 === 0;
      let t = performance.now();
      if (!(await (hostFirst ? hostCall() : bareCall()))) failures++;
      const first = performance.now() - t;
      t = performance.now();
      if (!(await (hostFirst ? bareCall() : hostCall()))) failures++;
      const second = performance.now() - t;
      hostMs += hostFirst ? first : second;
      bareMs += hostFirst ? second : first;
    }
    host.push(BLOCK / (hostMs / 1000));
    bare.push(BLOCK / (bareMs / 1000));
    pairRatios.push(hostMs / bareMs);
  }
  // The ratio is the median over blocks of host time ÷ bare time for the same interleaved calls.
  return { host: { perBlock: host, median: median(host) }, bare: { perBlock: bare, median: median(bare) }, ratio: median(pairRatios), iqr: [quantile(pairRatios, 0.25), quantile(pairRatios, 0.75)], schemasBefore, schemasAfter: compiledSchemaCount(), failures };
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

export async function overheadBench({ log, quick }: BenchOptions): Promise<Section> {
  SIZES = quick ? QUICK : FULL;
  const schemasAtStart = compiledSchemaCount();
  const inProc = await measureTransport("in process", log);
  const stdio = await measureTransport("stdio", log);
  const all = [
    ...inProc.rows.map((x) => ({ kind: "in process", limit: 1.1, ...x })),
    ...stdio.rows.map((x) => ({ kind: "stdio", limit: 1.05, ...x })),
  ];
  const table: Table = {
    caption: `Median calls/s per side (in process ${SIZES["in process"].calls / SIZES["in process"].block} blocks of ${SIZES["in process"].block} calls, over stdio ${SIZES.stdio.calls / SIZES.stdio.block} blocks of ${SIZES.stdio.block} calls per side, after ${WARMUP} warm-up calls each); within a block host and bare calls alternate one by one`,
    head: ["transport", "call", "bare SDK request (calls/s)", "Host.call (calls/s)", "host cost (median over blocks of host ÷ bare time)", "block ratios, middle half", "µs added per call", "host block spread (min–max calls/s)"],
    rows: all.map(({ kind, probe, r }) => [
      kind,
      probe.name,
      int(r.bare.median),
      int(r.host.median),
      ratio(r.ratio),
      `${ratio(r.iqr[0])}–${ratio(r.iqr[1])}`,
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
      "Both sides run the compiled build (`dist/`, what the bundle is made from), not the TypeScript sources through the bench's loader. Each call is awaited before the next (no pipelining). Within each block the two sides alternate call by call (host then bare, then bare then host, …), each call timed on its own, so both sides meet the same moment of the machine: the same load, the same state of the server process and of the JIT. (Whole blocks of one side run after whole blocks of the other swung the stdio figure by more than the host costs: one block of host calls ran at 1,557 calls/s, another at 10,595.) A gc pause lands in the call that triggers it, so each side pays for its own garbage. The ratio (host cost) is the median over blocks of the host's total time ÷ the bare side's total time for the same number of calls; the calls/s columns are the plain medians per side.",
    ],
    tables: [table],
    targets,
    notes: [
      failures ? `${failures} calls did not succeed (counted, not retried).` : "Every measured call succeeded on both sides.",
    ],
  };
}
