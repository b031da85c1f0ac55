// Small pure formatting helpers shared by the components (sizes, durations, display widths).

/** 0.4s · 12.3s · 2m05s */
export function formatElapsed(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const m = Math.floor(ms / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  return `${m}m${String(s).padStart(2, "0")}s`;
}

const ASCII_PRINTABLE = /^[\x20-\x7e]*$/;
const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Cf}\u200B-\u200D\uFE00-\uFE0F]$/u;
const WIDE =
  /^[\p{Extended_Pictographic}\u1100-\u115F\u2E80-\u303E\u3041-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA000-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6\u{20000}-\u{3FFFD}]$/u;

function charWidth(ch: string): number {
  if (ZERO_WIDTH.test(ch)) return 0;
  if (WIDE.test(ch)) return 2;
  return 1;
}

/** Terminal columns a sanitized (control-free) string takes. */
export function displayWidth(s: string): number {
  if (ASCII_PRINTABLE.test(s)) return s.length;
  let w = 0;
  for (const ch of s) w += charWidth(ch);
  return w;
}

/** Cuts a control-free string to at most `width` columns, ending in "…" when cut. */
export function truncateToWidth(s: string, width: number): string {
  if (width <= 0) return "";
  if (ASCII_PRINTABLE.test(s)) return s.length <= width ? s : s.slice(0, width - 1) + "…";
  if (displayWidth(s) <= width) return s;
  let out = "";
  let w = 0;
  for (const ch of s) {
    const cw = charWidth(ch);
    if (w + cw > width - 1) break;
    out += ch;
    w += cw;
  }
  return out + "…";
}

/** A compact one-line JSON rendering of arguments, for cards and prompts (not yet sanitized). */
export function compactJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Control-free text cut into rows of at most `width` columns: long lines wrap, nothing is hidden. */
export function wrapToWidth(text: string, width: number): string[] {
  const w = Math.max(1, width);
  const out: string[] = [];
  for (const line of text.split("\n")) {
    if (displayWidth(line) <= w) {
      out.push(line);
      continue;
    }
    let row = "";
    let used = 0;
    for (const ch of line) {
      const cw = charWidth(ch);
      if (used + cw > w && row) {
        out.push(row);
        row = "";
        used = 0;
      }
      row += ch;
      used += cw;
    }
    if (row) out.push(row);
  }
  return out;
}

/** Where a word too wide for a row is best cut: after JSON punctuation, never inside a shorter token. */
const TOKEN_END = /[,:{}[\]]/;

/**
 * The columns a wrapped line's continuation rows are indented by: under a second column (text
 * after a run of two or more spaces, as in "/help  description"), else under the line's own
 * indentation; always leaving 24 columns for the text.
 */
export function hangingIndent(line: string, width: number): number {
  const lead = line.match(/^ */)![0].length;
  const col = line.slice(lead).match(/^\S.*?\S? {2,}(?=\S)/);
  const at = col ? lead + col[0].length : lead;
  const most = width - 24;
  return at <= most ? at : lead <= most ? lead : 0;
}

/** Cuts a word wider than `room` columns: after the last JSON punctuation that fits, else at `room`. */
export function cutWord(word: string, room: number): [string, string] {
  let cut = "";
  for (const ch of word) {
    if (displayWidth(cut + ch) > room) break;
    cut += ch;
  }
  if (cut === "") cut = [...word][0];
  for (let i = cut.length - 1; i >= cut.length / 2; i--)
    if (TOKEN_END.test(cut[i])) return [cut.slice(0, i + 1), word.slice(i + 1)];
  return [cut, word.slice(cut.length)];
}

/**
 * Control-free text word-wrapped to `width` columns, nothing cut: breaks at spaces (the space
 * dropped, so no row starts with one), continuation rows indented (hangingIndent, or `hang`), a
 * word wider than a row cut after JSON punctuation where it has some.
 */
export function wrapText(text: string, width: number, hang?: number): string[] {
  const w = Math.max(8, width);
  const out: string[] = [];
  for (const line of text.split("\n")) {
    if (displayWidth(line) <= w) {
      out.push(line);
      continue;
    }
    const indent = " ".repeat(Math.max(0, Math.min(hang ?? hangingIndent(line, w), w - 24)));
    const lead = line.match(/^ */)![0];
    let row = lead;
    let used = displayWidth(lead);
    const words = line.slice(lead.length).split(/( +)/);
    for (let i = 0; i < words.length; i++) {
      const piece = words[i];
      if (piece === "") continue;
      if (piece[0] === " ") {
        // Inner runs of spaces (a column gap) are kept unless the row ends there.
        const next = words[i + 1] ?? "";
        if (used + piece.length + Math.min(displayWidth(next), w - indent.length) <= w) {
          row += piece;
          used += piece.length;
        } else if (row.trim()) {
          out.push(row.trimEnd());
          row = indent;
          used = indent.length;
        }
        continue;
      }
      let word = piece;
      if (used + displayWidth(word) > w && row.trim()) {
        out.push(row.trimEnd());
        row = indent;
        used = indent.length;
      }
      while (used + displayWidth(word) > w) {
        const [head, rest] = cutWord(word, w - used);
        out.push(row + head);
        row = indent;
        used = indent.length;
        word = rest;
      }
      row += word;
      used += displayWidth(word);
    }
    if (row.trim()) out.push(row.trimEnd());
  }
  return out;
}
