// What a server may put in front of the model is bounded per server: its instructions, each tool
// description, each inputSchema (size and depth), and all of its tool definitions together. A cut
// is one notice line for the user (once per conversation); nothing here throws on hostile input
// (the schema walk is iterative, so a 10,000-level schema costs a loop, not the stack).
import type { ToolEntry } from "../host/types.js";
import type { ModelToolSpec } from "./adapter.js";
import type { ExposedTool } from "./tool-names.js";

export const MODEL_BOUNDS = {
  /** Characters of one server's instructions in the system prompt. */
  instructionsChars: 8_000,
  /** Characters of one tool's description. */
  descriptionChars: 2_000,
  /** Approximate JSON bytes of one inputSchema; a larger one leaves its tool out. */
  schemaBytes: 32 * 1024,
  /** Nesting depth of one inputSchema; a deeper one leaves its tool out. */
  schemaDepth: 32,
  /** All of one server's tool definitions (names, descriptions, schemas) together. */
  serverToolBytes: 256 * 1024,
} as const;

type Bounded = { spec: Omit<ModelToolSpec, "name">; bytes: number; cut: boolean } | { omit: string };
/** Per listing entry (stable objects while the listing is cached): computed once, not per turn. */
const memo = new WeakMap<ToolEntry, Bounded>();

/** The JSON size (approximate: keys, strings, 8 per scalar) and depth of a value, stopping past the bounds. */
export function measureJson(
  value: unknown,
  maxBytes: number,
  maxDepth: number,
): { bytes: number; depth: number; over?: "bytes" | "depth" } {
  const stack: [unknown, number][] = [[value, 1]];
  let bytes = 0;
  let depth = 0;
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (d > depth) depth = d;
    if (depth > maxDepth) return { bytes, depth, over: "depth" };
    if (typeof v === "string") bytes += v.length + 2;
    else if (v === null || typeof v !== "object") bytes += 8;
    else if (Array.isArray(v)) {
      bytes += 2 + v.length;
      for (const x of v) stack.push([x, d + 1]);
    } else {
      for (const k in v as Record<string, unknown>) {
        bytes += k.length + 4;
        stack.push([(v as Record<string, unknown>)[k], d + 1]);
      }
      bytes += 2;
    }
    if (bytes > maxBytes) return { bytes, depth, over: "bytes" };
  }
  return { bytes, depth };
}

function cutText(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max)}… [cut: ${max} of ${s.length} characters]` : s;
}

function bound(entry: ToolEntry): Bounded {
  const hit = memo.get(entry);
  if (hit) return hit;
  const m = measureJson(entry.inputSchema, MODEL_BOUNDS.schemaBytes, MODEL_BOUNDS.schemaDepth);
  let b: Bounded;
  if (m.over === "depth") b = { omit: `its inputSchema nests deeper than ${MODEL_BOUNDS.schemaDepth} levels` };
  else if (m.over === "bytes") b = { omit: `its inputSchema is over ${MODEL_BOUNDS.schemaBytes / 1024} KB` };
  else {
    const full = entry.description ?? entry.title;
    const description = full === undefined ? undefined : cutText(full, MODEL_BOUNDS.descriptionChars);
    const bytes = m.bytes + (description?.length ?? 0) + entry.name.length;
    b = { spec: { description, inputSchema: entry.inputSchema }, bytes, cut: description !== full };
  }
  memo.set(entry, b);
  return b;
}

export interface BoundedTools {
  tools: ModelToolSpec[];
  /** One line per server whose tool definitions were cut or left out. */
  notices: string[];
}

/** The tool definitions sent to the model, bounded per tool and per server. */
export function boundTools(exposed: readonly ExposedTool[]): BoundedTools {
  const tools: ModelToolSpec[] = [];
  const perServer = new Map<string, { bytes: number; cut: number; omitted: string[]; overBudget: number }>();
  for (const { name, entry } of exposed) {
    let s = perServer.get(entry.server);
    if (!s) perServer.set(entry.server, (s = { bytes: 0, cut: 0, omitted: [], overBudget: 0 }));
    const b = bound(entry);
    if ("omit" in b) {
      s.omitted.push(`${entry.name} (${b.omit})`);
      continue;
    }
    if (s.bytes + b.bytes > MODEL_BOUNDS.serverToolBytes) {
      s.overBudget++;
      continue;
    }
    s.bytes += b.bytes;
    if (b.cut) s.cut++;
    tools.push({ name, ...b.spec });
  }
  const notices: string[] = [];
  for (const [server, s] of perServer) {
    const parts: string[] = [];
    if (s.cut)
      parts.push(`${s.cut} tool description${s.cut > 1 ? "s" : ""} cut to ${MODEL_BOUNDS.descriptionChars} characters`);
    if (s.omitted.length)
      parts.push(
        `left out ${s.omitted.slice(0, 3).join(", ")}${s.omitted.length > 3 ? ` and ${s.omitted.length - 3} more` : ""}`,
      );
    if (s.overBudget)
      parts.push(
        `left out ${s.overBudget} tool${s.overBudget > 1 ? "s" : ""} past the ${MODEL_BOUNDS.serverToolBytes / 1024} KB of tool definitions a server may send`,
      );
    if (parts.length) notices.push(`server ${server}: for the model, ${parts.join("; ")}`);
  }
  return { tools, notices };
}

/** One server's instructions as the system prompt carries them, and the notice if they were cut. */
export function boundInstructions(server: string, text: string): { text: string; notice?: string } {
  const t = text.trim();
  if (t.length <= MODEL_BOUNDS.instructionsChars) return { text: t };
  return {
    text: cutText(t, MODEL_BOUNDS.instructionsChars),
    notice: `server ${server}: its instructions (${t.length} characters) were cut to ${MODEL_BOUNDS.instructionsChars} for the model`,
  };
}
