// Model text as markdown, pure: `marked`'s lexer gives the tokens, this module turns them into a
// small block model (headings, paragraphs of styled spans, lists, quotes, highlighted code, tables
// already drawn to a width, rules, blank lines) that components/Markdown.tsx draws with Ink.
// Every string that leaves here has passed the terminal sanitizer; entities are decoded before it.
// Streaming: a reply is drawn in parts (live-text.ts); a part that starts inside a code fence or a
// pipe table carries that context (MdContext), so the fence's info line or the table's header is
// lexed with it and not drawn again. An unclosed fence or a table cut mid-row lexes like any other.
import Table from "cli-table3";
import { Lexer, type Token, type Tokens } from "marked";
import { sanitizeText } from "../protocol/sanitize.js";
import { cutWord, displayWidth } from "./format.js";
import { highlightLine, type CodePiece } from "./markdown-code.js";
import { fitWidths } from "./table.js";

export interface Span {
  text: string;
  bold?: boolean;
  italic?: boolean;
  strike?: boolean;
  code?: boolean;
  /** A link's text; its URL follows as a span of its own (`url`). */
  link?: boolean;
  url?: boolean;
}

export type MdBlock =
  | { type: "heading"; depth: number; spans: Span[] }
  | { type: "paragraph"; spans: Span[] }
  /** `indent`: the columns a list's first line is indented by (a nested item streamed as a part of its own). */
  | { type: "list"; indent: number; items: { marker: string; blocks: MdBlock[] }[] }
  | { type: "quote"; blocks: MdBlock[] }
  /** `label` is false for a block continued from an earlier part (its info line already drawn). */
  | { type: "code"; lang: string; label: boolean; lines: CodePiece[][] }
  | { type: "table"; lines: string[] }
  | { type: "rule" }
  | { type: "blank" };

