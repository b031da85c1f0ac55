// What the prompt line can complete where the cursor is (at the end of the line): a slash command
// or a server prompt command (`/server:prompt`), a tool name after /call or /compare, or the value
// of a prompt command's argument (asked of the server: completion/complete). Pure, so the rules are
// testable without a terminal; the hook (hooks/useCompletion.ts) does the asking and drawing.
import type { PromptEntry } from "../host/prompts.js";
import { argWords, assignWords } from "./commands/prompt-command.js";

export type CompletionAt =
  | { kind: "none" }
  /** Candidates known here: each replaces the line from `from`. */
  | { kind: "list"; from: number; typed: string; options: string[] }
  /** A prompt argument's value: the server suggests; each suggestion replaces from `from`, after `key=`. */
  | { kind: "argument"; from: number; typed: string; entry: PromptEntry; argument: string; value: string; key?: string; context: Record<string, string> };

const MAX_OPTIONS = 200;
const TOOL_COMMANDS = new Set(["call", "compare"]);

/** The completion at the end of `value`, from the commands, the prompts listed so far and the tool names. */
export function completionAt(value: string, commands: readonly string[], prompts: readonly PromptEntry[], tools: readonly string[] = []): CompletionAt {
  if (!value.startsWith("/") || value.includes("\n")) return { kind: "none" };
  const space = value.search(/\s/);
  if (space < 0) {
    const names = [...commands.map((c) => `/${c}`), ...prompts.map((p) => `/${p.server}:${p.name}`)];
    return { kind: "list", from: 0, typed: value, options: names.filter((n) => n.startsWith(value)).slice(0, MAX_OPTIONS) };
  }
  const name = value.slice(1, space);
  const rest = value.slice(space).replace(/^\s+/, "");
  const restAt = value.length - rest.length;
  if (TOOL_COMMANDS.has(name)) {
    if (/\s/.test(rest)) return { kind: "none" };
    return { kind: "list", from: restAt, typed: rest, options: tools.filter((t) => t.startsWith(rest)).slice(0, MAX_OPTIONS) };
  }
  const entry = prompts.find((p) => `${p.server}:${p.name}` === name);
  if (!entry || entry.arguments.length === 0 || rest.startsWith("{")) return { kind: "none" };
  const words = argWords(rest);
  const last = words.at(-1);
  // A new word when the line ends in white space outside a quote; else the last word goes on.
  const current = last && (last.open || !/\s$/.test(rest)) ? last : { value: "", start: rest.length, open: false, key: undefined };
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
  return { kind: "argument", from: restAt + current.start, typed, entry, argument: mine.name, value: current.value, key, context };
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
export function tabCompletion(value: string, from: number, typed: string, candidates: readonly string[]): string | undefined {
  if (candidates.length === 0) return undefined;
  if (candidates.length === 1) return `${value.slice(0, from)}${candidates[0]} `;
  const common = commonPrefix(candidates);
  return common.length > typed.length ? value.slice(0, from) + common : undefined;
}
