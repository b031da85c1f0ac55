// What the prompt line can complete where the cursor is (at the end of the line): a slash command
// or a server prompt command (`/server:prompt`), a command's arguments (each command declares what
// its words are: `SlashCommand.args`), a tool name and its JSON argument keys after /call or
// /compare, an `@` resource (name or URI) in a prompt, or the value of a prompt command's argument
// (asked of the server: completion/complete). Pure, so the rules are testable without a terminal;
// the hook (hooks/useCompletion.ts) does the asking and drawing.
import type { PromptEntry } from "../host/catalog/prompts.js";
import { MODES } from "../host/types.js";
import { argWords, assignWords } from "./commands/prompt-command.js";
import type { ArgKind } from "./commands/types.js";

export type CompletionAt =
  | { kind: "none" }
  /** Candidates known here: each replaces the line from `from`; `labels` (same order) are what the menu shows. */
  | { kind: "list"; from: number; typed: string; options: string[]; labels?: string[] }
  /** A prompt argument's value: the server suggests; each suggestion replaces from `from`, after `key=`. */
  | {
      kind: "argument";
      from: number;
      typed: string;
      entry: PromptEntry;
      argument: string;
      value: string;
      key?: string;
      context: Record<string, string>;
    };

/** A command as completion reads it: its name and what its words are. */
export interface CommandInfo {
  name: string;
  args?: readonly ArgKind[];
}
/** A tool as completion reads it: its name and its inputSchema's property names. */
export interface ToolInfo {
  name: string;
  keys: readonly string[];
}
export interface ResourceInfo {
  uri: string;
  name: string;
}

/** Everything completion knows at one moment (nothing here is asked for while typing). */
export interface CompletionData {
  commands: readonly (string | CommandInfo)[];
  prompts: readonly PromptEntry[];
  tools?: readonly ToolInfo[];
  servers?: readonly string[];
  resources?: readonly ResourceInfo[];
  /** Tool cards drawn so far (/show N). */
  cards?: number;
  /** Numbered outputs (/save-output N, /open N). */
  outputs?: number;
  /** Rows of the last table (/table N), 0 when there is none. */
  tableRows?: number;
  /** Rows on one table page. */
  tablePage?: number;
}

const MAX_OPTIONS = 200;

const info = (c: string | CommandInfo): CommandInfo => (typeof c === "string" ? { name: c } : c);
const numbers = (n: number, step = 1): string[] =>
  Array.from({ length: Math.min(MAX_OPTIONS, Math.ceil(n / step)) }, (_, i) => String(1 + i * step));

/** The words an argument of this kind can be, from what is known now. */
function wordsFor(kind: ArgKind, d: CompletionData): readonly string[] {
  if (typeof kind !== "string") return kind;
  switch (kind) {
    case "mode":
      return MODES;
    case "server":
      return d.servers ?? [];
    case "tool":
      return (d.tools ?? []).map((t) => t.name);
    case "resource":
      return (d.resources ?? []).map((r) => r.uri);
    case "card":
      return numbers(d.cards ?? 0).reverse();
    case "output":
      return numbers(d.outputs ?? 0).reverse();
    case "table":
      return d.tableRows ? ["next", "prev", ...numbers(d.tableRows, d.tablePage ?? 20)] : [];
    case "json":
      return [];
  }
}

const startsWith = (s: string, typed: string) => s.startsWith(typed);

/** The completion at the end of `value`, from what is known now (CompletionData). */
export function completionAt(value: string, d: CompletionData): CompletionAt {
  if (!value.startsWith("/")) return resourceAt(value, d);
  if (value.includes("\n")) return { kind: "none" };
  const commands = d.commands.map(info);
  const space = value.search(/\s/);
  if (space < 0) {
    const names = [...commands.map((c) => `/${c.name}`), ...d.prompts.map((p) => `/${p.server}:${p.name}`)];
    return list(0, value, names);
  }
  const name = value.slice(1, space);
  const rest = value.slice(space).replace(/^\s+/, "");
  const restAt = value.length - rest.length;
  const cmd = commands.find((c) => c.name === name);
  if (cmd) return cmd.args ? commandArgAt(cmd.args, rest, restAt, d) : { kind: "none" };
  return promptArgAt(
    rest,
    restAt,
    d.prompts.find((p) => `${p.server}:${p.name}` === name),
  );
}

function list(from: number, typed: string, options: readonly string[], match = startsWith): CompletionAt {
  return { kind: "list", from, typed, options: options.filter((o) => match(o, typed)).slice(0, MAX_OPTIONS) };
}

/** A command's next word (by its declared kinds); after a tool name, the keys of its JSON arguments. */
function commandArgAt(kinds: readonly ArgKind[], rest: string, restAt: number, d: CompletionData): CompletionAt {
  const words = rest.split(/\s+/).filter(Boolean);
  const index = rest === "" || /\s$/.test(rest) ? words.length : words.length - 1;
  const typed = index < words.length ? words[index] : "";
  if (kinds[0] === "tool" && index >= 1) return jsonKeyAt(words[0], rest, restAt, d);
  const kind = kinds[index];
  if (kind === undefined) return { kind: "none" };
  return list(restAt + rest.length - typed.length, typed, wordsFor(kind, d));
}

