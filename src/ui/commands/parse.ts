// Argument parsing shared by the commands.
// From the zod-free modules: the command registry loads before the app's first frame.
import { didYouMean } from "../../protocol/suggest.js";
import { parseSelector } from "../../protocol/selectors.js";
import { isCoreAudience, EXTENSION_ID_PATTERN } from "../../protocol/audience.js";
import type { ToolResultOutputSelector } from "../../protocol/schemas.js";
import type { ToolEntry } from "../../host/types.js";
import { CommandError } from "./types.js";
import { sanitizeInline, sanitizeName } from "../../protocol/sanitize.js";

/** Splits "/name rest of line" → ["name", "rest of line"]. */
export function splitCommand(line: string): [string, string] {
  const m = /^\/(\S*)\s*([\s\S]*)$/.exec(line.trim());
  if (!m) return ["", ""];
  return [m[1], m[2].trim()];
}

export interface ToolCallArgs {
  tool: string;
  args: Record<string, unknown>;
  select?: ToolResultOutputSelector[];
}

/** `<tool> [json] [--select a/f]...`: the JSON is everything up to the first ` --select`. */
export function parseToolCallArgs(text: string, usage: string, allowSelect = true): ToolCallArgs {
  const m = /^(\S+)\s*([\s\S]*)$/.exec(text.trim());
  if (!m) throw new CommandError(`missing tool name — usage: ${usage}`);
  const tool = m[1];
  let rest = m[2];
  let select: ToolResultOutputSelector[] | undefined;
  const at = rest.search(/(^|\s)--select(\s|=|$)/);
  if (at >= 0) {
    if (!allowSelect) throw new CommandError(`--select is not accepted here — usage: ${usage}`);
    const tail = rest.slice(at).trim();
    rest = rest.slice(0, at);
    select = [];
    const parts = tail.split(/\s+/);
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i];
      let value: string | undefined;
      if (p === "--select") value = parts[++i];
      else if (p.startsWith("--select=")) value = p.slice("--select=".length);
      else throw new CommandError(`unexpected ${JSON.stringify(sanitizeInline(p))} after --select — usage: ${usage}`);
      if (!value) throw new CommandError(`--select needs audience/format (e.g. user/structured)`);
      select.push(parseSelectorArg(value));
    }
  }
  const jsonText = rest.trim();
  let args: unknown = {};
  if (jsonText) {
    try {
      args = JSON.parse(jsonText);
    } catch (e) {
      throw new CommandError(`bad JSON arguments: ${sanitizeInline((e as Error).message)}`);
    }
  }
  if (typeof args !== "object" || args === null || Array.isArray(args))
    throw new CommandError('arguments must be a JSON object, e.g. {"city": "Paris"}');
  return { tool, args: args as Record<string, unknown>, select };
}

export function parseSelectorArg(text: string): ToolResultOutputSelector {
  const s = parseSelector(text);
  if (!s || !(isCoreAudience(s.audience) || EXTENSION_ID_PATTERN.test(s.audience))) {
    throw new CommandError(
      `bad selector ${JSON.stringify(sanitizeInline(text))}: expected audience/format, audience assistant|user|programmatic|vendor.id/name, format content|structured`,
    );
  }
  return s;
}

/** Finds a tool by qualified name, else by its own name when that is unambiguous. */
export function resolveTool(tools: readonly ToolEntry[], name: string): ToolEntry {
  const exact = tools.find((t) => t.qualifiedName === name);
  if (exact) return exact;
  const byName = tools.filter((t) => t.name === name);
  if (byName.length === 1) return byName[0];
  if (byName.length > 1)
    throw new CommandError(
      `tool ${sanitizeName(name)} is on several servers: ${byName.map((t) => sanitizeName(t.qualifiedName)).join(", ")}`,
    );
  const suggestion = didYouMean(name, [...new Set(tools.flatMap((t) => [t.name, t.qualifiedName]))]);
  throw new CommandError(`unknown tool ${sanitizeName(name)}${sanitizeInline(suggestion)} (see /tools)`);
}
