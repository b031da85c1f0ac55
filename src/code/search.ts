// `tools.$search(query)` inside a script: the tools whose name, server or description match the
// query's words, best first, each with its TypeScript signature (declarations.ts). A local index
// built once per tool list; no server is asked. Bounded: a query is cut at MAX_QUERY_CHARS, the
// answer at MAX_MATCHES tools.
import type { ToolEntry } from "../host/types.js";
import { toolDeclaration } from "./declarations.js";

const MAX_QUERY_CHARS = 500;
export const MAX_MATCHES = 10;

interface Indexed {
  entry: ToolEntry;
  name: Set<string>;
  text: Set<string>;
}

/** Lower-case words, names split at `_`, `-`, `.` and camelCase. */
export function words(s: string): string[] {
  return s
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1);
}

const indexes = new WeakMap<readonly ToolEntry[], Indexed[]>();

function indexOf(tools: readonly ToolEntry[]): Indexed[] {
  let hit = indexes.get(tools);
  if (!hit) {
    hit = tools.map((entry) => ({
      entry,
      name: new Set([...words(entry.qualifiedName), ...words(entry.server)]),
      text: new Set(words(`${entry.title ?? ""} ${entry.description ?? ""}`)),
    }));
    indexes.set(tools, hit);
  }
  return hit;
}

export interface SearchMatch {
  name: string;
  server: string;
  signature: string;
}

/** The best matches for `query` (a word in a name counts three times one in a description; prefixes count half). */
export function searchTools(tools: readonly ToolEntry[], query: string): SearchMatch[] {
  const terms = [...new Set(words(String(query).slice(0, MAX_QUERY_CHARS)))];
  if (!terms.length) return [];
  const scored: { t: Indexed; score: number }[] = [];
  for (const t of indexOf(tools)) {
    let score = 0;
    for (const w of terms) {
      if (t.name.has(w)) score += 3;
      else if ([...t.name].some((n) => n.startsWith(w) || w.startsWith(n))) score += 1.5;
      if (t.text.has(w)) score += 1;
    }
    if (score > 0) scored.push({ t, score });
  }
  scored.sort((a, b) => b.score - a.score || a.t.entry.qualifiedName.localeCompare(b.t.entry.qualifiedName));
  return scored.slice(0, MAX_MATCHES).map(({ t }) => ({
    name: t.entry.qualifiedName,
    server: t.entry.server,
    signature: toolDeclaration(t.entry).trim(),
  }));
}
