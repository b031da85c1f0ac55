// Pure table rendering for user/structured values, drawn with cli-table3.
// cli-table3 is slow (it measures and pads every cell), so only ONE page of rows ever reaches it:
// 10,000 rows cost what 20 do. Every cell passes the sanitizer and is cut to its column width.
import Table from "cli-table3";
import { isObject } from "../protocol/is-object.js";
import { sanitizeInline, sanitizeName } from "../protocol/sanitize.js";
import { displayWidth, truncateToWidth } from "./format.js";

export interface TableOptions {
  /** Total columns available, borders included. */
  width: number;
  /** First row of the window (0-based). */
  offset?: number;
  pageSize?: number;
  /** Most data columns drawn before "+N cols". */
  maxColumns?: number;
  /** How to see the rest, after "N more rows —" (the app pages with /table; the CLI has --json). */
  moreHint?: string;
  /** How to get the server's further pages, after "more on the server (nextCursor)". */
  serverHint?: string;
  /** Rows the server sent on earlier pages (/table next): the rows are numbered after them. */
  rowBase?: number;
}
export const DEFAULT_PAGE_SIZE = 20;

/** Where a table came from, to fetch the server's next page: the call, and the rows on earlier pages. */
export interface TableSource {
  server: string;
  tool: string;
  args: Record<string, unknown>;
  requested: import("../protocol/index.js").ToolResultOutputSelector[] | undefined;
  before: number;
}

const MIN_COL = 3; // content columns a data column may shrink to
const CELL_MAX = 60; // a single cell is never wider than this, whatever the space

/** One cell's one-line text: scalars as-is; a small array or object inline (`[vip, eu]`,
 * `{code: 404, message: Not found}`), its own nested values counted; a larger one counted. */
export function summarizeCell(v: unknown, depth = 0): string {
  if (v === null) return "null";
  if (v === undefined) return "";
  if (typeof v === "string") return sanitizeInline(depth ? v.slice(0, INLINE_WIDTH) : v);
  if (typeof v === "number" || typeof v === "boolean" || typeof v === "bigint") return String(v);
  if (Array.isArray(v)) {
    if (depth === 0 && v.length > 0 && v.length <= INLINE_MAX)
      return truncateToWidth(`[${v.map((x) => summarizeCell(x, 1)).join(", ")}]`, INLINE_WIDTH);
    return `[${v.length} ${v.length === 1 ? "item" : "items"}]`;
  }
  if (typeof v === "object") {
    const keys = Object.keys(v);
    if (depth === 0 && keys.length > 0 && keys.length <= INLINE_MAX) {
      const parts = keys.map((k) => `${sanitizeName(k, 24)}: ${summarizeCell((v as Record<string, unknown>)[k], 1)}`);
      return truncateToWidth(`{${parts.join(", ")}}`, INLINE_WIDTH);
    }
    return `{${keys.length} ${keys.length === 1 ? "key" : "keys"}}`;
  }
  return sanitizeInline(String(v));
}
/** A nested array or object is written inline when it has at most this many entries, cut at this width. */
const INLINE_MAX = 8;
const INLINE_WIDTH = 200;

// Columns: union of keys, in first-seen order, of the first rows and of the window drawn.
// Sampling (not scanning every row) keeps the cost of a page independent of the array's length;
// a key seen only deep in the array appears when that page is drawn.
const COLUMN_SAMPLE = 200;
const columnCache = new WeakMap<unknown[], string[]>();
function unionKeys(rows: unknown[], page: unknown[]): string[] {
  let head = columnCache.get(rows);
  if (!head) {
    head = keysOf(rows.slice(0, COLUMN_SAMPLE));
    columnCache.set(rows, head);
  }
  const extra = keysOf(page).filter((k) => !head!.includes(k));
  return extra.length ? [...head, ...extra] : head;
}
function keysOf(rows: unknown[]): string[] {
  const seen = new Set<string>();
  let scalars = false;
  for (const r of rows) {
    if (isObject(r)) for (const k of Object.keys(r)) seen.add(k);
    else scalars = true;
  }
  const cols = [...seen];
  if (scalars) cols.push("value");
  return cols;
}

/** Fits natural column widths into `avail` content columns: narrow columns keep their width. */
export function fitWidths(natural: number[], avail: number): number[] {
  const widths = natural.map((w) => Math.max(1, Math.min(w, CELL_MAX)));
  if (widths.reduce((a, b) => a + b, 0) <= avail) return widths;
  // Water-filling: the widest columns are cut down to a common cap until everything fits.
  const order = widths.map((w, i) => [w, i] as const).sort((a, b) => a[0] - b[0]);
  let remaining = avail;
  const out = new Array<number>(widths.length);
  for (let k = 0; k < order.length; k++) {
    const [w, i] = order[k];
    const share = Math.floor(remaining / (order.length - k));
    out[i] = Math.max(Math.min(MIN_COL, w), Math.min(w, share));
    remaining -= out[i];
  }
  return out;
}

interface Grid {
  head: string[];
  rows: string[][];
  total: number;
  hiddenCols: number;
  caption?: string;
  /** The total the server reported beside the rows (`total`), and whether it holds more (`nextCursor`). */
  reported?: number;
  moreOnServer?: boolean;
  /** The row label column (#) for arrays. */
  numbered: boolean;
}

