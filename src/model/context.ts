// The ONE model-context builder: conversation → provider-neutral messages.
// Every adapter (offline and Anthropic) consumes its output, so nothing reaches a model except
// through here. A tool result can only be `ModelSinkEntry[]` (router-branded assistant outputs)
// or a `HostReceipt`; user, programmatic and App outputs do not type-check as input, and result
// `_meta` is not part of any of them.
import type { ContentBlock } from "../protocol/index.js";
import type { HostReceipt, ModelSinkEntry } from "../host/types.js";
import {
  isReceipt,
  WHOLE_RESULT,
  type ConversationItem,
  type ModelToolResult,
  type ToolResultItem,
  type UserAttachment,
} from "./conversation.js";
import { imageProblem } from "./media-check.js";
import { budgetBlocks, resultBudget } from "./result-budget.js";

/** `attached`: a resource the user attached (its text is the block's), for adapters that show it. */
export type ModelTextBlock = { type: "text"; text: string; attached?: { server: string; uri: string } };
export type ModelImageBlock = { type: "image"; mimeType: string; data: string };
export type ModelContentBlock = ModelTextBlock | ModelImageBlock;
export type ModelToolUseBlock = { type: "tool_use"; id: string; name: string; input: Record<string, unknown> };
export type ModelToolResultBlock = {
  type: "tool_result";
  toolUseId: string;
  isError: boolean;
  content: ModelContentBlock[];
};

export type ModelMessage =
  | { role: "user"; content: (ModelTextBlock | ModelToolResultBlock)[] }
  | { role: "assistant"; content: (ModelTextBlock | ModelToolUseBlock)[] };

/** What a provider can take in a tool result. */
export interface ModelCapabilities {
  /** Image MIME types the provider accepts as image blocks. */
  imageMimeTypes: readonly string[];
  /** The largest image, in base64 characters, the provider takes. */
  maxImageBase64Chars?: number;
  /** The model's context window, in tokens (the result budget and compaction are measured against it). */
  contextWindow: number;
  /** The provider's rule for an image's tokens from its size (default: Anthropic's, tokens.ts). */
  imageTokens?: (width: number, height: number) => number;
}

/** Every current Claude model's window (the 1M-token beta is opt-in). */
export const ANTHROPIC_CONTEXT_WINDOW = 200_000;

export const ANTHROPIC_CAPABILITIES: ModelCapabilities = {
  imageMimeTypes: ["image/png", "image/jpeg", "image/gif", "image/webp"],
  maxImageBase64Chars: 5 * 1024 * 1024,
  contextWindow: ANTHROPIC_CONTEXT_WINDOW,
};

export interface BuildOptions {
  /** The budget of one tool result, in tokens (result-budget.ts; default from the window). */
  resultTokens?: number;
  /** Told the call id of each result cut for the model (turn.ts then offers read_result). */
  onCut?: (callId: string, tokens: number) => void;
}

/**
 * Turns one tool result (model sink or receipt) into provider-neutral blocks. `replaced` holds
 * the notes that stand for blocks the provider refused (by index into rawToolResultBlocks'
 * list; WHOLE_RESULT for all of them). Text blocks with nothing but white space are left out
 * (providers refuse them).
 */
export function toolResultBlocks(
  result: ModelToolResult,
  caps: ModelCapabilities,
  replaced?: ReadonlyMap<number, string>,
): ModelContentBlock[] {
  const whole = replaced?.get(WHOLE_RESULT);
  if (whole !== undefined) return [{ type: "text", text: whole }];
  const raw = rawToolResultBlocks(result, caps);
  const out: ModelContentBlock[] = [];
  raw.forEach((b, i) => {
    const note = replaced?.get(i);
    if (note !== undefined) out.push({ type: "text", text: note });
    else if (b.type === "image" || /\S/.test(b.text)) out.push(b);
  });
  return out;
}

/** The blocks of one tool result before any refused one is replaced (indices are stable). */
export function rawToolResultBlocks(result: ModelToolResult, caps: ModelCapabilities): ModelContentBlock[] {
  if (isReceipt(result)) return receiptBlocks(result);
  const blocks: ModelContentBlock[] = [];
  for (const output of result as readonly ModelSinkEntry[]) {
    if (output.format === "structured") {
      blocks.push({ type: "text", text: modelJsonText(output.structuredContent) });
    } else {
      for (const block of output.content) blocks.push(contentBlock(block, caps));
    }
  }
  return blocks;
}

