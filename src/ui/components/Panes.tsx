// Side panes: the programmatic log and the App pane. Each draws only its own sink's entries,
// wrapped to the pane's width and scrolled by the page: every line of every entry is reachable.
import { Box, Text } from "ink";
import { sanitizeInline, sanitizeJson, sanitizeName } from "../../protocol/sanitize.js";
import { formatBytes } from "../../host/result/measure.js";
import { displayWidth, truncateToWidth, wrapToWidth } from "../format.js";
import type { AppEntry, ProgrammaticEntry } from "../state.js";
import { NEWEST_HEAD } from "../state-types.js";

/**
 * Lines kept of one entry (a bound on memory: an 8 MiB value pretty-printed): what is past it is
 * named in the last line, and the transcript (/save) holds the whole value.
 */
export const MAX_LINES_PER_ENTRY = 50_000;

function clock(at: number): string {
  return new Date(at).toTimeString().slice(0, 8);
}

/** Pretty, sanitized JSON wrapped to `width` columns, at most MAX_LINES_PER_ENTRY lines (cached per value and width). */
const jsonCache = new WeakMap<object, { width: number; lines: string[] }>();
export function jsonLines(value: unknown, width = Number.POSITIVE_INFINITY): string[] {
  const key = typeof value === "object" && value !== null ? value : undefined;
  const hit = key && jsonCache.get(key);
  if (hit && hit.width === width) return hit.lines;
  const all = Number.isFinite(width) ? wrapToWidth(sanitizeJson(value), width) : sanitizeJson(value).split("\n");
  const over = all.length - MAX_LINES_PER_ENTRY;
  const lines =
    over > 0
      ? [
          ...all.slice(0, MAX_LINES_PER_ENTRY),
          `… ${over} more lines past the pane's bound: /save keeps the whole value`,
        ]
      : all;
  if (key) jsonCache.set(key, { width, lines });
  return lines;
}

/** Rows of pane content for a pane `height` rows tall (frame and title excluded). */
export function paneBodyRows(height: number): number {
  return Math.max(3, height - 3);
}

/** One PgUp/PgDn: the lines a pane `height` rows tall shows at once between its markers. */
export function pageRows(height: number): number {
  return Math.max(1, paneBodyRows(height) - 2);
}

/** The largest useful scroll for `count` lines in a pane `height` rows tall. */
export function maxScroll(count: number, height: number): number {
  const rows = paneBodyRows(height);
  return count <= rows ? 0 : Math.max(0, count - Math.max(1, rows - 2));
}

/** The window of `lines` that fits `height` rows, `scroll` lines up from the bottom. */
export function windowLines(
  lines: string[],
  height: number,
  scroll: number,
): { shown: string[]; above: number; below: number; scroll: number } {
  const body = Math.max(1, height - 2); // two rows reserved for the markers
  if (lines.length <= height) return { shown: lines, above: 0, below: 0, scroll: 0 };
  const maxScroll = Math.max(0, lines.length - body);
  const s = Math.max(0, Math.min(scroll, maxScroll));
  const end = lines.length - s;
  const start = Math.max(0, end - body);
  return { shown: lines.slice(start, end), above: start, below: lines.length - end, scroll: s };
}

function Framed({
  title,
  width,
  focused,
  children,
}: {
  title: string;
  width: number;
  focused?: boolean;
  children: React.ReactNode;
}) {
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={focused ? "cyan" : "gray"} width={width} paddingX={0}>
      <Text bold wrap="truncate-end">
        {truncateToWidth(title, Math.max(1, width - 2))}
      </Text>
      {children}
    </Box>
  );
}

export interface ProgrammaticPaneProps {
  entries: readonly ProgrammaticEntry[];
  width: number;
  height: number;
  /** Lines scrolled up from the newest. */
  scroll: number;
  /** PgUp/PgDn scroll this pane. */
  focused?: boolean;
}

/** The text width inside a pane `width` columns wide, after the entries' two-space indent. */
const bodyWidth = (width: number) => Math.max(4, width - 4);

export { NEWEST_HEAD };

/** A pane's lines, and where its newest entry starts (the line index of its header). */
interface Layout {
  lines: string[];
  newest: number;
}

/** A pane's layout, kept per entries array (the store replaces it on change) and width. */
const layoutCache = new WeakMap<readonly object[], { width: number; layout: Layout }>();
function cachedLayout<T extends object>(entries: readonly T[], width: number, build: () => Layout): Layout {
  const hit = layoutCache.get(entries);
  if (hit && hit.width === width) return hit.layout;
  const layout = build();
  layoutCache.set(entries, { width, layout });
  return layout;
}

/** The scroll to draw: NEWEST_HEAD resolved to the position that starts at the newest entry's header. */
export function resolveScroll(layout: Layout, height: number, scroll: number): number {
  if (scroll !== NEWEST_HEAD) return scroll;
  const body = Math.max(1, paneBodyRows(height) - 2);
  if (layout.lines.length <= paneBodyRows(height)) return 0;
  return Math.max(0, layout.lines.length - layout.newest - body);
}

/**
 * One line saying what a value holds, for an entry's header: `[37 items]`, `{items: 37 items,
 * total, nextCursor}` (at most five keys, arrays counted), or the value when it is short.
 */
