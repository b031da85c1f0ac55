// The prompt line's completion candidates: commands and prompt commands from what is known now, a
// command's words by their declared kinds (servers, card numbers, … read at each key), tool names
// and their argument keys after /call and /compare and `@` resources (each listed once per
// line start), a prompt argument's values from the server (completion/complete, asked after a
// short pause in typing, the previous request cancelled). Only at the end of the line; a stale
// answer is dropped.
import { useEffect, useMemo, useState } from "react";
import type { Completion, PromptEntry } from "../../host/catalog/prompts.js";
import {
  argumentText,
  completionAt,
  type CommandInfo,
  type CompletionData,
  type ResourceInfo,
  type ToolInfo,
} from "../completion.js";

/** What the session knows without asking anyone, read at each key. */
export type KnownNow = Omit<CompletionData, "commands" | "prompts" | "tools" | "resources">;

export interface CompletionSource {
  commands: readonly (string | CommandInfo)[];
  /** The prompts listed so far (no waiting). */
  prompts(): readonly PromptEntry[];
  tools?(): Promise<ToolInfo[]>;
  resources?(): Promise<ResourceInfo[]>;
  known?(): KnownNow;
  complete?(
    entry: PromptEntry,
    argument: string,
    value: string,
    context: Record<string, string>,
    signal: AbortSignal,
  ): Promise<Completion>;
}

export interface Candidates {
  /** The line these are for. */
  line: string;
  from: number;
  typed: string;
  /** Each replaces the line from `from` (as it would be typed). */
  items: string[];
  /** What the menu shows for each item, when that is more than the item (a resource's name). */
  labels?: string[];
}

const NONE = { line: "", from: 0, typed: "", items: [] };

function dataOf(source: CompletionSource, tools: ToolInfo[] = [], resources: ResourceInfo[] = []): CompletionData {
  return { commands: source.commands, prompts: source.prompts(), tools, resources, ...source.known?.() };
}

/** The candidates known without asking anyone (commands, prompt commands): for a key that arrives before the next draw. */
export function knownCandidates(value: string, source: CompletionSource | undefined): Candidates {
  const at = source ? completionAt(value, dataOf(source)) : undefined;
  return at?.kind === "list"
    ? { line: value, from: at.from, typed: at.typed, items: at.options, ...(at.labels ? { labels: at.labels } : {}) }
    : { ...NONE, line: value };
}
/** The pause in typing before a server is asked. */
const ASK_AFTER_MS = 120;

/** A list asked for once while `wanted` holds (tools, resources), kept until the next time. */
function useListed<T>(wanted: boolean, load: (() => Promise<T[]>) | undefined): T[] {
  const [items, setItems] = useState<T[]>([]);
  useEffect(() => {
    if (!wanted || !load) return;
    let live = true;
    load().then(
      (t) => live && setItems(t.slice(0, 5_000)),
      () => {},
    );
    return () => {
      live = false;
    };
  }, [wanted, load]);
  return items;
}

export function useCompletion(
  value: string,
  cursor: number,
  source: CompletionSource | undefined,
  active: boolean,
): Candidates {
  const [asked, setAsked] = useState<{ line: string; items: string[] }>({ line: "", items: [] });
  const tools = useListed(active && /^\/(call|compare)\s/.test(value), source?.tools);
  const resources = useListed(active && (/(?:^|\s)@\S*$/.test(value) || /^\/read\s/.test(value)), source?.resources);
  const at = useMemo(
    () =>
      active && source && cursor === value.length
        ? completionAt(value, dataOf(source, tools, resources))
        : ({ kind: "none" } as const),
    [active, source, cursor, value, tools, resources],
  );
  useEffect(() => {
    if (at.kind !== "argument" || !source?.complete) return;
    const ac = new AbortController();
    const timer = setTimeout(() => {
      source.complete!(at.entry, at.argument, at.value, at.context, ac.signal).then(
        (c) => !ac.signal.aborted && setAsked({ line: value, items: c.values.map((v) => argumentText(v, at.key)) }),
        () => {},
      );
    }, ASK_AFTER_MS);
    return () => {
      clearTimeout(timer);
      ac.abort();
    };
  }, [at, source, value]);
  if (at.kind === "list")
    return {
      line: value,
      from: at.from,
      typed: at.typed,
      items: at.options,
      ...(at.labels ? { labels: at.labels } : {}),
    };
  if (at.kind === "argument" && asked.line === value)
    return { line: value, from: at.from, typed: at.typed, items: asked.items };
  return { ...NONE, line: value };
}