function gridOf(value: unknown, offset: number, pageSize: number, maxColumns: number, base = 0): Grid | string {
  let caption: string | undefined;
  let reported: number | undefined;
  let moreOnServer = false;
  // {items: [...]}: structuredContent must be an object, so a lone array inside is the table; so is
  // one beside paging scalars ({items, total, nextCursor}), whose total and cursor the note tells.
  const inner = rowsKey(value);
  if (inner !== undefined && isObject(value)) {
    caption = sanitizeName(inner);
    if (typeof value.total === "number" && Number.isFinite(value.total)) reported = value.total;
    moreOnServer = typeof value.nextCursor === "string" && value.nextCursor !== "";
    value = value[inner];
  }
  if (Array.isArray(value)) {
    const page = value.slice(offset, offset + pageSize);
    const all = unionKeys(value, page);
    const cols = all.slice(0, maxColumns);
    const rows = page.map((r, i) => [
      String(base + offset + i + 1),
      ...cols.map((c) => (isObject(r) ? (c in r ? summarizeCell(r[c]) : "") : c === "value" ? summarizeCell(r) : "")),
    ]);
    return {
      head: ["#", ...cols.map((c) => sanitizeName(c))],
      rows,
      total: value.length,
      hiddenCols: all.length - cols.length,
      caption,
      reported,
      moreOnServer,
      numbered: true,
    };
  }
  if (isObject(value)) {
    const entries = Object.entries(value);
    const rows = entries.slice(offset, offset + pageSize).map(([k, v]) => [sanitizeName(k), summarizeCell(v)]);
    return { head: ["key", "value"], rows, total: entries.length, hiddenCols: 0, numbered: false };
  }
  return summarizeCell(value);
}

/** Draws one window of a structured value as a table fitted to `width` columns. */
export function renderTable(value: unknown, opts: TableOptions): string {
  const pageSize = Math.max(1, opts.pageSize ?? DEFAULT_PAGE_SIZE);
  const width = Math.max(20, Math.floor(opts.width));
  // Each column costs 3 columns of chrome (border + 2 padding) plus one closing border.
  const maxColumns = Math.max(1, Math.min(opts.maxColumns ?? 12, Math.floor((width - 1) / (MIN_COL + 3)) - 1));
  const total = totalRows(value);
  const offset = Math.max(0, Math.min(opts.offset ?? 0, Math.max(0, total - 1)));
  const base = Math.max(0, Math.floor(opts.rowBase ?? 0));
  const grid = gridOf(value, offset, pageSize, maxColumns, base);
  if (typeof grid === "string") return truncateToWidth(grid, width);
  if (grid.total === 0) return (grid.caption ? `${grid.caption}: ` : "") + "(empty)";

  const ncols = grid.head.length;
  const natural = grid.head.map((h, c) =>
    grid.rows.reduce((m, r) => Math.max(m, displayWidth(r[c] ?? "")), displayWidth(h)),
  );
  const avail = width - 1 - 3 * ncols;
  const widths = fitWidths(natural, Math.max(ncols, avail));
  const cut = (s: string, c: number) => truncateToWidth(s, widths[c]);

  const table = new Table({
    head: grid.head.map(cut),
    colWidths: widths.map((w) => w + 2),
    style: { head: [], border: [], "padding-left": 1, "padding-right": 1, compact: true },
    wordWrap: false,
  });
  for (const r of grid.rows) table.push(r.map(cut));

  const lines: string[] = [];
  if (grid.caption) lines.push(`${grid.caption}:`);
  lines.push(table.toString());
  const notes: string[] = [];
  const shownTo = offset + grid.rows.length;
  if (grid.total > grid.rows.length)
    notes.push(
      grid.numbered && base
        ? `rows ${base + offset + 1}–${base + shownTo} (${offset + 1}–${shownTo} of the ${grid.total} on this page)`
        : `rows ${offset + 1}–${shownTo} of ${grid.total}${grid.reported !== undefined || grid.moreOnServer ? " sent" : ""}`,
    );
  if (grid.total - shownTo > 0) notes.push(`${grid.total - shownTo} more rows — ${opts.moreHint ?? "/table to page"}`);
  if (grid.reported !== undefined && grid.reported !== grid.total)
    notes.push(`the server reported ${grid.reported} in all`);
  if (grid.moreOnServer)
    notes.push(`more on the server (nextCursor) — ${opts.serverHint ?? "/table next fetches them"}`);
  if (grid.hiddenCols > 0) notes.push(`+${grid.hiddenCols} cols`);
  if (notes.length) lines.push(notes.join(" · ")); // wrapped by whoever draws it: never cut
  return lines.join("\n");
}

const PAGING_KEYS = new Set(["total", "nextCursor"]);

/** The key of the one array an object's rows are in: alone, or beside only `total`/`nextCursor`. */
function rowsKey(value: unknown): string | undefined {
  if (!isObject(value)) return undefined;
  const keys = Object.keys(value);
  const arrays = keys.filter((k) => Array.isArray(value[k]));
  if (arrays.length !== 1) return undefined;
  return keys.every((k) => k === arrays[0] || PAGING_KEYS.has(k)) ? arrays[0] : undefined;
}

/** The `nextCursor` beside a table's rows ({items, total, nextCursor}): the server has more. */
export function nextCursorOf(value: unknown): string | undefined {
  if (rowsKey(value) === undefined || !isObject(value)) return undefined;
  return typeof value.nextCursor === "string" && value.nextCursor !== "" ? value.nextCursor : undefined;
}

/** The total the server reported beside a table's rows, if any. */
export function reportedTotalOf(value: unknown): number | undefined {
  if (rowsKey(value) === undefined || !isObject(value)) return undefined;
  return typeof value.total === "number" && Number.isFinite(value.total) ? value.total : undefined;
}

/** Rows a value pages over (array length, object key count, or 1). */
export function totalRows(value: unknown): number {
  if (isObject(value)) {
    const inner = rowsKey(value);
    if (inner !== undefined) return (value[inner] as unknown[]).length;
    return Object.keys(value).length;
  }
  if (Array.isArray(value)) return value.length;
  return 1;
}
