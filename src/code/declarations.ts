// TypeScript declarations for `tools` inside a script, generated in process from each tool's
// inputSchema and the schema of what the script will get (script-kinds.ts): the programmatic/
// structured variant's schema (SEP-3279: present the schema of the variant that will be
// requested), a legacy outputSchema, or `ToolText` for untyped tools. Grouped by server, each
// tool's kind first in its doc comment. Servers are declared whole while DECLARATION_BUDGET lasts;
// for the rest the model gets their tool names and `tools.$search(query)` (search.ts).
// `$ref`s resolve only within the same schema document (`#/...`); anything else, a cycle, or
// nesting past MAX_DEPTH is `unknown`. Bounded: each tool's text is cut at MAX_TOOL_CHARS.
// Cached per tool entry (a new listing makes new entries) and per tool list.
import { P_STRUCTURED } from "../host/policy/types.js";
import type { ToolEntry } from "../host/types.js";
import { isObject } from "../protocol/is-object.js";
import { scriptKind, scriptTools } from "./script-kinds.js";

const MAX_DEPTH = 12;
const MAX_TOOL_CHARS = 8_000;
/** Every declaration is listed up to this many characters in all; past it, names and `$search`. */
export const DECLARATION_BUDGET = 24_000;
/** The names listed per server when `$search` stands in for the declarations. */
const MAX_NAME_CHARS = 6_000;
const MAX_DOC_CHARS = 400;
const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

type Schema = Record<string, unknown>;

/** Declared once, before `tools`: what an untyped tool and `$search` give, and `display`. */
const PREAMBLE = [
  'type Block = {type: "text"; text: string} | {type: "image"; data: string; mimeType: string} | {type: string; [key: string]: unknown};',
  "/** An untyped tool's result: its text blocks joined, and the blocks as sent. */",
  "type ToolText = {text: string; content: Block[]};",
  "/** Shows an image block to the user (never to the model). */",
  "declare function display(image: Block): Promise<void>;",
];

const byTool = new WeakMap<ToolEntry, string>();
let lastList: { entries: ToolEntry[]; text: string } | undefined;

/** The declarations for every tool a script can call (cached while the list holds the same entries). */
export function declarationsFor(tools: readonly ToolEntry[]): string {
  const entries = scriptTools(tools);
  if (lastList && lastList.entries.length === entries.length && lastList.entries.every((e, i) => e === entries[i]))
    return lastList.text;
  const servers = new Map<string, ToolEntry[]>();
  for (const t of entries) servers.set(t.server, [...(servers.get(t.server) ?? []), t]);
  // Each server's block in full while the budget lasts; the servers past it by name, with $search.
  const members: string[] = [];
  const named = new Map<string, ToolEntry[]>();
  let total = 0;
  for (const [server, list] of servers) {
    const block = [`  // server ${server}`, ...list.map(toolDeclaration)];
    const size = block.reduce((n, l) => n + l.length, 0);
    if (total + size <= DECLARATION_BUDGET) {
      members.push(...block);
      total += size;
    } else named.set(server, list);
  }
  if (named.size) members.push(...searchMembers(named));
  const text = [...PREAMBLE, "declare const tools: {", ...members, "};"].join("\n");
  lastList = { entries, text };
  return text;
}

/** The servers past the budget: their tool names (bounded) and `$search`, which gives signatures. */
function searchMembers(servers: Map<string, ToolEntry[]>): string[] {
  const out = [
    `  /** Too many to declare here: the tools named below. Search them by what they do: each match's name, server and TypeScript signature. Call any tool as tools[name](args). */`,
    "  $search(query: string): Promise<{name: string; server: string; signature: string}[]>;",
  ];
  let used = 0;
  for (const [server, list] of servers) {
    const names: string[] = [];
    for (const t of list) {
      if (used + t.qualifiedName.length > MAX_NAME_CHARS) break;
      names.push(t.qualifiedName);
      used += t.qualifiedName.length + 2;
    }
    const more = list.length - names.length;
    out.push(`  // server ${server}: ${names.join(", ")}${more ? ` and ${more} more` : ""}`);
  }
  return out;
}

/** One member of `tools`: its doc comment (kind first) and signature. */
export function toolDeclaration(t: ToolEntry): string {
  const hit = byTool.get(t);
  if (hit !== undefined) return hit;
  const kind = scriptKind(t) ?? "text";
  const variant = t.variants.find((v) => v.audience === P_STRUCTURED.audience && v.format === "structured");
  const schema =
    kind === "structured"
      ? variant && variant.format === "structured" && variant.schema
      : kind === "outputSchema"
        ? t.legacyOutputSchema
        : undefined;
  const output = isObject(schema) ? schema : undefined;
  const name = IDENT.test(t.qualifiedName) ? t.qualifiedName : JSON.stringify(t.qualifiedName);
  const input = typeOf(t.inputSchema as Schema, t.inputSchema as Schema, 1, new Set());
  const out = kind === "text" ? "ToolText" : output ? typeOf(output, output, 1, new Set()) : "unknown";
  const lead = doc(`[${kind}] ${t.description ?? t.title ?? ""}`);
  let text = `  ${lead}${name}(args: ${input}): Promise<${out}>;`;
  if (text.length > MAX_TOOL_CHARS)
    text = `  ${lead}/* declaration cut: over ${MAX_TOOL_CHARS} characters */ ${name}(args: Record<string, unknown>): Promise<unknown>;`;
  byTool.set(t, text);
  return text;
}