function receiptBlocks(receipt: HostReceipt): ModelContentBlock[] {
  return [{ type: "text", text: receipt.text }];
}

function contentBlock(block: ContentBlock, caps: ModelCapabilities): ModelContentBlock {
  const short = shortfall(block, caps);
  if (short !== undefined) return { type: "text", text: `[${short}]` };
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text };
    case "image":
      return { type: "image", mimeType: baseMime(block.mimeType), data: block.data };
    case "resource_link": {
      const label = block.title ?? block.name;
      const extra = [block.mimeType, block.description].filter(Boolean).join(", ");
      return { type: "text", text: `[resource link: ${label} <${block.uri}>${extra ? ` (${extra})` : ""}]` };
    }
    case "resource":
      return { type: "text", text: (block.resource as { text: string }).text };
    case "audio": // always a shortfall (above); here for the switch to be whole
      return { type: "text", text: `[${omitted(block.mimeType, "audio")}]` };
  }
}

/**
 * Why the active model cannot take `block` as it is (it gets this line instead), or undefined.
 * The same words go on the tool card (withheldFromModel), so nothing is dropped silently.
 */
function shortfall(block: ContentBlock, caps: ModelCapabilities): string | undefined {
  switch (block.type) {
    case "image": {
      const mime = baseMime(block.mimeType);
      if (!caps.imageMimeTypes.includes(mime)) return omitted(block.mimeType, "image");
      const problem = imageProblem(mime, block.data, caps.maxImageBase64Chars);
      return problem ? `${mime} image omitted: ${problem}` : undefined;
    }
    case "audio":
      return omitted(block.mimeType, "audio");
    case "resource": {
      const r = block.resource;
      if (typeof r.text === "string") return undefined;
      return omitted(`${String(r.mimeType ?? "application/octet-stream")} <${r.uri}>`, "resource");
    }
    default:
      return undefined;
  }
}

/**
 * What of a tool result the active model does not get as it was sent (an image type it cannot
 * take, audio, a binary resource), one line each, repeats counted: said on the tool card.
 */
export function withheldFromModel(result: ModelToolResult, caps: ModelCapabilities): string[] {
  if (isReceipt(result)) return [];
  const counts = new Map<string, number>();
  for (const output of result as readonly ModelSinkEntry[]) {
    if (output.format !== "content") continue;
    for (const block of output.content) {
      const line = shortfall(block, caps);
      if (line !== undefined) counts.set(line, (counts.get(line) ?? 0) + 1);
    }
  }
  return [...counts].map(([line, n]) => (n > 1 ? `${line} (×${n})` : line));
}

function omitted(mimeType: string, what: "image" | "audio" | "resource"): string {
  const cannot = what === "image" ? `${mimeType} images` : what === "audio" ? "audio" : "binary resources";
  return `${mimeType} ${what} omitted: this model cannot take ${cannot}`;
}

function baseMime(mime: string): string {
  return mime.split(";")[0].trim().toLowerCase();
}

/** A structured output as the model reads it: one line of JSON. */
export function modelJsonText(value: unknown): string {
  return JSON.stringify(value) ?? "null";
}

/** An attached resource as the model reads it: where it came from, then its text. */
export function attachmentText(a: UserAttachment): string {
  return `The user attached the resource ${a.uri} (from MCP server "${a.server}"${a.mimeType ? `, ${a.mimeType}` : ""}):\n${a.text}`;
}

/**
 * Builds the provider-neutral messages, valid for a provider whatever the conversation holds:
 * consecutive items of the same role are merged (a failed turn may leave a user prompt without
 * an answer; providers want alternating roles), and every tool_use is answered by a tool_result
 * at the start of the next message (see wellFormed).
 */
