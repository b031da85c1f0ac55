// Side panes: the programmatic log and the App pane. Each draws only its own sink's entries,
// wrapped to the pane's width and scrolled by the page: every line of every entry is reachable.
import { Box, Text } from "ink";
import { sanitizeInline, sanitizeJson, sanitizeName } from "../../protocol/sanitize.js";
import { formatBytes } from "../../host/result/measure.js";
import { displayWidth, truncateToWidth, wrapToWidth } from "../format.js";
import type { AppEntry, ProgrammaticEntry } from "../state.js";

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

/** A pane's lines, kept per entries array (the store replaces it on change) and width. */
const linesCache = new WeakMap<readonly object[], { width: number; lines: string[] }>();
function cachedLines<T extends object>(entries: readonly T[], width: number, build: () => string[]): string[] {
  const hit = linesCache.get(entries);
  if (hit && hit.width === width) return hit.lines;
  const lines = build();
  linesCache.set(entries, { width, lines });
  return lines;
}

export function programmaticLines(entries: readonly ProgrammaticEntry[], width = 1_000): string[] {
  return cachedLines(entries, width, () => buildProgrammaticLines(entries, width));
}
function buildProgrammaticLines(entries: readonly ProgrammaticEntry[], width: number): string[] {
  const lines: string[] = [];
  for (const e of entries) {
    lines.push(
      ...wrapToWidth(
        `#${e.n} ${sanitizeName(e.server)} · ${sanitizeName(e.tool)}  ${clock(e.at)}  ${formatBytes(e.bytes)}`,
        width - 2,
      ),
    );
    for (const l of jsonLines(e.value, bodyWidth(width))) lines.push(`  ${l}`);
  }
  return lines;
}

/** A pane's scrolled body: the visible window of its lines with "↑/↓ N more" markers. */
function PaneBody({
  lines,
  width,
  height,
  scroll,
}: {
  lines: string[];
  width: number;
  height: number;
  scroll: number;
}) {
  const inner = Math.max(4, width - 2);
  const { shown, above, below } = windowLines(lines, paneBodyRows(height), scroll);
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
      <PaneBody lines={programmaticLines(entries, width)} width={width} height={height} scroll={scroll} />
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
  return cachedLines(entries, width, () => buildAppLines(entries, width));
}
function buildAppLines(entries: readonly AppEntry[], width: number): string[] {
  const lines: string[] = [];
  for (const e of entries) {
    // A line about the App View (store.appNote): its time and text, no JSON around it.
    if (e.audience === "view" && typeof e.value === "string") {
      lines.push(...wrapToWidth(`${clock(e.at)} ${sanitizeInline(e.value)}`, width - 2));
      continue;
    }
    lines.push(
      ...wrapToWidth(
        `${e.audience ? sanitizeName(e.audience) : "(no output)"} · ${sanitizeName(e.server)} · ${sanitizeName(e.tool)}  ${clock(e.at)}`,
        width - 2,
      ),
    );
    if (e.value !== undefined) for (const l of jsonLines(e.value, bodyWidth(width))) lines.push(`  ${l}`);
    if (Object.keys(e.appMeta).length) {
      lines.push("  _meta:");
      for (const l of jsonLines(e.appMeta, bodyWidth(width))) lines.push(`  ${l}`);
    }
  }
  return lines;
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
      <PaneBody lines={appLines(entries, width)} width={width} height={height} scroll={scroll} />
    </Framed>
  );
}
