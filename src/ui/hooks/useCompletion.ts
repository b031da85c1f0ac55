// The prompt line's completion candidates: commands and prompt commands from what is known now,
// tool names after /call and /compare (listed once per line start), a prompt argument's values
// from the server (completion/complete, asked after a short pause in typing, the previous request
// cancelled). Only at the end of the line; a stale answer is dropped.
import { useEffect, useMemo, useState } from "react";
import type { Completion, PromptEntry } from "../../host/prompts.js";
import { argumentText, completionAt } from "../completion.js";

export interface CompletionSource {
  commands: readonly string[];
  /** The prompts listed so far (no waiting). */
  prompts(): readonly PromptEntry[];
  tools?(): Promise<string[]>;
  complete?(entry: PromptEntry, argument: string, value: string, context: Record<string, string>, signal: AbortSignal): Promise<Completion>;
}

export interface Candidates {
  /** The line these are for. */
  line: string;
  from: number;
  typed: string;
  /** Each replaces the line from `from` (as it would be typed). */
  items: string[];
}

/** The candidates known without asking anyone (commands, prompt commands): for a key that arrives before the next draw. */
export function knownCandidates(value: string, source: CompletionSource | undefined): Candidates {
  const at = source ? completionAt(value, source.commands, source.prompts()) : undefined;
  return at?.kind === "list" ? { line: value, from: at.from, typed: at.typed, items: at.options } : { line: value, from: 0, typed: "", items: [] };
}
/** The pause in typing before a server is asked. */
const ASK_AFTER_MS = 120;

export function useCompletion(value: string, cursor: number, source: CompletionSource | undefined, active: boolean): Candidates {
  const [tools, setTools] = useState<string[]>([]);
  const [asked, setAsked] = useState<{ line: string; items: string[] }>({ line: "", items: [] });
  const wantsTools = /^\/(call|compare)\s/.test(value);
  useEffect(() => {
    if (!active || !wantsTools || !source?.tools) return;
    let live = true;
    source.tools().then((t) => live && setTools(t.slice(0, 5_000)), () => {});
    return () => {
      live = false;
    };
  }, [active, wantsTools, source]);
  const at = useMemo(
    () => (active && source && cursor === value.length ? completionAt(value, source.commands, source.prompts(), tools) : ({ kind: "none" } as const)),
    [active, source, cursor, value, tools],
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
  if (at.kind === "list") return { line: value, from: at.from, typed: at.typed, items: at.options };
  if (at.kind === "argument" && asked.line === value) return { line: value, from: at.from, typed: at.typed, items: asked.items };
  return { line: value, from: 0, typed: "", items: [] };
}
