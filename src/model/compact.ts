// Compaction: near the model's window, the older turns of the MODEL CONTEXT are replaced by a
// summary the active model writes (the offline model writes a deterministic one); the newest turns
// stay as they were. The cut is only ever at the start of a user turn, so a tool call and its
// result are never split, and what remains is a conversation every provider accepts (a summary is
// a user item; context.ts merges it with the user turn after it). The transcript keeps everything:
// the change is recorded (`compacted`) so a resumed session rebuilds the same context.
import type { ModelAdapter } from "./adapter.js";
import { buildContext, type ModelCapabilities, type ModelMessage } from "./context.js";
import { isReceipt, type Conversation, type ConversationItem, type UserItem } from "./conversation.js";
import { sampleWith } from "./sampling.js";
import { estimateImageTokens, estimateTextTokens } from "./tokens.js";

/** Compact when the context reaches this share of the window (config limits.compactAt). */
export const DEFAULT_COMPACT_AT = 0.85;
/** The newest turns kept whole: at most this share of the window. */
const KEEP_SHARE = 0.3;
/** The text given to the summarising request: at most this share of the window. */
const SUMMARY_INPUT_SHARE = 0.5;
const SUMMARY_MAX_TOKENS = 1024;
export const SUMMARY_LABEL = "[Summary of the earlier conversation, written when it was compacted]";

/** The tokens a built context takes, by the provider-neutral estimate (tokens.ts). */
export function estimateMessages(messages: readonly ModelMessage[], caps: ModelCapabilities): number {
  let n = 0;
  for (const m of messages) {
    for (const b of m.content) {
      if (b.type === "text") n += estimateTextTokens(b.text);
      else if (b.type === "tool_use")
        n += estimateTextTokens(b.name) + estimateTextTokens(JSON.stringify(b.input) ?? "");
      else
        for (const c of b.content)
          n += c.type === "text" ? estimateTextTokens(c.text) : estimateImageTokens(c.data, caps.imageTokens);
      n += 4; // each block's framing
    }
  }
  return n;
}

/** The conversation's context as the next request would carry it, in estimated tokens. */
export function contextTokens(
  items: readonly ConversationItem[],
  caps: ModelCapabilities,
  resultTokens?: number,
): number {
  return estimateMessages(buildContext(items, caps, { resultTokens }), caps);
}

/**
 * Where the kept part starts: the earliest user turn from which the rest fits `keepTokens`, and
 * never the first item (then there is nothing to compact: 0). Only user items start a turn; the
 * model's tool calls and their results all come after their turn's user item.
 */
export function compactionCut(
  items: readonly ConversationItem[],
  caps: ModelCapabilities,
  keepTokens: number,
  resultTokens?: number,
): number {
  const starts: number[] = [];
  for (let i = 1; i < items.length; i++) if (items[i].role === "user" && items[i - 1].role !== "user") starts.push(i);
  if (starts.length === 0) return 0;
  // The newest turn is always kept, even when it alone is over keepTokens.
  let cut = starts[starts.length - 1];
  for (let s = starts.length - 2; s >= 0; s--) {
    if (contextTokens(items.slice(starts[s]), caps, resultTokens) > keepTokens) break;
    cut = starts[s];
  }
  return cut;
}

/** The compacted items as plain text for the summariser (tool results as the model saw them). */
function transcriptText(items: readonly ConversationItem[]): string {
  const lines: string[] = [];
  for (const it of items) {
    if (it.role === "user") lines.push(`User: ${it.text}`);
    else if (it.role === "assistant") {
      if (it.text) lines.push(`Assistant: ${it.text}`);
      for (const c of it.toolCalls) lines.push(`Assistant called ${c.name} ${JSON.stringify(c.args)}`);
    } else {
      const body = isReceipt(it.result)
        ? it.result.text
        : it.result
            .map((e) =>
              e.format === "structured"
                ? JSON.stringify(e.structuredContent)
                : e.content.map((b) => (b.type === "text" ? b.text : `[${b.type}]`)).join("\n"),
            )
            .join("\n");
      lines.push(`Tool result${it.isError ? " (error)" : ""}: ${body}`);
    }
  }
  return lines.join("\n");
}