export function buildContext(
  items: readonly ConversationItem[],
  caps: ModelCapabilities,
  opts: BuildOptions = {},
): ModelMessage[] {
  const budget = resultBudget(caps, opts.resultTokens);
  const messages: ModelMessage[] = [];
  const push = (msg: ModelMessage) => {
    const last = messages[messages.length - 1];
    if (last && last.role === msg.role) (last.content as unknown[]).push(...msg.content);
    else messages.push(msg);
  };
  for (const item of items) {
    if (item.role === "user") {
      // Attached resources first: the prompt's own text stays the message's last block.
      const attached = (item.attachments ?? []).map(
        (a): ModelTextBlock => ({ type: "text", text: attachmentText(a), attached: { server: a.server, uri: a.uri } }),
      );
      push({ role: "user", content: [...attached, { type: "text", text: item.text }] });
    } else if (item.role === "assistant") {
      const content: (ModelTextBlock | ModelToolUseBlock)[] = [];
      if (/\S/.test(item.text)) content.push({ type: "text", text: item.text });
      for (const c of item.toolCalls) content.push({ type: "tool_use", id: c.id, name: c.name, input: c.args });
      if (content.length) push({ role: "assistant", content });
    } else {
      const budgeted = budgetedResult(item, caps, budget);
      if (budgeted.cut) opts.onCut?.(item.callId, budgeted.cut.tokens);
      const blocks = [...budgeted.blocks];
      // Providers refuse an error result without content.
      if (!blocks.length && item.isError) blocks.push({ type: "text", text: "(the tool returned no content)" });
      push({
        role: "user",
        content: [{ type: "tool_result", toolUseId: item.callId, isError: item.isError, content: blocks }],
      });
    }
  }
  return wellFormed(messages);
}

// A result's budgeted blocks, kept per item (a long session rebuilds its context every request).
const budgetedCache = new WeakMap<ToolResultItem, { key: string; value: ReturnType<typeof budgetBlocks> }>();
const capsIds = new WeakMap<ModelCapabilities, number>();
let nextCapsId = 0;
const capsId = (caps: ModelCapabilities) => capsIds.get(caps) ?? (capsIds.set(caps, ++nextCapsId), nextCapsId);

function budgetedResult(item: ToolResultItem, caps: ModelCapabilities, budget: number) {
  const key = `${budget} ${capsId(caps)} ${[...(item.replaced ?? [])].join("|")}`;
  const hit = budgetedCache.get(item);
  if (hit && hit.key === key) return hit.value;
  const value = budgetBlocks(
    toolResultBlocks(item.result, caps, item.replaced),
    budget,
    caps,
    item.callId,
    hasStructured(item.result),
  );
  budgetedCache.set(item, { key, value });
  return value;
}

function hasStructured(result: ModelToolResult): boolean {
  return !isReceipt(result) && (result as readonly ModelSinkEntry[]).some((o) => o.format === "structured");
}

const NO_RESULT = "No result was recorded for this call (the turn ended before it ran).";

/**
 * The provider's rules on tool use, enforced on the messages: the message after an assistant
 * message with tool_use blocks is a user message that starts with exactly one tool_result per
 * tool_use (a missing one becomes an error result, a duplicate or unmatched one is dropped), and
 * the first message is the user's. turn.ts answers every call itself; this is the guarantee that
 * no conversation state, however a turn ended, makes every later request fail.
 */
function wellFormed(messages: ModelMessage[]): ModelMessage[] {
  const out: ModelMessage[] = [];
  for (const m of messages) {
    if (m.role === "assistant") {
      out.push(m);
      continue;
    }
    const prev = out[out.length - 1];
    const uses =
      prev?.role === "assistant" ? prev.content.filter((b): b is ModelToolUseBlock => b.type === "tool_use") : [];
    const results = new Map<string, ModelToolResultBlock>();
    const rest: ModelTextBlock[] = [];
    for (const b of m.content) {
      if (b.type !== "tool_result") rest.push(b);
      else if (!results.has(b.toolUseId)) results.set(b.toolUseId, b);
    }
    const answers = uses.map((u) => results.get(u.id) ?? missingResult(u.id));
    const content = [...answers, ...rest];
    if (content.length) out.push({ role: "user", content });
  }
  const last = out[out.length - 1];
  if (last?.role === "assistant") {
    const uses = last.content.filter((b): b is ModelToolUseBlock => b.type === "tool_use");
    if (uses.length) out.push({ role: "user", content: uses.map((u) => missingResult(u.id)) });
  }
  if (out[0]?.role === "assistant")
    out.unshift({ role: "user", content: [{ type: "text", text: "(earlier conversation)" }] });
  // Dropping an empty user message can leave two assistant messages side by side: merge them.
  for (let i = out.length - 1; i > 0; i--) {
    if (out[i].role === "assistant" && out[i - 1].role === "assistant") {
      (out[i - 1].content as unknown[]).push(...out[i].content);
      out.splice(i, 1);
    }
  }
  return out;
}

function missingResult(id: string): ModelToolResultBlock {
  return { type: "tool_result", toolUseId: id, isError: true, content: [{ type: "text", text: NO_RESULT }] };
}
