// The prompt line: editing (←/→, Backspace, ^A ^E ^U ^W), history (↑/↓), multi-line paste kept
// as one input, a new line typed with ^J or `\` then Enter, Enter submits, Tab completes
// (useCompletion: the candidates are shown under the line), Esc clears the line while no turn runs.
// Keys the app owns (^T, ^O, Shift+Tab, PgUp/PgDn, ^C; Esc while a turn runs) are left alone.
// Paste: a bracketed paste (ESC[200~ … ESC[201~, see useKeys) is inserted with its newlines and
// never submits. Without the markers, a chunk ENDING in CR is typed text plus Enter (tmux
// send-keys, fast typing over ssh) and submits; any other multi-character chunk is a paste.
import { useEffect, useRef, useState } from "react";
import { Box, Text, type Key } from "ink";
import chalk from "chalk";
import { useKeys } from "../hooks/useKeys.js";
import { sanitizeText } from "../../protocol/sanitize.js";
import { truncateToWidth } from "../format.js";
import { knownCandidates, useCompletion, type CompletionSource } from "../hooks/useCompletion.js";
import { tabCompletion } from "../completion.js";

export interface EditState {
  value: string;
  cursor: number;
  /** Position in history while browsing (history.length = the draft). */
  hist: number;
  draft: string;
}
export const EMPTY_EDIT: EditState = { value: "", cursor: 0, hist: -1, draft: "" };

