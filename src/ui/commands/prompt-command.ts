// `/<server>:<prompt> [args]`: a server's prompt as a slash command. Arguments are a JSON object,
// or words: `name=value` for a named argument, a bare word (or "quoted words") for the next
// declared one. The prompt's messages become the user's turn (promptTurn: text, and the text of
// an embedded text resource); other content kinds are named in a notice and not sent.
import type { PromptEntry } from "../../host/catalog/prompts.js";
import { promptTurn, promptUsage } from "../../host/catalog/prompt-turn.js";
import { sanitizeInline, sanitizeName } from "../../protocol/sanitize.js";
import { CommandError, type CommandContext } from "./types.js";

/** One typed word: a `name=` prefix when it has one, the value (quotes removed), where it starts. */
export interface ArgWord {
  key?: string;
  value: string;
  start: number;
  /** The word is still open (an unclosed quote at the end of the line). */
  open: boolean;
}

const WORD = /(?:([^\s="]+)=)?(?:"((?:[^"\\]|\\.)*)("?)|(\S+))/g;

/** The words of an argument text, in order. */
export function argWords(text: string): ArgWord[] {
  const words: ArgWord[] = [];
  for (const m of text.matchAll(WORD)) {
    const quoted = m[2] !== undefined;
    const value = quoted ? m[2].replace(/\\(.)/g, "$1") : (m[4] ?? "");
    words.push({ key: m[1], value, start: m.index, open: quoted && m[3] === "" });
  }
  return words;
}

/** Which declared argument each word fills: named, else the next one not named yet. */
export function assignWords(entry: PromptEntry, words: readonly ArgWord[]): { name: string; word: ArgWord }[] {
  const declared = entry.arguments.map((a) => a.name);
  const named = new Set(
    words.filter((w) => w.key !== undefined && declared.includes(w.key)).map((w) => w.key as string),
  );
  const free = declared.filter((n) => !named.has(n));
  const out: { name: string; word: ArgWord }[] = [];
  for (const w of words) {
    if (w.key !== undefined && declared.includes(w.key)) out.push({ name: w.key, word: w });
    else {
      const name = free.shift();
      if (name === undefined)
        throw new CommandError(
          `too many values for /${sanitizeName(entry.server)}:${sanitizeName(entry.name)} — usage: /${promptUsage(entry)}`,
        );
      out.push({ name, word: w.key !== undefined ? { ...w, key: undefined, value: `${w.key}=${w.value}` } : w });
    }
  }
  return out;
}

/** The arguments of a prompt command line (JSON object or words). */
export function parsePromptArgs(entry: PromptEntry, text: string): Record<string, unknown> {
  const t = text.trim();
  if (!t) return {};
  if (t.startsWith("{")) {
    let v: unknown;
    try {
      v = JSON.parse(t);
    } catch (e) {
      throw new CommandError(`bad JSON arguments: ${sanitizeInline((e as Error).message)}`);
    }
    if (typeof v !== "object" || v === null || Array.isArray(v))
      throw new CommandError("arguments must be a JSON object");
    return v as Record<string, unknown>;
  }
  const args: Record<string, unknown> = {};
  for (const { name, word } of assignWords(entry, argWords(t))) args[name] = word.value;
  return args;
}

/** Whether a command name has the prompt shape `server:prompt`. */
export function isPromptCommand(name: string): boolean {
  const colon = name.indexOf(":");
  return colon > 0 && colon < name.length - 1;
}

/**
 * Resolves and gets the prompt a typed `/server:prompt …` line names: the text of the user's turn,
 * or undefined when it failed or had no text (one line says why). Notices name the other parts.
 */
export async function promptTurnText(
  name: string,
  argText: string,
  line: string,
  ctx: CommandContext,
): Promise<string | undefined> {
  const fail = (text: string) => {
    ctx.store.record({ kind: "user", text: line.trim() });
    ctx.store.notice(sanitizeInline(text), "error");
    return undefined;
  };
  const source = ctx.host.prompts;
  if (!source) return fail(`unknown command /${name.slice(0, 40)} — type /help for the list`);
  try {
    const found = await source.find(name, undefined, 5_000);
    if (!found.ok) return fail(`${found.error.message} (see /help)`);
    const got = await source.get(found.entry, parsePromptArgs(found.entry, argText), ctx.signal);
    if (!got.ok) return fail(got.error.message);
    const turn = promptTurn(got.prompt);
    const notes = turn.parts.filter((p) => p.note).map((p) => `  ${p.role}: ${sanitizeInline(p.note as string)}`);
    const count = got.prompt.messages.length;
    ctx.store.record({ kind: "user", text: line.trim() });
    ctx.store.notice(
      [
        `prompt ${sanitizeName(found.entry.name)} from server ${sanitizeName(found.entry.server)}: ${count} message${count === 1 ? "" : "s"}`,
        ...notes,
      ].join("\n"),
    );
    if (turn.text.trim()) return turn.text;
    ctx.store.notice("the prompt has no text to send", "error");
    return undefined;
  } catch (e) {
    return fail(e instanceof CommandError ? e.message : `/${name}: ${(e as Error)?.message ?? String(e)}`);
  }
}

/** The prompt commands for /help: usage and description, one line each. */
export function promptHelpLines(prompts: readonly PromptEntry[]): [string, string][] {
  return prompts.map((p) => [`/${promptUsage(p)}`, sanitizeInline(p.title ?? p.description ?? "")]);
}
