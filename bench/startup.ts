// Figure 5 — start-up: from process start to the first drawn frame of the chat app on the demo
// server, compiled build (`node bin/mcp-prism.js --model offline`) in a real pseudo-terminal
// (tmux on a private socket, 120×40, env without CI). The first frame counts as drawn when
// the status bar's text reaches the terminal (tmux pipe-pane: every byte the pane receives). The split comes from the app's opt-in timing hook
// (MCP_PRISM_TIMINGS=FILE: node-ready, app-run, config-loaded, ui-loaded,
// first-render, host-start, servers-spawned, host-ready, each in ms since the process started,
// with the process's CPU time) and from timing a
// bare demo-server spawn → first discover answer. The same rounds measure each start-up piece
// with and without it (./startup-pieces.ts): every round starts every variant warm (its code
// cache in a directory of this bench run, written by its unmeasured warm-up start) and cold (an
// empty cache directory).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { modernMeta, spawnStdio } from "../test/helpers/raw-stdio.js";
import { ROOT } from "./lib/demo.js";
import { buildVariants, PIECES, REMOVED, REMOVED_D3, type Variant } from "./startup-pieces.js";
import { median, ms, type BenchOptions, type Section, type Table, type Target } from "./lib/report.js";

const SOCKET = `mcp-prism-bench-${process.pid}`;
const STATUS = "mode chat · model offline";
const CONNECTED = "demo 2026-12-01 connected";
const TARGET_MS = 400;

function tmux(...args: string[]): { ok: boolean; out: string } {
  const r = spawnSync("tmux", ["-L", SOCKET, ...args], { encoding: "utf8" });
  return { ok: r.status === 0, out: r.stdout ?? "" };
}
const sleep = (n: number) => new Promise((r) => setTimeout(r, n));

interface Sample {
  /** Wall clock: the pane released to start the process → status bar seen. */
  launchToFrame: number;
  /** Process start (from the hook) → status bar seen. */
  processToFrame: number;
  /** Process start → the status bar shows the demo server connected. */
  processToConnected: number;
  marks: Record<string, number>;
}

/** ANSI escape sequences (CSI, OSC, and two-byte ESC forms), removed before searching the pane's output. */
// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g;

/**
 * Watches what the app writes to its terminal: tmux `pipe-pane` appends every byte the pane
 * receives to a file, which is read here every ~1 ms (a stat, and a read only when it grew).
 * Polling `tmux capture-pane` instead spawned a tmux client per look: ~17 ms apart at best, and
 * those spawns kept one of the machine's two cores busy while the app started.
 */
function paneWatcher(file: string) {
  let text = "";
  let read = 0;
  return {
    /** Resolves with the wall clock (ms) at which `needle` first appeared; 0 after `timeoutMs`. */
    async when(needle: string, timeoutMs: number): Promise<number> {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const size = existsSync(file) ? statSync(file).size : 0;
        if (size > read) {
          const now = Date.now();
          text += readFileSync(file).subarray(read).toString("utf8");
          read = size;
          if (text.replace(ANSI, "").includes(needle)) return now;
        }
        if (Date.now() > end) return 0;
        await sleep(1);
      }
    },
    tail: () => text.replace(ANSI, "").slice(-300),
  };
}

