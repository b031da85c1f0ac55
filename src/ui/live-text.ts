// What of the live turn can move to <Static> while a reply streams. Ink re-lays out and re-writes
// the whole live frame on every commit (and, once the frame is taller than the terminal, the whole
// screen history too), so a reply drawn as one growing <Text> costs O(length) per delta: O(n²) for
// the reply. Instead, every settled item and every finished line of the streaming text leave the
// live frame as a static part of the turn; the live frame keeps only the unfinished tail, so each
// redraw costs O(tail) and the reply costs O(n) to draw.
import type { TurnItem } from "./state.js";

/** A line with no newline yet, longer than this, is cut at its last space (or here) all the same. */
export const LONG_LINE = 1024;

/**
 * The store settles the live tail as soon as it is longer than this, not only on its next draw:
 * the live frame stays a few rows tall whenever anything redraws it.
 */
export const LIVE_TAIL_MAX = 512;

/**
 * Splits streaming text into finished lines and the unfinished tail, so that `done` and `tail`,
 * drawn one under the other, give the lines of `text`: the cut is a newline (a CRLF as a whole),
 * or, in a line over LONG_LINE characters, its last space (a hard cut if it has none, never inside
 * a surrogate pair). Undefined when nothing is finished.
 */
export function splitFinished(text: string): { done: string; tail: string } | undefined {
  const nl = text.lastIndexOf("\n");
  let done = nl >= 0 ? text.slice(0, nl > 0 && text[nl - 1] === "\r" ? nl - 1 : nl) : undefined;
  let tail = nl >= 0 ? text.slice(nl + 1) : text;
  if (tail.length > LONG_LINE) {
    const space = tail.lastIndexOf(" ");
    let cut = space > 0 ? space : tail.length;
    const code = tail.charCodeAt(cut - 1);
    if (space <= 0 && code >= 0xd800 && code <= 0xdbff) cut -= 1; // keep a high surrogate with its pair
    const head = tail.slice(0, cut);
    tail = tail.slice(space > 0 ? cut + 1 : cut);
    done = done === undefined ? head : `${done}\n${head}`;
  }
  return done === undefined ? undefined : { done, tail };
}

/**
 * The part of the live items that can be drawn once and for all: every item before a streaming
 * assistant text, when all of them are settled, plus that text's finished lines. `settled` says
 * whether an item will never change again (a tool card with its outcome and its images drawn).
 */
export function settledPart(items: readonly TurnItem[], settled: (item: TurnItem) => boolean): { part: TurnItem[]; rest: TurnItem[] } | undefined {
  const last = items[items.length - 1];
  if (last?.kind !== "assistant") return undefined;
  const split = splitFinished(last.text);
  if (!split) return undefined;
  for (let i = 0; i < items.length - 1; i++) if (!settled(items[i])) return undefined;
  return { part: [...items.slice(0, -1), { kind: "assistant", text: split.done }], rest: [{ kind: "assistant", text: split.tail }] };
}
