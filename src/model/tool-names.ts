// Tool names as the model sees them: unique across servers, valid for the provider
// (Anthropic: ^[a-zA-Z0-9_-]{1,64}$), and mapped back exactly to (server, tool).
import { createRequire } from "node:module";
import type { ToolEntry } from "../host/types.js";

// node:crypto is loaded on the first hash (a name clash), not with the app (~5–9 ms of its start).
const require = createRequire(import.meta.url);

export const MODEL_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX = 64;
const HASH_LEN = 6;

export interface ExposedTool {
  /** The provider-valid, unique name the model uses. */
  name: string;
  entry: ToolEntry;
}

export interface ToolNameMap {
  tools: ExposedTool[];
  /** The tool a model-given name refers to, or undefined. */
  resolve(name: string): ToolEntry | undefined;
}

function shortHash(entry: ToolEntry): string {
  const { createHash } = require("node:crypto") as typeof import("node:crypto");
  return createHash("sha256").update(`${entry.server}\0${entry.name}`).digest("hex").slice(0, HASH_LEN);
}

function sanitize(name: string): string {
  const s = name.replace(/[^a-zA-Z0-9_-]/g, "_");
  return s.length ? s : "tool";
}

function withHash(base: string, entry: ToolEntry): string {
  return `${base.slice(0, MAX - HASH_LEN - 1)}_${shortHash(entry)}`;
}

/** Builds the name map. Deterministic: the same tools give the same names. */
export function buildToolNameMap(entries: readonly ToolEntry[]): ToolNameMap {
  const used = new Map<string, ToolEntry>();
  const tools: ExposedTool[] = [];
  // Names that need no change first, so a clean name never loses to a sanitized one.
  const ordered = [...entries].sort((a, b) => rank(a) - rank(b));
  for (const entry of ordered) {
    let name = sanitize(entry.qualifiedName || entry.name);
    if (name.length > MAX || used.has(name)) name = withHash(name, entry);
    // A hash collision is astronomically unlikely; still never hand out a name twice.
    for (let i = 2; used.has(name) && i < 1000; i++) name = `${name.slice(0, MAX - 4)}_${i}`;
    used.set(name, entry);
    tools.push({ name, entry });
  }
  // Keep the executor's order for the model (stable prompts).
  const order = new Map(entries.map((e, i) => [e, i]));
  tools.sort((a, b) => order.get(a.entry)! - order.get(b.entry)!);
  return { tools, resolve: (name) => used.get(name) };
}

function rank(e: ToolEntry): number {
  return MODEL_TOOL_NAME.test(e.qualifiedName || e.name) ? 0 : 1;
}
