// Figure 7 — the era cache: connecting to a legacy stdio server that ignores requests it does not
// know (the misbehaving fixture's `silent` era: server/discover is never answered, initialize is).
// The first connect has no remembered era: the probe waits limits.discoverTimeoutMs (default
// 3 s) before initialize; the second starts from the cache and sends initialize at once. Each
// repetition uses a fresh cache directory; both connects spawn the same process (boot included).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_LIMITS } from "../src/host/config/config.js";
import { EraCache } from "../src/host/connection/era-cache.js";
import { Host } from "../src/host/host.js";
import { fixtureServer } from "../test/helpers/host-fixtures.js";
import { fmt, median, ms, ratio, type BenchOptions, type Section } from "./lib/report.js";

async function connectMs(cache: EraCache): Promise<{ ms: number; era: string | undefined }> {
  const t0 = performance.now();
  const host = await Host.start({
    config: { source: "bench", servers: { legacy: fixtureServer("silent") }, limits: { ...DEFAULT_LIMITS } },
    eraCache: cache,
  });
  const took = performance.now() - t0;
  const era = host.servers()[0].era;
  await host.close();
  return { ms: took, era };
}

export async function eraBench({ quick, log }: BenchOptions): Promise<Section> {
  const reps = quick ? 2 : 5;
  const first: number[] = [];
  const second: number[] = [];
  for (let i = 0; i < reps; i++) {
    const dir = mkdtempSync(join(tmpdir(), "prism-bench-era-"));
    try {
      const cache = new EraCache(dir);
      const a = await connectMs(cache);
      const b = await connectMs(cache);
      if (a.era !== "legacy" || b.era !== "legacy")
        throw new Error(`expected legacy twice, got ${a.era} then ${b.era}`);
      first.push(a.ms);
      second.push(b.ms);
      log(`era: rep ${i + 1}/${reps}: first ${fmt(a.ms, 0)} ms, second ${fmt(b.ms, 0)} ms`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const f = median(first);
  const s = median(second);
  return {
    id: "era",
    title: "7. Era cache: reconnecting to a legacy server",
    intro: [
      `Host.start → connected, to a legacy stdio server (node + tsx, the test fixture's \`silent\` era) that never answers \`server/discover\`, with the default probe timeout (${DEFAULT_LIMITS.discoverTimeoutMs} ms). First connect: nothing remembered, so the probe times out before \`initialize\`. Second connect: the era cache ($XDG_STATE_HOME/mcp-prism/eras.json) says legacy, so \`initialize\` goes first and no probe is sent. ${reps} repetitions, each with a fresh cache; medians. Both include spawning and booting the server.`,
    ],
    tables: [
      {
        head: ["connect", "median", "runs"],
        rows: [
          ["first (probe, then initialize)", ms(f), first.map((x) => fmt(x, 0)).join(", ")],
          ["second (remembered legacy: initialize only)", ms(s), second.map((x) => fmt(x, 0)).join(", ")],
          ["second / first", ratio(s / f), ""],
        ],
      },
    ],
    targets: [
      {
        name: "remembered legacy connect",
        target: "second connect ≤ 0.5× the first",
        figure: `${ratio(s / f)} (${fmt(s, 0)} ms vs ${fmt(f, 0)} ms)`,
        met: s <= 0.5 * f,
      },
    ],
    notes: [],
  };
}
