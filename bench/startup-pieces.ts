// The start-up pieces, each measured with and without it in the same run: a variant is the real
// build with something turned off by an environment variable. bench/startup.ts starts the
// variants in turn, round after round, so a machine loaded by other work weighs on all alike.
// (Variant builds with a piece left out of the bundle went with that bundle's pieces: decision D3.)
import { BIN } from "./lib/demo.js";
import type { Table } from "./lib/report.js";

export interface Variant {
  key: string;
  /** The launcher to run. */
  bin: string;
  env?: Record<string, string>;
}

export interface Piece {
  piece: string;
  /** Variant keys: the build with the piece and the build without it. */
  with: string;
  without: string;
}

interface VariantSpec {
  key: string;
  env?: Record<string, string>;
}

const SPECS: VariantSpec[] = [{ key: "full" }, { key: "no-compile-cache", env: { MCP_PRISM_CODE_CACHE: "0" } }];

export const PIECES: Piece[] = [
  {
    piece:
      "node's compile cache (module.enableCompileCache, Node ≥ 22.1; MCP_PRISM_CODE_CACHE=0 without; nothing on Node 20)",
    with: "full",
    without: "no-compile-cache",
  },
];

/**
 * The first-frame pieces removed on 2026-12-04 (decision D3), as this bench measured them the
 * same day on a quiet machine, one run per Node version (process start → first drawn frame,
 * medians of 15, ms; Node 24 with its compile cache on). None bought the 100 ms the issue asked
 * for on both; the code is gone.
 */
export const REMOVED_D3: Table = {
  caption:
    "Removed on 2026-12-04 (decision D3) — each piece with and without it, measured that day on Node 20.20.2 and Node 24.22.3 (process start → first drawn frame, medians of 15, ms)",
  head: ["piece", "Node 20 Δ warm", "Node 20 Δ cold", "Node 24 Δ warm", "Node 24 Δ cold", "decision"],
  rows: [
    [
      "tui.cjs: the CommonJS first-frame bundle run through vm.Script with its V8 code cache, import() rewrite, globalThis registries (without: the app's ES module chunks)",
      "+60",
      "+11",
      "+38",
      "+6",
      "removed: under 100 ms on both. All four together, before → after the removal: 159 → 260 ms warm on Node 20 (+101), 104 → 194 ms on Node 24 (+90); cold 209 → 267 and 161 → 217",
    ],
    ["its V8 code cache alone (MCP_PRISM_CODE_CACHE=0)", "+56", "+5", "+58", "−2", "removed with tui.cjs"],
    ["string-width patch (emoji pre-check, RGI pattern built on first use)", "+25", "+25", "+25", "+21", "removed"],
    [
      "yoga-layout patches (WASM instantiated synchronously, no fetch() or top-level await), on the ES module app",
      "+24",
      "+23",
      "+30",
      "+34",
      "removed",
    ],
    ["Ink devtools patch (a top-level await tui.cjs could not hold)", "", "", "", "", "removed with tui.cjs"],
  ],
};

/**
 * The pieces removed on 2026-12-01, as this bench measured them before (two runs of 15
 * alternating rounds on a machine shared with other work, load 12–19, so every figure is
 * inflated 3–4× against an idle run; the deltas are what decided). Kept as a record: the code
 * they measured is gone.
 */
export const REMOVED: Table = {
  caption:
    "Removed on 2026-12-01 — measured with and without by this bench before the removal (process start → first drawn frame, medians, ms; load 12–19)",
  head: ["piece", "warm with", "warm without", "Δ warm", "cold with", "cold without", "Δ cold", "decision"],
  rows: [
    [
      "CommonJS launcher (bin/mcp-prism.js requiring app-launch.cjs to run tui.cjs before node's ES module loader), run 1",
      "679",
      "708",
      "+29",
      "791",
      "899",
      "+108",
      "removed: < 50 ms warm in both runs (cold within noise: ±60 ms between runs)",
    ],
    [
      "CommonJS launcher, run 2",
      "689",
      "705",
      "+15",
      "814",
      "850",
      "+36",
      "(bin is an ES module; main() runs tui.cjs)",
    ],
    ["signal-exit patch (assert loaded only on a failed check)", "679", "629", "−51", "791", "819", "+29", "removed"],
    [
      "zod patch (English messages only; loads after the first frame)",
      "679",
      "636",
      "−44",
      "791",
      "855",
      "+65",
      "removed: not on the first frame's path (Δ to connected +98 ms, within noise)",
    ],
    [
      "Ink patch (no devtools import), on the ES module app",
      "936",
      "888",
      "−48",
      "879",
      "907",
      "+27",
      "kept, not for speed: tui.cjs cannot hold Ink's top-level await",
    ],
  ],
};

/** The variants: the real build, with and without each piece's environment variable. */
export function buildVariants(): Variant[] {
  return SPECS.map((spec) => ({ key: spec.key, bin: BIN, env: spec.env }));
}
