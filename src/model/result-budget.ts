// The budget of one tool result as it reaches the model (applied by buildContext: after routing,
// before any provider). A larger result reaches the model as its head and one line naming its
// size and a handle; read_result (read-result.ts) pages through the rest. The conversation, and so
// the transcript, keeps the whole result: only what is sent is cut.
import type { ModelCapabilities, ModelContentBlock } from "./context.js";
import { anthropicImageTokens, charsWithin, estimateImageTokens, estimateTextTokens } from "./tokens.js";

/** The largest result budget by default (Claude Code refuses results over this many tokens). */
export const DEFAULT_RESULT_TOKENS = 25_000;
/** What the note after a cut head may take, kept out of the head's share of the budget. */
const NOTE_TOKENS = 200;
/** The smallest budget honoured (a configured 1 would leave no room for the note). */
export const MIN_RESULT_TOKENS = 1_000;

/** The budget: `configured` (limits.modelResultTokens), else the smaller of 25,000 and a quarter of the window. */
export function resultBudget(caps: ModelCapabilities, configured?: number): number {
  const budget = configured ?? Math.min(DEFAULT_RESULT_TOKENS, Math.floor(caps.contextWindow / 4));
  return Math.max(MIN_RESULT_TOKENS, Math.floor(budget));
}

export function blockTokens(b: ModelContentBlock, caps: ModelCapabilities): number {
  return b.type === "text"
    ? estimateTextTokens(b.text)
    : estimateImageTokens(b.data, caps.imageTokens ?? anthropicImageTokens);
}

/** The text read_result pages through: the result's text blocks as the model reads them, one after another. */
export function resultText(blocks: readonly ModelContentBlock[]): string {
  return blocks
    .filter((b) => b.type === "text")
    .map((b) => b.text)
    .join("\n");
}

export interface Budgeted {
  blocks: ModelContentBlock[];
  /** Set when the result was cut: how much it was, and where the head stopped in resultText. */
  cut?: { tokens: number; chars: number; shownChars: number };
}

/**
 * The blocks within `budget` tokens: whole while they fit; else the head (text up to the budget,
 * images while they fit) and one note naming the size and how to read on with `handle`.
 */
export function budgetBlocks(
  blocks: readonly ModelContentBlock[],
  budget: number,
  caps: ModelCapabilities,
  handle: string,
  structured: boolean,
): Budgeted {
  const costs = blocks.map((b) => blockTokens(b, caps));
  const tokens = costs.reduce((a, c) => a + c, 0);
  if (tokens <= budget) return { blocks: [...blocks] };
  const out: ModelContentBlock[] = [];
  let left = budget - NOTE_TOKENS;
  let shownChars = 0;
  let textSoFar = 0;
  let stopped = false;
  let images = 0;
  blocks.forEach((b, i) => {
    if (b.type === "image") {
      if (!stopped && costs[i] <= left) {
        out.push(b);
        left -= costs[i];
      } else images++;
      return;
    }
    const sep = textSoFar++ ? 1 : 0;
    if (stopped) return;
    if (costs[i] <= left) {
      out.push(b);
      left -= costs[i];
      shownChars += sep + b.text.length;
      return;
    }
    stopped = true;
    const n = left > 0 ? charsWithin(b.text, left) : 0;
    if (n > 0) out.push({ type: "text", text: b.text.slice(0, n) });
    shownChars += sep + n;
    left = 0;
  });
  const chars = resultText(blocks).length;
  const next = JSON.stringify({ handle, offset: shownChars });
  const path = structured ? ` or by JSON path into it, e.g. ${JSON.stringify({ handle, path: "$.key[0]" })}` : "";
  const imageNote = images ? `; ${images} image${images > 1 ? "s" : ""} left out (the user sees them)` : "";
  out.push({
    type: "text",
    text:
      `[mcp-prism: this result is ≈${tokens.toLocaleString("en-US")} tokens (${chars.toLocaleString("en-US")} characters), over the ${budget.toLocaleString("en-US")}-token budget for one result; ` +
      `you got characters 0–${shownChars.toLocaleString("en-US")}${imageNote}. Read the rest with the read_result tool: ${next}${path}]`,
  });
  return { blocks: out, cut: { tokens, chars, shownChars } };
}
