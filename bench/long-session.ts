import type { BenchOptions, Section } from "./lib/report.js";
export async function longSessionBench(_: BenchOptions): Promise<Section> {
  throw new Error("not written yet");
}