/**
 * Inside `/call TOOL {…`: where a key is expected (after `{` or `,`), the tool's inputSchema
 * property names not given yet, each as `"key": `.
 */
function jsonKeyAt(tool: string, rest: string, restAt: number, d: CompletionData): CompletionAt {
  const entry = d.tools?.find((t) => t.name === tool);
  const json = rest.slice(rest.indexOf(tool) + tool.length).trimStart();
  const m = /[{,]\s*("?[^\s"{},:]*)$/.exec(json);
  if (!entry || !json.startsWith("{") || !m) return { kind: "none" };
  const typed = m[1];
  const given = new Set([...json.matchAll(/"([^"\\]*)"\s*:/g)].map((g) => g[1]));
  const keys = entry.keys.filter((k) => !given.has(k)).map((k) => `"${k}": `);
  const bare = typed.replace(/^"/, "");
  return list(restAt + rest.length - typed.length, typed, keys, (o) => o.slice(1).startsWith(bare));
}

/** `@` at a word start in a prompt: the servers' resources by URI or by name, each as `@URI`. */
function resourceAt(value: string, d: CompletionData): CompletionAt {
  const m = /(?:^|\s)@(\S*)$/.exec(value);
  if (!m || !d.resources?.length) return { kind: "none" };
  const typed = m[1];
  const lower = typed.toLowerCase();
  // The menu names each resource (`@URI (name)`) unless its URI already ends in its name; Tab inserts the URI.
  const seen = new Map<string, string>();
  for (const r of d.resources) {
    if (seen.size >= MAX_OPTIONS) break;
    if (!(r.uri.startsWith(typed) || r.name.toLowerCase().startsWith(lower)) || seen.has(r.uri)) continue;
    const named =
      r.name && !r.uri.toLowerCase().endsWith(r.name.toLowerCase())
        ? ` (${r.name.length > 40 ? `${r.name.slice(0, 39)}…` : r.name})`
        : "";
    seen.set(r.uri, `@${r.uri}${named}`);
  }
  return {
    kind: "list",
    from: value.length - typed.length - 1,
    typed: `@${typed}`,
    options: [...seen.keys()].map((u) => `@${u}`),
    labels: [...seen.values()],
  };
}

/** A prompt command's argument value: which argument the word fills, the others as context. */
function promptArgAt(rest: string, restAt: number, entry: PromptEntry | undefined): CompletionAt {
  if (!entry || entry.arguments.length === 0 || rest.startsWith("{")) return { kind: "none" };
  const words = argWords(rest);
  const last = words.at(-1);
  // A new word when the line ends in white space outside a quote; else the last word goes on.
  const current =
    last && (last.open || !/\s$/.test(rest)) ? last : { value: "", start: rest.length, open: false, key: undefined };
  const before = current === last ? words.slice(0, -1) : words;
  let assigned;
  try {
    assigned = assignWords(entry, [...before, current]);
  } catch {
    return { kind: "none" }; // every argument has a value already
  }
  const mine = assigned.at(-1) as { name: string };
  const context: Record<string, string> = {};
  for (const a of assigned.slice(0, -1)) context[a.name] = a.word.value;
  const key = current.key !== undefined && current.key === mine.name ? current.key : undefined;
  const typed = rest.slice(current.start);
  return {
    kind: "argument",
    from: restAt + current.start,
    typed,
    entry,
    argument: mine.name,
    value: current.value,
    key,
    context,
  };
}

/** A suggested value as typed: quoted when it holds white space or a quote, after its `key=`. */
export function argumentText(value: string, key?: string): string {
  const v = /[\s"\\]/.test(value) || value === "" ? `"${value.replace(/["\\]/g, "\\$&")}"` : value;
  return key ? `${key}=${v}` : v;
}

function commonPrefix(items: readonly string[]): string {
  if (items.length === 0) return "";
  let p = items[0];
  for (const s of items) while (!s.startsWith(p)) p = p.slice(0, -1);
  return p;
}

/**
 * Tab: one candidate is taken whole (and a space after it); several are completed as far as they
 * agree. undefined when Tab has nothing to add (the menu shows the candidates).
 */
export function tabCompletion(
  value: string,
  from: number,
  typed: string,
  candidates: readonly string[],
): string | undefined {
  if (candidates.length === 0) return undefined;
  // A JSON key comes with its `": "` already.
  if (candidates.length === 1)
    return `${value.slice(0, from)}${candidates[0]}${candidates[0].endsWith(" ") ? "" : " "}`;
  const common = commonPrefix(candidates);
  return common.length > typed.length ? value.slice(0, from) + common : undefined;
}