/** Pasted text arrives as one multi-character chunk; normalise line endings and paste markers. */
function normalizePaste(s: string): string {
  return s.replace(/\x1b?\[20[01]~/g, "").replace(/\r\n?/g, "\n");
}

// C0 controls other than tab, LF and CR, and DEL: editing keys, never text.
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/;
const FLAGS = [
  "upArrow",
  "downArrow",
  "leftArrow",
  "rightArrow",
  "pageDown",
  "pageUp",
  "home",
  "end",
  "return",
  "escape",
  "ctrl",
  "shift",
  "tab",
  "backspace",
  "delete",
  "meta",
] as const;

function plainKey(base: Key, set: Partial<Key> = {}): Key {
  const k = { ...base } as Key;
  for (const f of FLAGS) (k as unknown as Record<string, boolean>)[f] = false;
  return { ...k, ...set };
}

/** One control character as the key Ink would report for it alone. */
function controlKey(c: string, base: Key): [string, Key] {
  const code = c.charCodeAt(0);
  if (code === 0x7f || code === 0x08) return ["", plainKey(base, { backspace: true })];
  if (code >= 1 && code <= 26) return [String.fromCharCode(code + 96), plainKey(base, { ctrl: true })];
  return ["", plainKey(base)];
}

/** Text typed ahead: each CR is an Enter ("a\rb\r" → "a" Enter, "b" Enter). */
function typedText(text: string, base: Key): [string, Key][] {
  const out: [string, Key][] = [];
  const lines = text.split("\r");
  lines.forEach((line, i) => {
    const last = i === lines.length - 1;
    if (last) {
      if (line) out.push([line, plainKey(base)]);
    } else out.push(line ? [line + "\r", plainKey(base)] : ["\r", plainKey(base, { return: true })]);
  });
  return out;
}

/**
 * One unbracketed stdin chunk → key events. Ink splits a chunk only at escape sequences, so a fast
 * typist (tmux send-keys, ssh, key repeat) can deliver several keys in one string:
 * - with control characters (Backspace, ^U, …) it is typed keys: text runs and one event per control;
 * - ending in CR it is typed lines, each CR an Enter;
 * - otherwise a multi-character chunk is a paste from a terminal without bracketed paste.
 */
export function typedLines(input: string, key: Key): [string, Key][] {
  if (input.length <= 1) return [[input, key]];
  if (CONTROL.test(input)) {
    const out: [string, Key][] = [];
    for (const part of input.split(/([\x00-\x08\x0b\x0c\x0e-\x1f\x7f])/)) {
      if (!part) continue;
      if (part.length === 1 && CONTROL.test(part)) out.push(controlKey(part, key));
      else out.push(...typedText(part, key));
    }
    return out;
  }
  if (!input.endsWith("\r")) return [[input, key]];
  return typedText(input, key);
}

/** A bracketed paste: inserted as is (line endings normalised), never submitted. */
export function applyPaste(s: EditState, text: string): EditState {
  return insert(s, normalizePaste(text));
}

function insert(s: EditState, text: string): EditState {
  return { ...s, value: s.value.slice(0, s.cursor) + text + s.value.slice(s.cursor), cursor: s.cursor + text.length };
}

/** Pure key handling, so editing is testable without a terminal. Returns [state, submitted?]. */
export function applyKey(
  s: EditState,
  input: string,
  key: Key,
  history: readonly string[],
): [EditState, string | undefined] {
  if (key.return && input.length <= 1) {
    // `\` then Enter: a new line instead of sending (the backslash is not kept).
    if (s.cursor > 0 && s.value[s.cursor - 1] === "\\")
      return [{ ...s, value: `${s.value.slice(0, s.cursor - 1)}\n${s.value.slice(s.cursor)}`, hist: -1 }, undefined];
    return [EMPTY_EDIT, s.value];
  }
  // ^C clears what was typed, as shells do (the App cancels or quits only on an empty prompt).
  if (key.ctrl && input === "c") return [s.value === "" ? s : EMPTY_EDIT, undefined];
  if (key.tab || key.escape || key.pageUp || key.pageDown) return [s, undefined];
  // ↑/↓ inside a draft of several lines move between its lines; history from its first/last line.
  const lineStart = s.value.lastIndexOf("\n", s.cursor - 1) + 1;
  if (key.upArrow && lineStart > 0) {
    const prevStart = s.value.lastIndexOf("\n", lineStart - 2) + 1;
    return [{ ...s, cursor: Math.min(prevStart + (s.cursor - lineStart), lineStart - 1) }, undefined];
  }
  const lineEnd = s.value.indexOf("\n", s.cursor);
  if (key.downArrow && lineEnd >= 0) {
    const nextEnd = s.value.indexOf("\n", lineEnd + 1);
    return [
      { ...s, cursor: Math.min(lineEnd + 1 + (s.cursor - lineStart), nextEnd < 0 ? s.value.length : nextEnd) },
      undefined,
    ];
  }
  if (key.upArrow || key.downArrow) {
    if (history.length === 0) return [s, undefined];
    const at = s.hist < 0 ? history.length : s.hist;
    const next = key.upArrow ? Math.max(0, at - 1) : Math.min(history.length, at + 1);
    const draft = s.hist < 0 ? s.value : s.draft;
    const value = next === history.length ? draft : history[next];
    return [{ value, cursor: value.length, hist: next === history.length ? -1 : next, draft }, undefined];
  }
  if (key.leftArrow) return [{ ...s, cursor: Math.max(0, s.cursor - 1) }, undefined];
  if (key.rightArrow) return [{ ...s, cursor: Math.min(s.value.length, s.cursor + 1) }, undefined];
  if (key.home || (key.ctrl && input === "a")) return [{ ...s, cursor: 0 }, undefined];
  if (key.end || (key.ctrl && input === "e")) return [{ ...s, cursor: s.value.length }, undefined];
  if (key.ctrl && input === "u") return [{ ...s, value: s.value.slice(s.cursor), cursor: 0 }, undefined];
  if (key.ctrl && input === "w") {
    const before = s.value.slice(0, s.cursor).replace(/\S+\s*$|\s+$/, "");
    return [{ ...s, value: before + s.value.slice(s.cursor), cursor: before.length }, undefined];
  }
  if (key.backspace || key.delete) {
    if (s.cursor === 0) return [s, undefined];
    return [{ ...s, value: s.value.slice(0, s.cursor - 1) + s.value.slice(s.cursor), cursor: s.cursor - 1 }, undefined];
  }
  if (key.ctrl || key.meta) return [s, undefined];
  if (!input) return [s, undefined];
  if (input.length > 1 && input.endsWith("\r")) {
    const text = normalizePaste(input.slice(0, -1));
    // Typed ahead with `\` before the Enter: a new line, as when typed key by key.
    if (text.endsWith("\\")) return [insert(s, `${text.slice(0, -1)}\n`), undefined];
    return [EMPTY_EDIT, insert(s, text).value];
  }
  return [insert(s, input.length > 1 ? normalizePaste(input) : input === "\r" ? "\n" : input), undefined];
}

export interface PromptInputProps {
  onSubmit: (text: string) => void;
  history?: readonly string[];
  isActive?: boolean;
  width: number;
  /** What Tab completes from (commands, prompt commands, tools, prompt argument values). */
  completion?: CompletionSource;
  /** Told whether the line is empty after each change (the app's Home/End scroll the pane then). */
  onEmpty?: (empty: boolean) => void;
  /** A turn runs: Esc is the app's (cancel), not the line's (clear). */
  busy?: boolean;
  prompt?: string;
}

/** Candidates shown under the prompt line. */
const MENU_ITEMS = 8;

/**
 * The cursor cell without colour or styles (NO_COLOR: chalk draws no inverse video): a block at
 * the end of the line, else the character under it underlined by a combining low line.
 */
export function cursorWithoutStyle(at: string): string {
  return at ? `${sanitizeText(at)}\u0332` : "█";
}

const MAX_SHOWN_LINES = 4;

export function PromptInput({
  onSubmit,
  history = [],
  isActive = true,
  width,
  completion,
  onEmpty,
  busy = false,
  prompt = "› ",
}: PromptInputProps) {
  const [state, setState] = useState<EditState>(EMPTY_EDIT);
  const ref = useRef(state);
  ref.current = state;
  const candidates = useCompletion(state.value, state.cursor, completion, isActive);
  const latest = useRef(candidates);
  latest.current = candidates;
  useEffect(() => {
    onEmpty?.(state.value === "");
  }, [state.value, onEmpty]);
  useKeys(
    (input, key) => {
      if (key.escape && !busy && input === "") {
        ref.current = EMPTY_EDIT;
        setState(ref.current);
        return;
      }
      if (key.tab && !key.shift) {
        // Keys typed since the last draw: the known candidates for the line as it is now.
        const c =
          latest.current.line === ref.current.value ? latest.current : knownCandidates(ref.current.value, completion);
        const next = tabCompletion(ref.current.value, c.from, c.typed, c.items);
        if (next !== undefined) {
          ref.current = { ...ref.current, value: next, cursor: next.length, hist: -1 };
          setState(ref.current);
        }
        return;
      }
      for (const [part, k] of typedLines(input, key)) {
        const [next, submitted] = applyKey(ref.current, part, k, history);
        ref.current = next;
        if (submitted !== undefined && submitted.trim() !== "") onSubmit(submitted);
      }
      setState(ref.current);
    },
    {
      isActive,
      onPaste: (text) => {
        ref.current = applyPaste(ref.current, text);
        setState(ref.current);
      },
    },
  );

  const lines = state.value.split("\n");
  const inner = Math.max(4, width - prompt.length - 1);
  // Cursor position as (line, column) for the inverse-video cursor cell.
  const beforeCursor = state.value.slice(0, state.cursor).split("\n");
  const cLine = beforeCursor.length - 1;
  const cCol = beforeCursor[cLine].length;
  const first = Math.max(0, Math.min(cLine - MAX_SHOWN_LINES + 1, lines.length - MAX_SHOWN_LINES));
  const shown = lines.slice(first, first + MAX_SHOWN_LINES);
  const more = candidates.items.length > MENU_ITEMS ? `  … ${candidates.items.length - MENU_ITEMS} more` : "";
  const hint =
    candidates.items.length > 0 && isActive
      ? `${(candidates.labels ?? candidates.items)
          .slice(0, MENU_ITEMS)
          .map((c) => sanitizeText(c.trimEnd()))
          .join("  ")}${more}`
      : "";
  return (
    <Box flexDirection="column">
      {shown.map((line, i) => {
        const ln = first + i;
        const text = sanitizeText(line);
        const pre = i === 0 ? prompt : " ".repeat(prompt.length);
        if (ln !== cLine || !isActive) return <Text key={ln}>{pre + truncateToWidth(text, inner)}</Text>;
        const left = sanitizeText(line.slice(0, cCol));
        const at = line.slice(cCol, cCol + 1);
        const right = line.slice(cCol + 1);
        return (
          <Text key={ln}>
            {pre}
            {left}
            {chalk.level === 0 ? cursorWithoutStyle(at) : <Text inverse>{at ? sanitizeText(at) : " "}</Text>}
            {sanitizeText(right)}
          </Text>
        );
      })}
      {lines.length > 1 ? <Text dimColor>{`  [${lines.length} lines · Enter sends all]`}</Text> : null}
      {hint ? <Text dimColor>{truncateToWidth(`  ${hint}`, width)}</Text> : null}
    </Box>
  );
}