/** Where a part of a streamed reply starts: inside a fence (its opening line) or a table (its header and delimiter rows). */
export interface MdContext {
  fence?: string;
  tableHead?: string;
  /** Inside a bare (unfenced) JSON value that many brackets deep; `fence` is then "```json". */
  json?: number;
}

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})([^`]*)$/;
const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** The few entities marked leaves encoded, decoded, then the sanitizer (a numeric one may name a control). */
function clean(s: string): string {
  const decoded =
    s.indexOf("&") < 0
      ? s
      : s.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,6});/gi, (m, e: string) => {
          if (e[0] !== "#") return ENTITIES[e.toLowerCase()] ?? m;
          const cp = e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
          return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : m;
        });
  return sanitizeText(decoded);
}

type Style = Omit<Span, "text">;

function inline(tokens: readonly Token[] | undefined, style: Style, out: Span[]): Span[] {
  for (const t of tokens ?? []) {
    switch (t.type) {
      case "strong":
        inline((t as Tokens.Strong).tokens, { ...style, bold: true }, out);
        break;
      case "em":
        inline((t as Tokens.Em).tokens, { ...style, italic: true }, out);
        break;
      case "del":
        inline((t as Tokens.Del).tokens, { ...style, strike: true }, out);
        break;
      case "codespan":
        out.push({ ...style, code: true, text: clean((t as Tokens.Codespan).text) });
        break;
      case "br":
        out.push({ ...style, text: "\n" });
        break;
      case "link": {
        const l = t as Tokens.Link;
        const shown = inline(l.tokens, { ...style, link: true }, []);
        const plain = shown.map((s) => s.text).join("");
        const href = clean(l.href);
        if (plain === href || plain === href.replace(/^mailto:/, "")) out.push({ ...style, url: true, text: plain });
        else out.push(...shown, { ...style, url: true, text: ` (${href})` });
        break;
      }
      case "image": {
        const im = t as Tokens.Image;
        out.push(
          { ...style, text: `[image: ${clean(im.text)}]` },
          { ...style, url: true, text: ` (${clean(im.href)})` },
        );
        break;
      }
      case "text": {
        const tx = t as Tokens.Text;
        if (tx.tokens?.length) inline(tx.tokens, style, out);
        else out.push({ ...style, text: clean(tx.text) });
        break;
      }
      case "escape":
        out.push({ ...style, text: clean((t as Tokens.Escape).text) });
        break;
      default:
        out.push({ ...style, text: clean(t.raw) });
    }
  }
  return out;
}

/**
 * Spans broken into lines of at most `width` columns at spaces (a word wider than that is cut,
 * after JSON punctuation where it has some),
 * the space at a break dropped: a wrapped line never starts with a space (Ink's own wrapping keeps
 * it), and the lines are already as wide as Ink will draw them.
 */
export function wrapSpans(spans: readonly Span[], width: number): Span[] {
  const out: Span[] = [];
  let col = 0;
  const push = (style: Span, text: string) => {
    const last = out[out.length - 1];
    if (last && sameStyle(last, style)) last.text += text;
    else out.push({ ...style, text });
  };
  const breakLine = (style: Span) => {
    const last = out[out.length - 1];
    if (last) last.text = last.text.replace(/ +$/, "");
    push(style, "\n");
    col = 0;
  };
  for (const span of spans) {
    for (const piece of span.text.split(/(\n| +)/)) {
      if (piece === "") continue;
      if (piece === "\n") {
        breakLine(span);
        continue;
      }
      const w = displayWidth(piece);
      if (piece[0] === " ") {
        if (col === 0) continue;
        if (col + w >= width) breakLine(span);
        else {
          push(span, piece);
          col += w;
        }
        continue;
      }
      if (col > 0 && col + w > width) breakLine(span);
      let rest = piece;
      while (displayWidth(rest) > width) {
        // Cut after JSON punctuation where the word has some: a JSON reply is not broken mid-token.
        const [cut, tail] = cutWord(rest, width - col);
        push(span, cut);
        rest = tail;
        breakLine(span);
      }
      if (rest) {
        push(span, rest);
        col += displayWidth(rest);
      }
    }
  }
  return out;
}

function sameStyle(a: Span, b: Span): boolean {
  return (
    !!a.bold === !!b.bold &&
    !!a.italic === !!b.italic &&
    !!a.strike === !!b.strike &&
    !!a.code === !!b.code &&
    !!a.link === !!b.link &&
    !!a.url === !!b.url
  );
}

function plainText(tokens: readonly Token[] | undefined): string {
  return inline(tokens, {}, [])
    .map((s) => s.text)
    .join("")
    .replace(/\n/g, " ");
}

/** A pipe table drawn with cli-table3, its columns fitted into `width` (long cells wrap, nothing is cut). */
function tableLines(t: Tokens.Table, width: number, continued: boolean): string[] {
  const head = t.header.map((c) => plainText(c.tokens));
  const rows = t.rows.map((r) => head.map((_, i) => (r[i] ? plainText(r[i].tokens) : "")));
  const n = Math.max(1, head.length);
  const natural = head.map((h, c) => rows.reduce((m, r) => Math.max(m, displayWidth(r[c])), displayWidth(h)));
  const widths = fitWidths(natural, Math.max(n, width - 1 - 3 * n));
  const table = new Table({
    head,
    colWidths: widths.map((w) => w + 2),
    colAligns: t.align.map((a) => a ?? "left"),
    wordWrap: true,
    wrapOnWordBoundary: false,
    style: { head: [], border: [], "padding-left": 1, "padding-right": 1, compact: true },
  });
  for (const r of rows) table.push(r);
  const lines = table.toString().split("\n");
  if (!continued) return lines;
  // The header was drawn by an earlier part: this one starts at the rule under the header.
  const rule = lines.findIndex((l) => l.startsWith("├"));
  return rule >= 0 ? lines.slice(rule) : lines;
}

const JSON_MAX = 64 * 1024;

function jsonBlock(raw: string): MdBlock | undefined {
  const src = raw.trim();
  if (src.length < 2 || src.length > JSON_MAX || !/^[[{]/.test(src) || !/[\]}]$/.test(src)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(src);
  } catch {
    return undefined;
  }
  const lines = JSON.stringify(value, null, 2).split("\n");
  return { type: "code", lang: "json", label: true, lines: lines.map((l) => highlightLine(clean(l), "json")) };
}

function codeBlock(t: Tokens.Code, ctx: MdContext | undefined, closedAtOnce: boolean): MdBlock {
  const lang = clean((t.lang ?? "").split(/\s/)[0] ?? "");
  // A fence whose first code line has not arrived yet has none.
  const opening = t.text === "" && t.raw.replace(/\n$/, "").indexOf("\n") < 0 && !ctx?.fence;
  const lines = closedAtOnce || opening ? [] : t.text.split("\n").map((l) => highlightLine(clean(l), lang));
  return { type: "code", lang, label: !ctx?.fence, lines };
}

function blocks(
  tokens: readonly Token[],
  width: number,
  ctx?: MdContext,
  closedAtOnce = false,
  top = false,
): MdBlock[] {
  const out: MdBlock[] = [];
  let prev: Token | undefined;
  let first = true;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const last = i === tokens.length - 1;
    const continued = first && ctx !== undefined;
    first = false;
    switch (t.type) {
      case "space": {
        // Blank lines as the source has them: a part is a run of lines, and each one shows.
        if (!top) break;
        let n = (t.raw.match(/\n/g) ?? []).length - (prev && !prev.raw.endsWith("\n") ? 1 : 0) + (last ? 1 : 0);
        for (; n > 0; n--) out.push({ type: "blank" });
        break;
      }
      case "heading":
        out.push({
          type: "heading",
          depth: (t as Tokens.Heading).depth,
          spans: wrapSpans(inline((t as Tokens.Heading).tokens, {}, []), width),
        });
        break;
      case "paragraph": {
        // A JSON value on its own (a structured-mode reply) is drawn pretty-printed as code, so
        // wrapping never breaks it mid-token.
        const json = jsonBlock(t.raw);
        if (json) {
          out.push(json);
          break;
        }
        out.push({ type: "paragraph", spans: wrapSpans(inline((t as Tokens.Paragraph).tokens, {}, []), width) });
        break;
      }
      case "text": {
        const tx = t as Tokens.Text;
        out.push({
          type: "paragraph",
          spans: wrapSpans(tx.tokens?.length ? inline(tx.tokens, {}, []) : [{ text: clean(tx.text) }], width),
        });
        break;
      }
      case "list": {
        const l = t as Tokens.List;
        const start = typeof l.start === "number" ? l.start : 1;
        out.push({
          type: "list",
          indent: top ? Math.min(12, /^ */.exec(l.raw)![0].length) : 0,
          items: l.items.map((it, k) => ({
            marker: `${l.ordered ? `${start + k}.` : "•"}${it.task ? (it.checked ? " ☑" : " ☐") : ""}`,
            blocks: blocks(
              it.tokens.filter((x) => x.type !== "checkbox"),
              Math.max(
                10,
                width -
                  (l.ordered ? `${start + k}.`.length : 1) -
                  1 -
                  (top ? Math.min(12, /^ */.exec(l.raw)![0].length) : 0),
              ),
            ),
          })),
        });
        break;
      }
      case "blockquote":
        out.push({ type: "quote", blocks: blocks((t as Tokens.Blockquote).tokens, Math.max(10, width - 2)) });
        break;
      case "code":
        out.push(codeBlock(t as Tokens.Code, continued ? ctx : undefined, continued && closedAtOnce));
        break;
      case "table":
        out.push({
          type: "table",
          lines: tableLines(t as Tokens.Table, width, continued && !!ctx?.tableHead).map(clean),
        });
        break;
      case "hr":
        out.push({ type: "rule" });
        break;
      case "def":
        break;
      default:
        // html, and anything a later marked adds: its source, as text.
        out.push({ type: "paragraph", spans: [{ text: clean(t.raw.replace(/\n$/, "")) }] });
    }
    if (top && t.type !== "space" && last && t.raw.endsWith("\n")) out.push({ type: "blank" });
    prev = t;
  }
  return out;
}

/** The bracket depth after `line` of JSON, from `depth` ({ and [ open, } and ] close; strings skipped). */
export function jsonDepthAfter(line: string, depth: number): number {
  let inString = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") depth--;
  }
  return depth;
}

/**
 * The depth a line leaves open when it starts a bare JSON value written over several lines
 * (`{` or `[` first, at most 3 spaces in, brackets left open); undefined otherwise. A link
 * (`[text](url)`) or a one-line value closes on its own line and opens nothing.
 */
const JSON_START = /^ {0,3}[[{]\s*($|["{[\]}\d-]|(true|false|null)\s*[,\]}]?\s*$)/;

export function opensJson(line: string): number | undefined {
  if (!JSON_START.test(line)) return undefined;
  const depth = jsonDepthAfter(line, 0);
  return depth > 0 ? depth : undefined;
}

/**
 * A model's JSON written over several lines, unfenced, as a json fence: lexed as paragraphs (and,
 * streamed, in parts of a line or a few) its indentation was lost and a deeper line opened an
 * indented code block mid-object. `ctx.json`: the text starts inside such a value.
 */
function fenceBareJson(text: string, ctx?: MdContext): string {
  let depth = ctx?.json ?? 0;
  let fence = ctx?.json === undefined ? ctx?.fence : undefined;
  if (depth === 0 && fence === undefined && !/^ {0,3}[[{]/m.test(text)) return text;
  const out: string[] = [];
  for (const line of text.split("\n")) {
    out.push(line);
    if (depth > 0) {
      depth = jsonDepthAfter(line, depth);
      if (depth <= 0) {
        depth = 0;
        out.push("```");
      }
    } else if (fence !== undefined) {
      if (closesFence(line, fenceMarker(fence))) fence = undefined;
    } else if (opensFence(line) !== undefined) {
      fence = line;
    } else {
      const opened = opensJson(line);
      if (opened !== undefined) {
        out.splice(out.length - 1, 0, "```json");
        depth = opened;
      }
    }
  }
  return out.join("\n");
}