/** The offline model's summary: deterministic, from what was said and called. */
export function offlineSummary(items: readonly ConversationItem[]): string {
  const prompts = items
    .filter((i): i is UserItem => i.role === "user")
    .map((i) => i.text.replace(/\s+/g, " ").trim().slice(0, 120));
  const calls = items.flatMap((i) => (i.role === "assistant" ? i.toolCalls.map((c) => c.name) : []));
  const counted = [...new Set(calls)].map(
    (n) => `${n}${calls.filter((c) => c === n).length > 1 ? ` ×${calls.filter((c) => c === n).length}` : ""}`,
  );
  return [
    `${prompts.length} earlier prompt${prompts.length === 1 ? "" : "s"}: ${prompts.map((p) => JSON.stringify(p)).join("; ")}.`,
    calls.length ? `Tools called: ${counted.join(", ")}.` : "No tools were called.",
  ].join(" ");
}

export interface Compaction {
  /** How many items the summary replaced. */
  replaced: number;
  /** Estimated context tokens before and after. */
  before: number;
  after: number;
  summary: string;
}

export interface CompactOptions {
  signal?: AbortSignal;
  resultTokens?: number;
  /** Tokens about to be added (the new prompt), counted when deciding. */
  extraTokens?: number;
}

/** One line for the user: what compaction did and saved. */
export function compactionLine(c: Compaction, window: number): string {
  const k = (n: number) => n.toLocaleString("en-US");
  return `context compacted: ${c.replaced} earlier item${c.replaced === 1 ? "" : "s"} replaced by a summary, ≈${k(c.before)} → ≈${k(c.after)} tokens of the ${k(window)}-token window (the transcript keeps everything)`;
}

/** Compacts now; undefined when there is nothing older than the newest kept turns. */
export async function compact(
  conversation: Conversation,
  adapter: ModelAdapter,
  opts: CompactOptions = {},
): Promise<Compaction | undefined> {
  const caps = adapter.capabilities;
  const items = conversation.items;
  const before = contextTokens(items, caps, opts.resultTokens);
  // The newest turns kept: a share of the window, or of the context now when it is far below it (/compact).
  const cut = compactionCut(
    items,
    caps,
    Math.floor(Math.min(caps.contextWindow, before) * KEEP_SHARE),
    opts.resultTokens,
  );
  if (cut === 0) return undefined;
  const old = items.slice(0, cut);
  let summary: string;
  if (adapter.id === "offline") summary = offlineSummary(old);
  else {
    // The summarising request must itself fit: the text is cut to half the window, newest kept.
    const text = transcriptText(old);
    const room = Math.floor(caps.contextWindow * SUMMARY_INPUT_SHARE);
    let start = Math.max(0, text.length - room * 4);
    while (start < text.length && estimateTextTokens(text.slice(start)) > room)
      start += Math.ceil((text.length - start) / 10);
    const tail = text.slice(start);
    summary = await sampleWith(
      adapter,
      {
        server: "mcp-prism",
        systemPrompt:
          "You compact a chat between a user and an assistant that uses tools. Write a concise summary that keeps every fact, decision, name, number and open question the conversation may need later. Plain text.",
        messages: [{ role: "user", text: `Summarise this earlier part of our conversation:\n\n${tail}` }],
        maxTokens: SUMMARY_MAX_TOKENS,
      },
      opts.signal,
    );
    if (!summary.trim()) summary = offlineSummary(old);
  }
  const item: UserItem = { role: "user", text: `${SUMMARY_LABEL}\n${summary.trim()}` };
  conversation.compact(cut, [item]);
  return {
    replaced: cut,
    before,
    after: contextTokens(conversation.items, caps, opts.resultTokens),
    summary: item.text,
  };
}

/** Compacts when the context is at `at` of the window or more (before a turn's first request). */
export async function compactIfNear(
  conversation: Conversation,
  adapter: ModelAdapter,
  at = DEFAULT_COMPACT_AT,
  opts: CompactOptions = {},
): Promise<Compaction | undefined> {
  if (conversation.items.length < 2) return undefined;
  const tokens = contextTokens(conversation.items, adapter.capabilities, opts.resultTokens) + (opts.extraTokens ?? 0);
  if (tokens < adapter.capabilities.contextWindow * at) return undefined;
  return compact(conversation, adapter, opts);
}