/** A doc comment on one line (`/** … *\/ `), or "" without a description. */
function doc(text: unknown): string {
  if (typeof text !== "string" || !text.trim()) return "";
  const cut = text.length > MAX_DOC_CHARS ? `${text.slice(0, MAX_DOC_CHARS)}…` : text;
  // A doc comment may not close itself early.
  return `/** ${cut.replace(/\*\//g, "*\\/").replace(/\s*\n\s*/g, " ")} */ `;
}

/** The local target of a `$ref` (`#/a/b`, JSON Pointer), or undefined. */
function resolveRef(root: Schema, ref: string): Schema | undefined {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) return undefined;
  let at: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (!isObject(at) || !Object.hasOwn(at, key)) return undefined;
    at = at[key];
  }
  return isObject(at) ? at : undefined;
}

function literal(v: unknown): string {
  return typeof v === "string" || typeof v === "number" || typeof v === "boolean" || v === null
    ? JSON.stringify(v)
    : "unknown";
}

function typeOf(s: unknown, root: Schema, depth: number, seen: Set<Schema>): string {
  if (s === true || s === undefined) return "unknown";
  if (s === false) return "never";
  if (!isObject(s) || depth > MAX_DEPTH) return "unknown";
  if (typeof s.$ref === "string") {
    const target = resolveRef(root, s.$ref);
    if (!target || seen.has(target)) return "unknown";
    const next = new Set(seen).add(target);
    return typeOf(target, root, depth + 1, next);
  }
  if ("const" in s) return literal(s.const);
  if (Array.isArray(s.enum)) return s.enum.slice(0, 50).map(literal).join(" | ") || "never";
  for (const k of ["anyOf", "oneOf"] as const) {
    const list = s[k];
    if (Array.isArray(list) && list.length)
      return list
        .slice(0, 20)
        .map((x) => paren(typeOf(x, root, depth + 1, seen)))
        .join(" | ");
  }
  if (Array.isArray(s.allOf) && s.allOf.length)
    return s.allOf
      .slice(0, 20)
      .map((x) => paren(typeOf(x, root, depth + 1, seen)))
      .join(" & ");
  const types = Array.isArray(s.type)
    ? s.type
    : typeof s.type === "string"
      ? [s.type]
      : s.properties
        ? ["object"]
        : s.items
          ? ["array"]
          : [];
  if (!types.length) return "unknown";
  if (types.length === 1) return oneType(String(types[0]), s, root, depth, seen);
  return types.map((t) => paren(oneType(String(t), s, root, depth, seen))).join(" | ");
}

function paren(t: string): string {
  return / [|&] /.test(t) && !t.startsWith("{") ? `(${t})` : t;
}

function oneType(t: string, s: Schema, root: Schema, depth: number, seen: Set<Schema>): string {
  switch (t) {
    case "string":
      return "string";
    case "integer":
    case "number":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array": {
      if (Array.isArray(s.prefixItems))
        return `[${s.prefixItems
          .slice(0, 20)
          .map((x) => typeOf(x, root, depth + 1, seen))
          .join(", ")}]`;
      return `${paren(typeOf(s.items, root, depth + 1, seen))}[]`;
    }
    case "object":
      return objectType(s, root, depth, seen);
    default:
      return "unknown";
  }
}

/** One line per object, no spare spaces (the declarations are read by the model on every request). */
function objectType(s: Schema, root: Schema, depth: number, seen: Set<Schema>): string {
  const props = isObject(s.properties) ? s.properties : {};
  const required = new Set(
    Array.isArray(s.required) ? s.required.filter((r): r is string => typeof r === "string") : [],
  );
  const parts: string[] = [];
  for (const [key, sub] of Object.entries(props).slice(0, 100)) {
    const k = IDENT.test(key) ? key : JSON.stringify(key);
    const d = isObject(sub) ? doc(sub.description) : "";
    parts.push(`${d}${k}${required.has(key) ? "" : "?"}: ${typeOf(sub, root, depth + 1, seen)}`);
  }
  const extra = s.additionalProperties;
  if (isObject(extra)) parts.push(`[key: string]: ${typeOf(extra, root, depth + 1, seen)}`);
  else if (extra !== false && !parts.length) return "Record<string, unknown>";
  if (!parts.length) return "{}";
  // `{a: T; b?: U}`: every character here is read by the model on every request.
  return `{${parts.join("; ")}}`;
}