/** The blocks of one text (a whole reply or one part of it), tables drawn for `width` columns. */
export function markdownBlocks(text: string, width: number, ctx?: MdContext): MdBlock[] {
  if (text === "") return [{ type: "blank" }];
  const head = ctx?.fence ?? ctx?.tableHead;
  const body = ctx?.tableHead !== undefined ? text : fenceBareJson(text, ctx);
  const src = head !== undefined ? `${head}\n${body}` : body;
  const fence = ctx?.fence ? FENCE_OPEN.exec(ctx.fence) : null;
  // A part that starts with the line closing its fence has no code lines of its own.
  const closedAtOnce = !!fence && closesFence(text.split("\n", 1)[0], fence[1]);
  return blocks(
    new Lexer({ gfm: true }).lex(src),
    Math.max(20, width),
    head !== undefined ? ctx : undefined,
    closedAtOnce,
    true,
  );
}

/** The fence a line opens (its whole line), if it opens one. */
export function opensFence(line: string): string | undefined {
  return FENCE_OPEN.test(line) ? line : undefined;
}

/** Whether `line` closes a fence opened with `marker` (same character, at least as long, nothing after). */
export function closesFence(line: string, marker: string): boolean {
  const m = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line);
  return !!m && m[1][0] === marker[0] && m[1].length >= marker.length;
}

export function fenceMarker(fenceLine: string): string {
  return FENCE_OPEN.exec(fenceLine)?.[1] ?? "```";
}
