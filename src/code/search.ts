// `tools.$search(query)` inside a script: the best matches for the query's words, each with its
// TypeScript signature (declarations.ts), from the same local index as the model's tool search
// (host/catalog/tool-index.ts: BM25 over names, parameter names and descriptions), built once per
// tool list; no server is asked. Bounded: a query is cut at MAX_QUERY_CHARS, the answer at
// MAX_MATCHES tools.
import { ToolIndex } from "../host/catalog/tool-index.js";
import type { ToolEntry } from "../host/types.js";
import { toolDeclaration } from "./declarations.js";

const MAX_QUERY_CHARS = 500;
export const MAX_MATCHES = 10;

interface Indexed {
  index: ToolIndex;
  byName: Map<string, ToolEntry>;
}

const indexes = new WeakMap<readonly ToolEntry[], Indexed>();

function indexOf(tools: readonly ToolEntry[]): Indexed {
  let hit = indexes.get(tools);
  if (!hit) {
    // Scripts call tools by their qualified names: those are what the index holds and answers.
    hit = {
      index: new ToolIndex(
        tools.map((t) => ({
          name: t.qualifiedName,
          server: t.server,
          description: [t.title, t.description].filter(Boolean).join("\n"),
          inputSchema: t.inputSchema as { [key: string]: unknown },
        })),
      ),
      byName: new Map(tools.map((t) => [t.qualifiedName, t])),
    };
    indexes.set(tools, hit);
  }
  return hit;
}

export interface SearchMatch {
  name: string;
  server: string;
  signature: string;
}

/** The best matches for `query`, best first, with their signatures. */
export function searchTools(tools: readonly ToolEntry[], query: string): SearchMatch[] {
  const { index, byName } = indexOf(tools);
  return index.search(String(query).slice(0, MAX_QUERY_CHARS), { limit: MAX_MATCHES }).flatMap((m) => {
    const entry = byName.get(m.name);
    return entry ? [{ name: m.name, server: m.server, signature: toolDeclaration(entry).trim() }] : [];
  });
}
