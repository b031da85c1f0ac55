// What of the live turn can move to <Static> while a reply streams. Ink re-lays out and re-writes
// the whole live frame on every commit (and, once the frame is taller than the terminal, the whole
// screen history too), so a reply drawn as one growing <Text> costs O(length) per delta: O(n²) for
// the reply. Instead, every settled item and every finished line of the streaming text leave the
// live frame as a static part of the turn; the live frame keeps only the unfinished tail, so each
// redraw costs O(tail) and the reply costs O(n) to draw.
import type { TurnItem } from "./state.js";
import { closesFence, fenceMarker, jsonDepthAfter, opensFence, opensJson, type MdContext } from "./markdown.js";

/** A line with no newline yet, longer than this, is cut at its last space (or here) all the same. */
export const LONG_LINE = 1024;

/**
 * The store settles the live tail as soon as it is longer than this, not only on its next draw:
 * the live frame stays a few rows tall whenever anything redraws it.
 */
export const LIVE_TAIL_MAX = 512;

/** A pipe table is held in the live tail until it ends, up to this many rows or characters. */
export const TABLE_HOLD_LINES = 16;
const TABLE_HOLD_CHARS = 4096;
const DELIMITER_ROW = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

/**
 * Splits streaming text into finished lines and the unfinished tail, so that `done` and `tail`,
 * drawn one under the other, give the lines of `text`: the cut is a newline (a CRLF as a whole),
 * or, in a line over LONG_LINE characters, its last space (a hard cut if it has none, never inside
 * a surrogate pair). Undefined when nothing is finished. Markdown: the rows of a pipe table stay
 * together (up to TABLE_HOLD_LINES, then the rest continues under the same header), and a cut
 * inside a code fence says so: `context` is where the tail starts (`ctx`, where `text` starts).
 */
export function splitFinished(
  text: string,
  ctx?: MdContext,
): { done: string; tail: string; context?: MdContext } | undefined {
  const nl = text.lastIndexOf("\n");
  let fence = ctx?.fence;
  let json = ctx?.json ?? 0;
  let tableHead = ctx?.tableHead;
  let run = 0;
  let runStart = 0;
  let prevLine = "";
  let cut = -1;
  let cutCtx: MdContext | undefined = ctx;
  for (let pos = 0; pos <= nl; ) {
    const end = text.indexOf("\n", pos);
    const line = text.slice(pos, end > pos && text[end - 1] === "\r" ? end - 1 : end);
    let safe = true;
    let opened: number | undefined;
    if (json > 0) {
      json = Math.max(0, jsonDepthAfter(line, json));
      if (json === 0) fence = undefined;
    } else if (fence !== undefined) {
      if (closesFence(line, fenceMarker(fence))) fence = undefined;
    } else if ((opened = opensJson(line)) !== undefined) {
      // A bare JSON value over several lines: drawn as a json fence (markdown.ts fenceBareJson).
      fence = "```json";
      json = opened;
      tableHead = undefined;
      run = 0;
    } else if (opensFence(line) !== undefined) {
      fence = line;
      tableHead = undefined;
      run = 0;
    } else if (line.includes("|")) {
      if (run++ === 0) runStart = pos;
      if (tableHead === undefined && run === 2 && DELIMITER_ROW.test(line)) tableHead = `${prevLine}\n${line}`;
      safe = run >= TABLE_HOLD_LINES || end - runStart > TABLE_HOLD_CHARS;
      if (safe) run = 0;
    } else {
      run = 0;
      tableHead = undefined;
    }
    if (safe) {
      cut = end;
      cutCtx =
        json > 0
          ? { fence: "```json", json }
          : fence !== undefined
            ? { fence }
            : tableHead !== undefined
              ? { tableHead }
              : undefined;
    }
    prevLine = line;
    pos = end + 1;
  }
  let done = cut >= 0 ? text.slice(0, cut > 0 && text[cut - 1] === "\r" ? cut - 1 : cut) : undefined;
  let tail = cut >= 0 ? text.slice(cut + 1) : text;
  if (tail.length > LONG_LINE && tail.indexOf("\n") < 0) {
    const space = tail.lastIndexOf(" ");
    let at = space > 0 ? space : tail.length;
    const code = tail.charCodeAt(at - 1);
    if (space <= 0 && code >= 0xd800 && code <= 0xdbff) at -= 1; // keep a high surrogate with its pair
    const head = tail.slice(0, at);
    tail = tail.slice(space > 0 ? at + 1 : at);
    done = done === undefined ? head : `${done}\n${head}`;
  }
  if (done === undefined) return undefined;
  return cutCtx ? { done, tail, context: cutCtx } : { done, tail };
}

/**
 * The part of the live items that can be drawn once and for all: every item before a streaming
 * assistant text, when all of them are settled, plus that text's finished lines. `settled` says
 * whether an item will never change again (a tool card with its outcome and its images drawn).
 */
export function settledPart(
  items: readonly TurnItem[],
  settled: (item: TurnItem) => boolean,
): { part: TurnItem[]; rest: TurnItem[] } | undefined {
  const last = items[items.length - 1];
  if (last?.kind !== "assistant") return undefined;
  const split = splitFinished(last.text, last.md);
  if (!split) return undefined;
  for (let i = 0; i < items.length - 1; i++) if (!settled(items[i])) return undefined;
  const part: TurnItem = last.md
    ? { kind: "assistant", text: split.done, md: last.md }
    : { kind: "assistant", text: split.done };
  const rest: TurnItem = split.context
    ? { kind: "assistant", text: split.tail, md: split.context }
    : { kind: "assistant", text: split.tail };
  return { part: [...items.slice(0, -1), part], rest: [rest] };
}
