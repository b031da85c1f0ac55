// What every bench module returns, and the small statistics they share.
export type Cell = string | number;
export interface Table {
  caption?: string;
  head: string[];
  rows: Cell[][];
}
/** One target line: met or MISSED, with the figure that decides it. Never a pass/fail exit. */
export interface Target {
  name: string;
  target: string;
  figure: string;
  met: boolean;
}
export interface Section {
  id: string;
  title: string;
  /** Paragraphs above the tables (method, repetitions, caveats). */
  intro: string[];
  tables: Table[];
  targets: Target[];
  notes: string[];
}
export interface BenchOptions {
  quick: boolean;
  log: (line: string) => void;
}
export type BenchModule = (opts: BenchOptions) => Promise<Section>;

export function median(xs: readonly number[]): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export function fmt(n: number, digits = 2): string {
  if (!Number.isFinite(n)) return String(n);
  return n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}
export const int = (n: number) => Math.round(n).toLocaleString("en-US");
export const ratio = (n: number) => `${fmt(n, 3)}×`;
export const ms = (n: number) => `${fmt(n, n < 1 ? 3 : 2)} ms`;

/** Times one synchronous or async call in milliseconds. */
export async function timeIt(fn: () => unknown): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

export function gc(): void {
  const g = (globalThis as { gc?: () => void }).gc;
  if (g) {
    g();
    g();
  }
}

export function markdownTable(t: Table): string {
  const esc = (c: Cell) => String(c).replace(/\|/g, "\\|").replace(/\n/g, " ");
  const lines = [
    `| ${t.head.map(esc).join(" | ")} |`,
    `|${t.head.map((_, i) => (i === 0 ? "---" : "---:")).join("|")}|`,
  ];
  for (const r of t.rows) lines.push(`| ${r.map(esc).join(" | ")} |`);
  return (t.caption ? `${t.caption}\n\n` : "") + lines.join("\n");
}

export function targetLine(t: Target): string {
  return `- **${t.name}** — target ${t.target}: ${t.met ? "target met" : "**MISSED**"} (${t.figure})`;
}
