// The one terminal sanitizer: every string a server or model controls passes here before it is
// drawn. Controls are neutralized VISIBLY rather than dropped, so a hostile payload shows up as
// what it is (`␛]0;pwned␇`) instead of silently disappearing or acting on the terminal.
//
// Why ESC → ␛ is enough for every escape family (CSI, OSC 0/2/8/52, DCS, APC, PM, SOS, `ESC c`):
// a terminal only interprets those when they start with a raw ESC (or an 8-bit C1 introducer such
// as U+009B); once ESC and C1 are replaced, the rest of the sequence is inert printable text.
// Note Ink itself keeps OSC sequences in <Text> (only CSI non-SGR is stripped), so this is needed.
//
// One regex pass with a memoized replacer keeps it linear and fast (1 MB in a few ms).

/** Characters that reorder text (Trojan Source): embeddings, overrides, isolates, marks. */
const BIDI = "\\u061C\\u200E\\u200F\\u202A-\\u202E\\u2066-\\u2069";
/**
 * Invisible characters that are never legitimate in what we draw, incl. the Hangul fillers
 * (U+115F, U+1160, U+3164, U+FFA0) that render as blank "letters" and so forge blank names.
 */
const INVISIBLE = "\\u115F\\u1160\\u200B\\u2060-\\u2064\\u3164\\uFEFF\\uFFA0\\uFFF9-\\uFFFB\\u{E0000}-\\u{E007F}";
/**
 * A run of combining marks (incl. variation selectors) longer than any script needs: kept up to
 * MAX_MARKS, the rest counted visibly, so 10,000 U+0301 on one letter is not a screen-high smear.
 */
const MAX_MARKS = 4;
const MARK_FLOOD = `\\p{M}{${MAX_MARKS + 1},}`;
/** Joiners/selectors legit in text (emoji ZWJ sequences, Indic scripts) but not in names. */
const JOINERS = "\\u034F\\u180E\\u200C\\u200D\\uFE00-\\uFE0F";
/** C0 except tab and newline, DEL, C1, line/paragraph separators, lone surrogates (u-mode). */
const CONTROLS = "\\x00-\\x08\\x0B-\\x1F\\x7F-\\x9F\\u2028\\u2029\\uD800-\\uDFFF";

const TEXT_RE = new RegExp(`${MARK_FLOOD}|\\r\\n|\\t|[${CONTROLS}${BIDI}${INVISIBLE}]`, "gu");
const INLINE_RE = new RegExp(`${MARK_FLOOD}|\\r\\n|\\n|\\t|[${CONTROLS}${BIDI}${INVISIBLE}]`, "gu");
const NAME_RE = new RegExp(`${MARK_FLOOD}|\\r\\n|\\n|\\t|[${CONTROLS}${BIDI}${INVISIBLE}${JOINERS}]`, "gu");

export const NEWLINE_MARK = "⏎";
const TAB_SPACES = "    ";

function codeLabel(cp: number): string {
  return `⟨U+${cp.toString(16).toUpperCase().padStart(4, "0")}⟩`;
}

/** The visible stand-in for one matched character (newline handling is per mode). */
function visible(ch: string): string {
  const cp = ch.codePointAt(0)!;
  if (cp < 0x20) return String.fromCharCode(0x2400 + cp); // control pictures: ␛ ␍ ␀ …
  if (cp === 0x7f) return "␡";
  if (cp === 0x2028 || cp === 0x2029) return NEWLINE_MARK;
  if (cp >= 0xd800 && cp <= 0xdfff) return "\uFFFD"; // a lone surrogate cannot be encoded
  return codeLabel(cp); // C1, BiDi, zero-width, tag characters
}

const memo = new Map<string, string>();
function visibleMemo(ch: string): string {
  let v = memo.get(ch);
  if (v === undefined) {
    v = visible(ch);
    if (memo.size < 4096) memo.set(ch, v);
  }
  return v;
}

/** The first MAX_MARKS marks of a flood, then how many more were dropped. */
function capMarks(m: string): string {
  // Code points counted without splitting the (possibly huge) run into an array.
  let count = 0;
  let kept = 0;
  for (let i = 0; i < m.length; i++) {
    const c = m.charCodeAt(i);
    if (c >= 0xdc00 && c <= 0xdfff) continue; // the second half of a pair
    if (++count === MAX_MARKS + 1) kept = i;
  }
  return `${m.slice(0, kept)}⟨+${count - MAX_MARKS} marks⟩`;
}

function textReplacer(m: string): string {
  if (m.length > 2) return capMarks(m);
  if (m === "\r\n") return "\n"; // CRLF is a line ending, not a carriage return
  if (m === "\t") return TAB_SPACES;
  return visibleMemo(m);
}
function inlineReplacer(m: string): string {
  if (m.length > 2) return capMarks(m);
  if (m === "\r\n" || m === "\n") return NEWLINE_MARK;
  if (m === "\t") return " ";
  return visibleMemo(m);
}

/** Multi-line text: keeps newlines, tabs become spaces, every other control is made visible. */
export function sanitizeText(s: string): string {
  return s.replace(TEXT_RE, textReplacer);
}

/** One line: like sanitizeText, newlines shown as ⏎. */
export function sanitizeInline(s: string): string {
  return s.replace(INLINE_RE, inlineReplacer);
}

export const NAME_MAX = 64;

/** Names (tools, servers, keys): one line, every invisible/joiner shown, capped in length. */
export function sanitizeName(s: string, max = NAME_MAX): string {
  const clean = s.replace(NAME_RE, inlineReplacer);
  return truncateChars(clean, max);
}

/** Cuts to at most `max` code points, ending in "…" when cut. */
export function truncateChars(s: string, max: number): string {
  if (s.length <= max) return s;
  const cps = Array.from(s);
  if (cps.length <= max) return s;
  return cps.slice(0, Math.max(0, max - 1)).join("") + "…";
}

/** Pretty JSON for display: string values sanitized inline (so ESC shows as ␛), then the text. */
export function sanitizeJson(value: unknown, indent = 2): string {
  let out: string | undefined;
  try {
    out = JSON.stringify(value, (_k, v: unknown) => (typeof v === "string" ? sanitizeInline(v) : v), indent);
  } catch (e) {
    return `⟨unprintable value: ${sanitizeInline(String((e as Error).message))}⟩`;
  }
  return sanitizeText(out ?? String(value));
}