/** One start of `variant`; `cacheDir` is its XDG_CACHE_HOME (the compile cache), a fresh empty one if omitted. */
async function oneStart(i: number, variant: Variant, cacheDir?: string): Promise<Sample> {
  const dir = mkdtempSync(join(tmpdir(), "mcp-prism-startup-"));
  const timings = join(dir, "timings.jsonl");
  const output = join(dir, "pane.out");
  const session = `s${i}`;
  const go = `go-${process.pid}-${i}`;
  try {
    const cmd = [
      // The pane waits until pipe-pane is on, so not one byte of the app's output is missed.
      `tmux -L ${SOCKET} wait-for ${go};`,
      "exec env -u CI",
      `MCP_PRISM_TIMINGS=${timings}`,
      `XDG_CONFIG_HOME=${dir}`,
      `XDG_STATE_HOME=${dir}`,
      `XDG_CACHE_HOME=${cacheDir ?? join(dir, "cache")}`,
      `TERM=xterm-256color`,
      ...Object.entries(variant.env ?? {}).map(([k, v]) => `${k}=${v}`),
      JSON.stringify(process.execPath),
      JSON.stringify(variant.bin),
      "--model offline",
    ].join(" ");
    if (!tmux("new-session", "-d", "-s", session, "-x", "120", "-y", "40", "-c", dir, cmd).ok)
      throw new Error("tmux new-session failed");
    if (!tmux("pipe-pane", "-t", session, "-o", `cat >> ${JSON.stringify(output)}`).ok)
      throw new Error("tmux pipe-pane failed");
    const pane = paneWatcher(output);
    const t0 = Date.now();
    if (!tmux("wait-for", "-S", go).ok) throw new Error("tmux wait-for -S failed");
    const seen = await pane.when(STATUS, 30_000);
    if (!seen) throw new Error(`no status bar within 30 s; pane: ${pane.tail()}`);
    const connected = await pane.when(CONNECTED, 30_000);
    const marks: Record<string, number> = {};
    let startEpoch = NaN;
    if (existsSync(timings))
      for (const line of readFileSync(timings, "utf8").split("\n").filter(Boolean)) {
        const m = JSON.parse(line) as { milestone: string; sinceStartMs: number; epochMs: number };
        marks[m.milestone] = m.sinceStartMs;
        startEpoch = m.epochMs - m.sinceStartMs;
      }
    return {
      launchToFrame: seen - t0,
      processToFrame: seen - startEpoch,
      processToConnected: connected ? connected - startEpoch : NaN,
      marks,
    };
  } finally {
    tmux("kill-session", "-t", session);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A bare demo-server: spawn → first server/discover answer (its own boot, no host). */
async function serverBoot(): Promise<number> {
  const t0 = performance.now();
  const s = spawnStdio();
  try {
    await s.request("server/discover", { _meta: modernMeta() }, { timeoutMs: 20_000 });
    return performance.now() - t0;
  } finally {
    await s.close();
  }
}

export async function startupBench({ quick, log }: BenchOptions): Promise<Section> {
  if (!existsSync(join(ROOT, "dist", "cli", "main.js")))
    throw new Error("no compiled build: run `npm run build` (npm run bench does)");
  const reps = quick ? 3 : 15;
  // Keep the private tmux server alive across runs so its own start-up is not counted.
  if (!tmux("new-session", "-d", "-s", "keep", "sleep 3600").ok)
    throw new Error("tmux is needed for the start-up figure");
  const work = mkdtempSync(join(tmpdir(), "mcp-prism-startup-variants-"));
  const warm = new Map<string, Sample[]>();
  const coldOf = new Map<string, Sample[]>();
  const boots: number[] = [];
  try {
    const variants = buildVariants();
    // Each variant its own cache directory (node's compile cache lives there on Node >= 22.1).
    const cacheOf = (v: Variant) => join(work, `cache-${v.key}`);
    for (const [k, v] of variants.entries()) await oneStart(-1 - k, v, cacheOf(v)); // warms the file cache and writes the compile cache; not counted
    let n = 0;
    for (let i = 0; i < reps; i++) {
      log(`startup: round ${i + 1}/${reps} (${variants.length} variants, warm and cold)`);
      // A rotating order, so no variant always follows the same one.
      for (let j = 0; j < variants.length; j++) {
        const v = variants[(i + j) % variants.length];
        warm.set(v.key, [...(warm.get(v.key) ?? []), await oneStart(n++, v, cacheOf(v))]);
        coldOf.set(v.key, [...(coldOf.get(v.key) ?? []), await oneStart(n++, v)]);
      }
      boots.push(await serverBoot());
    }
  } finally {
    // kill-server leaves the socket file behind: it is removed too.
    const socketPath = tmux("display-message", "-p", "#{socket_path}").out.trim();
    tmux("kill-server");
    if (socketPath) rmSync(socketPath, { force: true });
    rmSync(work, { recursive: true, force: true });
  }
  const samples = warm.get("full") ?? [];
  const cold = coldOf.get("full") ?? [];
  const coldReps = cold.length;
  const compileCache = Number(process.versions.node.split(".")[0]) >= 22;
  const med = (f: (s: Sample) => number) => median(samples.map(f).filter(Number.isFinite));
  const m = (name: string) => (s: Sample) => s.marks[name] ?? NaN;
  const between = (from: string, to: string) => med((s) => m(to)(s) - m(from)(s));
  const toScreen = med((s) => s.processToFrame - m("first-render")(s));
  const boot = median(boots);
  const total = med((s) => s.processToFrame);
  const targets: Target[] = [
    {
      name: "Start-up to the first drawn frame",
      target: `≤ ${TARGET_MS} ms median`,
      figure: `${ms(total)} from process start (${ms(med((s) => s.launchToFrame))} from the pane's release)`,
      met: total <= TARGET_MS,
    },
  ];
  return {
    id: "startup",
    title: "5. Start-up",
    intro: [
      `\`node bin/mcp-prism.js --model offline\` (compiled build, built-in demo server config, empty XDG config/state dirs) in tmux 120×40 on a private socket; ${reps} runs after one unmeasured warm-up; medians. "Seen" is the moment the status bar's text reached the terminal: tmux \`pipe-pane\` appends every byte the pane receives to a file, which the bench reads every ~1 ms (escape sequences removed before searching). Earlier runs (before 2026-11-30) polled \`tmux capture-pane\`: each look spawned a tmux client, ~17 ms apart at best, and the spawns kept one of the two cores busy while the app started.`,
      `Node ${process.versions.node}. \`bin/mcp-prism.js\` imports \`dist/bundle/main.js\`, which turns on node's compile cache where the runtime has it (Node ≥ 22.1) and whose \`tui\` entry imports the app's chunks (Ink, React, the App) and draws its first frame; then it spawns the demo server's process, which boots on the other core while the host code (MCP SDK, zod, Ajv) loads from the ES module chunks, and starts the host, whose stdio transport adopts that process. The status bar shows the server \`connecting…\` until discovery and tools/list are done, then its protocol version; React/Ink run in production mode, as the launcher sets NODE_ENV.`,
      `Start-up pieces, each measured with and without it in this run (the table after the phases): every variant is the real build with the piece turned off by its environment variable (\`bench/startup-pieces.ts\`). Each of the ${reps} rounds starts every variant once warm (its own cache directory, written by its unmeasured warm-up start) and once cold (an empty cache directory), in an order that rotates by one each round, so load from other work on this shared machine falls on all variants alike; medians per variant. The rule (issue 21): keep what buys ≥ 50 ms of median first frame, or is needed to stay ≤ 400 ms cold. A Δ within ±60 ms is noise on a loaded machine (two runs of the removed pieces below differed by that much).`,
      compileCache
        ? `Node's compile cache (\`$XDG_CACHE_HOME/mcp-prism/compile-cache\`) is written by the first start after an install or upgrade: the warm-up start here writes it into a directory of this bench run and the measured starts use it. The ${coldReps} cold start(s) below each ran with an empty cache directory.`
        : `Node ${process.versions.node} has no compile cache: warm and cold starts differ only in the operating system's file cache. The ${coldReps} cold start(s) below each ran with an empty cache directory.`,
    ],
    tables: [
      {
        caption: "Where the time goes (medians; the phases are medians of their own, so they need not add up exactly)",
        head: ["phase", "median"],
        rows: [
          ["node's own start (process start → node bootstrapped, before any of our code)", ms(med(m("node-ready")))],
          [
            "launcher, main.js and the app's chunk read, compiled (from the compile cache where there is one) and run (→ app `run()`)",
            ms(between("node-ready", "app-run")),
          ],
          ["arguments, config, model selection (→ config loaded)", ms(between("app-run", "config-loaded"))],
          ["UI modules: Ink, React, yoga, the App (→ UI loaded)", ms(between("config-loaded", "ui-loaded"))],
          ["session, transcript, first Ink render (→ render() returned)", ms(between("ui-loaded", "first-render"))],
          [
            "render() returned → frame seen in the terminal's input (negative: Ink writes the frame inside render(), then runs its effects)",
            ms(toScreen),
          ],
          ["**process start → first drawn frame** (servers `connecting…`, prompt live)", ms(total)],
          ["pane released (tmux wait-for) → first drawn frame", ms(med((s) => s.launchToFrame))],
          [
            "behind the first frame — demo server process spawned (host start → servers spawned)",
            ms(between("host-start", "servers-spawned")),
          ],
          [
            "behind the first frame — host code load + discovery + tools/list while the server boots (host start → host ready)",
            ms(between("host-start", "host-ready")),
          ],
          ["  the demo server's own boot (bare spawn → first discover answer, measured apart)", ms(boot)],
          ["process start → status bar shows `demo 2026-12-01 connected`", ms(med((s) => s.processToConnected))],
          [
            `cold: process start → first drawn frame with an empty cache directory (median of ${coldReps})`,
            ms(median(cold.map((s) => s.processToFrame))),
          ],
          [
            "cold: launcher and chunks compiled without a cache (→ app `run()`)",
            ms(
              median(
                cold.map((s) => (s.marks["app-run"] ?? NaN) - (s.marks["node-ready"] ?? NaN)).filter(Number.isFinite),
              ),
            ),
          ],
        ],
      },
      piecesTable(warm, coldOf),
      REMOVED_D3,
      REMOVED,
    ],
    targets,
    notes: [],
  };
}

/** The pieces table: each piece's median first frame with and without it, warm and cold. */
function piecesTable(warm: Map<string, Sample[]>, cold: Map<string, Sample[]>): Table {
  const med = (m: Map<string, Sample[]>, key: string) =>
    median((m.get(key) ?? []).map((s) => s.processToFrame).filter(Number.isFinite));
  const medConnected = (key: string) =>
    median((warm.get(key) ?? []).map((s) => s.processToConnected).filter(Number.isFinite));
  return {
    caption:
      "Each start-up piece with and without it (process start → first drawn frame, medians; Δ = without − with; warm: the variant's cache directory written by its warm-up start, cold: an empty cache directory)",
    head: [
      "piece",
      "warm with",
      "warm without",
      "Δ warm",
      "cold with",
      "cold without",
      "Δ cold",
      "Δ to `connected` (warm)",
      "≥ 50 ms or needed for ≤ 400 ms cold?",
    ],
    rows: PIECES.map((p) => {
      const dw = med(warm, p.without) - med(warm, p.with);
      const dc = med(cold, p.without) - med(cold, p.with);
      const needed = med(cold, p.without) > 400 && med(cold, p.with) <= 400;
      return [
        p.piece,
        ms(med(warm, p.with)),
        ms(med(warm, p.without)),
        ms(dw),
        ms(med(cold, p.with)),
        ms(med(cold, p.without)),
        ms(dc),
        ms(medConnected(p.without) - medConnected(p.with)),
        dw >= 50 || dc >= 50 || needed ? "pays" : "does not pay",
      ];
    }),
  };
}
