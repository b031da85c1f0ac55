// The local tool search index (no network, no embeddings): BM25 over each tool's name, its
// description and its parameter names, the name weighted most, kept as an inverted index so a
// query costs what its terms' postings hold, not a walk over every tool. Words are split on case, digits and
// punctuation ("browser_take_screenshot" → browser take screenshot) and lightly stemmed
// ("screenshots", "taking" match "screenshot", "take"), so a plain request finds the real servers' tools.

export interface IndexedTool {
  /** The name the model uses. */
  name: string;
  server: string;
  description?: string;
  inputSchema?: { [key: string]: unknown };
}

export interface ToolMatch {
  name: string;
  server: string;
  /** The description's first line, at most 160 characters. */
  line: string;
  score: number;
}

const STOP = new Set(
  "a an and are as at be by do for from how i in is it its me my of on or please that the this to with you your can could would should will".split(
    " ",
  ),
);
const FIELD_WEIGHT = { name: 3, params: 1.5, description: 1 } as const;
const K1 = 1.2;
const B = 0.75;

/** "browser_takeScreenshot2x" → ["browser", "take", "screenshot", "2x"], stemmed, stop words out. */
export function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w && !STOP.has(w))
    .map(stem);
}

function stem(word: string): string {
  const w = strip(word);
  // "take"/"taking", "create"/"created": a final e is dropped after the suffixes.
  return w.length > 3 && w.endsWith("e") ? w.slice(0, -1) : w;
}

function strip(w: string): string {
  if (w.length > 5 && w.endsWith("ies")) return `${w.slice(0, -3)}y`;
  if (w.length > 5 && w.endsWith("ing")) return w.slice(0, -3).replace(/(.)\1$/, "$1");
  if (w.length > 4 && w.endsWith("ed")) return w.slice(0, -2).replace(/(.)\1$/, "$1");
  if (w.length > 3 && w.endsWith("es") && /(sh|ch|x|ss)es$/.test(w)) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith("s") && !w.endsWith("ss")) return w.slice(0, -1);
  return w;
}

function paramNames(schema: IndexedTool["inputSchema"]): string {
  const p = schema?.properties as unknown;
  return p && typeof p === "object" && !Array.isArray(p) ? Object.keys(p).slice(0, 100).join(" ") : "";
}

function firstLine(s: string | undefined): string {
  const line = (s ?? "").trim().split("\n")[0].trim();
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}

interface Doc {
  tool: IndexedTool;
  /** The weighted length of its fields. */
  length: number;
}

/** One tool holding a term, with the term's weighted frequency there. */
interface Posting {
  doc: number;
  f: number;
}

export class ToolIndex {
  private readonly docs: Doc[] = [];
  /** Term → the tools holding it (an inverted index: a query visits only those). */
  private readonly postings = new Map<string, Posting[]>();
  private avgLength = 1;

  constructor(tools: readonly IndexedTool[]) {
    let total = 0;
    for (const tool of tools) {
      const tf = new Map<string, number>();
      let length = 0;
      const add = (text: string, weight: number) => {
        for (const w of words(text)) {
          tf.set(w, (tf.get(w) ?? 0) + weight);
          length += weight;
        }
      };
      add(tool.name, FIELD_WEIGHT.name);
      add(paramNames(tool.inputSchema), FIELD_WEIGHT.params);
      add((tool.description ?? "").slice(0, 4000), FIELD_WEIGHT.description);
      const doc = this.docs.length;
      for (const [w, f] of tf) {
        const list = this.postings.get(w);
        if (list) list.push({ doc, f });
        else this.postings.set(w, [{ doc, f }]);
      }
      this.docs.push({ tool, length });
      total += length;
    }
    this.avgLength = this.docs.length ? Math.max(1, total / this.docs.length) : 1;
  }

  get size(): number {
    return this.docs.length;
  }

  /** The best matches for `query` (only `server`'s tools when given), best first. */
  search(query: string, opts: { server?: string; limit?: number } = {}): ToolMatch[] {
    const terms = [...new Set(words(query.slice(0, 1000)))].slice(0, 32);
    const n = this.docs.length;
    // Scores by tool, and the tools touched (so the work is the postings', not the whole set's).
    const scores = new Float64Array(n);
    const touched: number[] = [];
    for (const t of terms) {
      const list = this.postings.get(t);
      if (!list) continue;
      const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
      for (const { doc, f } of list) {
        const d = this.docs[doc];
        if (opts.server !== undefined && d.tool.server !== opts.server) continue;
        if (scores[doc] === 0) touched.push(doc);
        scores[doc] += (idf * f * (K1 + 1)) / (f + K1 * (1 - B + (B * d.length) / this.avgLength));
      }
    }
    // The best `limit`, kept in order as the scores go by (a full sort would cost M log M).
    const limit = Math.max(0, opts.limit ?? 8);
    const best: { doc: number; score: number }[] = [];
    const before = (a: { doc: number; score: number }, b: { doc: number; score: number }) =>
      a.score > b.score ||
      (a.score === b.score && this.docs[a.doc].tool.name.localeCompare(this.docs[b.doc].tool.name) < 0);
    for (const doc of touched) {
      const score = scores[doc];
      if (score <= 0 || limit === 0) continue;
      const c = { doc, score };
      if (best.length === limit && !before(c, best[limit - 1])) continue;
      let i = Math.min(best.length, limit - 1);
      if (best.length < limit) best.push(c);
      while (i > 0 && before(c, best[i - 1])) {
        best[i] = best[i - 1];
        i--;
      }
      best[i] = c;
    }
    return best.map(({ doc, score }) => {
      const { tool } = this.docs[doc];
      return { name: tool.name, server: tool.server, line: firstLine(tool.description), score };
    });
  }
}
