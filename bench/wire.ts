import type { BenchOptions, Section } from "./lib/report.js";
export async function wireBench(_: BenchOptions): Promise<Section> {
  throw new Error("not written yet");
}
