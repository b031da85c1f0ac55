// The start-up pieces, each measured with and without it in the same run (issue 21: keep what
// buys ≥ 50 ms of median first frame or is needed to stay ≤ 400 ms cold). A variant is a build
// with something left out (scripts/bundle.js: PRISM_BUNDLE_OUT, PRISM_BUNDLE_WITHOUT) in a root
// of its own under a temporary directory, whose bin/ is a copy (node runs a launcher from its real
// path, and the launcher finds dist/ next to it) and whose package.json, src/ and node_modules/
// link the worktree's; or the real build with an environment variable. bench/startup.ts starts the
// variants in turn, round after round, so a machine loaded by other work weighs on all alike.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { BIN, ROOT } from "./lib/demo.js";
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
  /** PRISM_BUNDLE_WITHOUT for a variant build; absent: the worktree's own dist/. */
  buildWithout?: string[];
  env?: Record<string, string>;
}

const SPECS: VariantSpec[] = [
  { key: "full" },
  { key: "no-code-cache", env: { MCP_PRISM_CODE_CACHE: "0" } },
  { key: "esm-app", buildWithout: ["tui-cjs"] },
  { key: "no-string-width", buildWithout: ["string-width"] },
  // tui.cjs cannot hold the top-level await the yoga patches remove: measured on the ES module app.
  { key: "esm-app-no-yoga", buildWithout: ["tui-cjs", "yoga"] },
];

export const PIECES: Piece[] = [
  { piece: "V8 code cache of tui.cjs (MCP_PRISM_CODE_CACHE=0 without)", with: "full", without: "no-code-cache" },
  {
    piece:
      "tui.cjs: the CommonJS first-frame bundle with its code cache, import() rewrite and globalThis registries (without: the app's ES module chunks)",
    with: "full",
    without: "esm-app",
  },
  {
    piece: "string-width patch: emoji pre-check, RGI pattern built on first use",
    with: "full",
    without: "no-string-width",
  },
  {
    piece:
      "yoga-layout patches: WASM instantiated synchronously, without fetch() (undici) or a top-level await (on the ES module app)",
    with: "esm-app",
    without: "esm-app-no-yoga",
  },
];

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

/** Builds every variant under `dir` (the worktree's dist/ must be built). */
export function buildVariants(dir: string, log: (l: string) => void): Variant[] {
  return SPECS.map((spec) => {
    const root = join(dir, spec.key);
    if (!spec.buildWithout) return { key: spec.key, bin: BIN, env: spec.env };
    mkdirSync(join(root, "bin"), { recursive: true });
    mkdirSync(join(root, "dist"), { recursive: true });
    copyFileSync(join(ROOT, "bin", "mcp-prism.js"), join(root, "bin", "mcp-prism.js"));
    for (const f of ["package.json", "src", "node_modules"]) symlinkSync(join(ROOT, f), join(root, f));
    log(`startup: building the variant without ${spec.buildWithout.join(", ")}`);
    execFileSync(process.execPath, ["scripts/bundle.js"], {
      cwd: ROOT,
      env: {
        ...process.env,
        PRISM_BUNDLE_OUT: join(root, "dist", "bundle"),
        PRISM_BUNDLE_WITHOUT: spec.buildWithout.join(","),
      },
      stdio: ["ignore", "ignore", "inherit"],
    });
    return { key: spec.key, bin: join(root, "bin", "mcp-prism.js"), env: spec.env };
  });
}