export function summarizeValue(value: unknown): string {
  const items = (n: number) => `${n} item${n === 1 ? "" : "s"}`;
  if (Array.isArray(value)) return `[${items(value.length)}]`;
  if (value && typeof value === "object") {
    const keys = Object.keys(value);
    const shown = keys.slice(0, 5).map((k) => {
      const v = (value as Record<string, unknown>)[k];
      const name = sanitizeName(k, 24);
      return Array.isArray(v) ? `${name}: ${items(v.length)}` : name;
    });
    return `{${shown.join(", ")}${keys.length > 5 ? `, … ${keys.length - 5} more` : ""}}`;
  }
  const text = sanitizeInline(JSON.stringify(value) ?? String(value));
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

export function programmaticLines(entries: readonly ProgrammaticEntry[], width = 1_000): string[] {
  return programmaticLayout(entries, width).lines;
}
export function programmaticLayout(entries: readonly ProgrammaticEntry[], width = 1_000): Layout {
  return cachedLayout(entries, width, () => buildProgrammaticLines(entries, width));
}
function buildProgrammaticLines(entries: readonly ProgrammaticEntry[], width: number): Layout {
  const lines: string[] = [];
  let newest = 0;
  for (const e of entries) {
    newest = lines.length;
    lines.push(
      ...wrapToWidth(
        `#${e.n} ${sanitizeName(e.server)} · ${sanitizeName(e.tool)}  ${clock(e.at)}  ${formatBytes(e.bytes)} · ${summarizeValue(e.value)}`,
        width - 2,
      ),
    );
    for (const l of jsonLines(e.value, bodyWidth(width))) lines.push(`  ${l}`);
  }
  return { lines, newest };
}

/** A pane's scrolled body: the visible window of its lines with "↑/↓ N more" markers. */
function PaneBody({
  layout,
  width,
  height,
  scroll,
}: {
  layout: Layout;
  width: number;
  height: number;
  scroll: number;
}) {
  const inner = Math.max(4, width - 2);
  const { shown, above, below } = windowLines(
    layout.lines,
    paneBodyRows(height),
    resolveScroll(layout, height, scroll),
  );
  return (
    <>
      {above ? <Text dimColor>{`↑ ${above} more`}</Text> : null}
      {shown.map((l, i) => (
        <Text key={i} wrap="truncate-end">
          {truncateToWidth(l, inner)}
        </Text>
      ))}
      {below ? <Text dimColor>{`↓ ${below} more`}</Text> : null}
    </>
  );
}

export function ProgrammaticPane({ entries, width, height, scroll, focused }: ProgrammaticPaneProps) {
  return (
    <Framed
      title={fitted(
        [
          `${focused ? "▸ " : ""}Programmatic (${entries.length}) · PgUp/PgDn`,
          `${focused ? "▸ " : ""}Programmatic (${entries.length})`,
        ],
        width,
      )}
      width={width}
      focused={focused}
    >
      <PaneBody layout={programmaticLayout(entries, width)} width={width} height={height} scroll={scroll} />
    </Framed>
  );
}

export interface AppPaneProps {
  entries: readonly AppEntry[];
  width: number;
  height: number;
  /** Lines scrolled up from the newest. */
  scroll?: number;
  focused?: boolean;
}

export function appLines(entries: readonly AppEntry[], width = 1_000): string[] {
  return appLayout(entries, width).lines;
}
export function appLayout(entries: readonly AppEntry[], width = 1_000): Layout {
  return cachedLayout(entries, width, () => buildAppLines(entries, width));
}
function buildAppLines(entries: readonly AppEntry[], width: number): Layout {
  const lines: string[] = [];
  let newest = 0;
  for (const e of entries) {
    newest = lines.length;
    // A line about the App View (store.appNote): its time and text, no JSON around it.
    if (e.audience === "view" && typeof e.value === "string") {
      lines.push(...wrapToWidth(`${clock(e.at)} ${sanitizeInline(e.value)}`, width - 2));
      continue;
    }
    lines.push(
      ...wrapToWidth(
        `${e.audience ? sanitizeName(e.audience) : "(no output)"} · ${sanitizeName(e.server)} · ${sanitizeName(e.tool)}  ${clock(e.at)}${e.value !== undefined ? ` · ${summarizeValue(e.value)}` : ""}`,
        width - 2,
      ),
    );
    if (e.value !== undefined) for (const l of jsonLines(e.value, bodyWidth(width))) lines.push(`  ${l}`);
    if (Object.keys(e.appMeta).length) {
      lines.push("  _meta:");
      for (const l of jsonLines(e.appMeta, bodyWidth(width))) lines.push(`  ${l}`);
    }
  }
  return { lines, newest };
}

/** "App · EXTENSION (N)"; where that is too wide for the pane, shorter forms that keep the extension id whole. */
export function appTitle(ext: string, count: number, width: number, focused?: boolean): string {
  const mark = focused ? "▸ " : "";
  const full = `${mark}App${ext ? ` · ${ext}` : ""} (${count})`;
  if (!ext) return full;
  return fitted([full, `${mark}${ext} (${count})`, `${mark}${ext}`], width);
}

/** The first title that fits inside a pane `width` wide (else the first, cut by Framed). */
function fitted(titles: string[], width: number): string {
  return titles.find((t) => displayWidth(t) <= width - 2) ?? titles[0];
}

export function AppPane({ entries, width, height, scroll = 0, focused }: AppPaneProps) {
  const ext = [...new Set(entries.map((e) => e.audience).filter(Boolean))].map((a) => sanitizeName(a)).join(", ");
  return (
    <Framed title={appTitle(ext, entries.length, width, focused)} width={width} focused={focused}>
      <PaneBody layout={appLayout(entries, width)} width={width} height={height} scroll={scroll} />
    </Framed>
  );
}
