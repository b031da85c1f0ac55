// The chat app shell: conversation in the main column, the side pane (Programmatic + App) beside
// it — or folded below it at ≤ 80 columns — and the status bar at the bottom.
import { truncateToWidth } from "./format.js";
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { Box, Text, useApp, useStdout } from "ink";
import { useKeys } from "./hooks/useKeys.js";
import { FinishedTurns, TurnView } from "./components/Conversation.js";
import {
  AppPane,
  appLayout,
  maxScroll,
  pageRows,
  ProgrammaticPane,
  programmaticLayout,
  resolveScroll,
} from "./components/Panes.js";
import { PromptInput } from "./components/PromptInput.js";
import { ApprovalPrompt } from "./components/ApprovalPrompt.js";
import { InputDialog } from "./components/InputDialog.js";
import { StatusBar } from "./components/StatusBar.js";
import type { ServerView } from "./server-view.js";
import { useTerminalSize } from "./hooks/useTerminalSize.js";
import { useNow } from "./hooks/useNow.js";
import { imagesPending, imagesSettled } from "./imageCache.js";
import type { ChatSession } from "./session.js";
import type { PaneName, UiState } from "./state.js";

/** How long the width must stay put before the app is drawn again for it. */
const RESIZE_SETTLE_MS = 150;

/** At or under this many columns the side pane folds below the conversation. */
export const NARROW_COLUMNS = 59;

/** The pane PgUp/PgDn/Home/End move: the focused one, or the other when the focused one is empty. */
export function scrolledPane(s: UiState): PaneName {
  if (s.paneFocus === "app") return s.app.length || !s.programmatic.length ? "app" : "programmatic";
  return s.programmatic.length || !s.app.length ? "programmatic" : "app";
}

/** The side pane's lines per pane at `width` columns. */
function paneLines(s: UiState, pane: PaneName, width: number): string[] {
  return paneLayout(s, pane, width).lines;
}
function paneLayout(s: UiState, pane: PaneName, width: number) {
  return pane === "app" ? appLayout(s.app, width) : programmaticLayout(s.programmatic, width);
}

/**
 * Each shown pane's height: the side pane takes at most half the terminal (the conversation keeps
 * the rest, the prompt and the status bar stay whole), split between the panes that have entries,
 * each no taller than its content.
 */
export function paneHeights(s: UiState, width: number, rows: number): Record<PaneName, number> {
  const shown = (["programmatic", "app"] as const).filter(
    (p) => (p === "app" ? s.app.length : s.programmatic.length) > 0,
  );
  const total = Math.max(6, Math.floor(rows / 2) - 1);
  const each = Math.max(5, Math.floor(total / Math.max(1, shown.length)));
  const h: Record<PaneName, number> = { programmatic: 0, app: 0 };
  for (const p of shown) h[p] = Math.min(each, paneLines(s, p, width).length + 3);
  return h;
}

/** PgUp/PgDn (a page), Home/End (the oldest / newest line): scrolls the pane scrolledPane names. */
export function scrollPane(
  s: UiState,
  to: "up" | "down" | "top" | "bottom",
  width: number,
  rows: number,
): Partial<UiState> {
  const pane = scrolledPane(s);
  const height = paneHeights(s, width, rows)[pane];
  const most = maxScroll(paneLines(s, pane, width).length, height);
  const now = resolveScroll(paneLayout(s, pane, width), height, pane === "app" ? s.appScroll : s.progScroll);
  const page = pageRows(height);
  const next =
    to === "top" ? most : to === "bottom" ? 0 : Math.max(0, Math.min(most, now + (to === "up" ? page : -page)));
  return pane === "app" ? { appScroll: next } : { progScroll: next };
}
const QUIT_WINDOW_MS = 1500;

export interface AppProps {
  session: ChatSession;
  servers: () => ServerView[];
  /** The model's id; a function when /model can change it. */
  modelName: string | (() => string);
  maxPixels?: number;
}

/** Above the prompt until the first turn: what to try. */
export const FIRST_HINT = "Ask anything, or try /help · /tools · /servers · /mode · @ to attach a resource";

/** Nothing but start-up notices (the transcript's path, servers' notes) on screen yet. */
function firstScreen(s: UiState): boolean {
  return !s.live && s.finished.length <= 8 && s.finished.every((t) => t.items.every((i) => i.kind === "notice"));
}

export function layoutFor(columns: number, paneOpen: boolean): { narrow: boolean; main: number; side: number } {
  const narrow = columns <= NARROW_COLUMNS;
  if (!paneOpen) return { narrow, main: columns, side: 0 };
  if (narrow) return { narrow, main: columns, side: columns };
  const side = Math.min(64, Math.floor(columns * 0.38));
  return { narrow, main: columns - side - 1, side };
}

/** ^T: shows or hides the side pane; while it is empty, says when it will appear. */
function togglePane(store: ChatSession["store"]): void {
  const s = store.getState();
  if (s.programmatic.length === 0 && s.app.length === 0)
    store.hint("the side pane is empty: it appears with the first programmatic or App output");
  else store.update({ paneOpen: !s.paneOpen });
}

export function App({ session, servers, modelName, maxPixels }: AppProps) {
  const { store } = session;
  const state = useSyncExternalStore(store.subscribe, store.getState);
  const usage = useSyncExternalStore(session.usage.subscribe, session.usage.snapshot);
  const { columns, rows } = useTerminalSize();
  const { exit } = useApp();
  const [quitArmed, setQuitArmed] = useState(0);
  const lastCtrlC = useRef(0);
  /** Whether the prompt line is empty (Home/End then scroll the pane instead of moving the cursor). */
  const promptEmpty = useRef(true);
  useNow(true, 1000); // refresh server states once a second

  useEffect(() => {
    session.onQuit(() => exit());
  }, [session, exit]);
  // /clear: the terminal (screen and scrollback) is cleared before the cleared state is drawn —
  // written from a layout effect, the escape came after Ink had printed the /clear line and wiped it.
  const { write, stdout } = useStdout();
  useLayoutEffect(() => {
    store.onClearScreen = () => write("\x1b[2J\x1b[3J\x1b[H");
    return () => {
      store.onClearScreen = undefined;
    };
  }, [store, write]);

  // A new width: the terminal reflowed what Ink wrote (Ink then erases too few rows, and what is
  // in <Static> stays laid out for the old width), so once the resizing settles everything is
  // drawn again from a cleared screen. Pictures at the new width are drawn asynchronously: when a
  // redraw started some, a second redraw shows them (<Static> is written once).
  useEffect(() => {
    let width = stdout.columns;
    let timer: NodeJS.Timeout | undefined;
    const settle = async () => {
      store.redraw();
      await new Promise((r) => setImmediate(r));
      if (!imagesPending()) return;
      await imagesSettled();
      store.redraw();
    };
    const onResize = () => {
      if (stdout.columns === width) return;
      width = stdout.columns;
      clearTimeout(timer);
      timer = setTimeout(() => void settle(), RESIZE_SETTLE_MS);
    };
    stdout.on("resize", onResize);
    return () => {
      clearTimeout(timer);
      stdout.off("resize", onResize);
    };
  }, [stdout, store]);

  // Hidden while empty: the pane appears with the first programmatic or App output.
  const paneShown = state.paneOpen && (state.programmatic.length > 0 || state.app.length > 0);
  const { narrow, main, side } = layoutFor(columns, paneShown);
  session.width = main;
  const heights = paneHeights(state, side, rows);

  useKeys((input, key) => {
    // ^C: one press cancels the running turn, a second within QUIT_WINDOW_MS quits. Several
    // presses can arrive in one chunk ("\x03\x03"), which Ink reports as text.
    const presses = key.ctrl && input === "c" ? 1 : /^\x03+$/.test(input) ? input.length : 0;
    // With text typed, ^C only clears it (PromptInput), as in a shell.
    if (presses && !promptEmpty.current && !state.approval && !state.input) return;
    if (presses) {
      for (let i = 0; i < presses; i++) {
        const now = Date.now();
        if (now - lastCtrlC.current < QUIT_WINDOW_MS) session.quit();
        else {
          lastCtrlC.current = now;
          session.cancel();
          setQuitArmed(now);
        }
      }
      return;
    }
    // ^D on an empty prompt quits, as in a shell.
    if (key.ctrl && input === "d" && promptEmpty.current && !state.approval && !state.input) session.quit();
    else if (key.escape && !state.approval && !state.input) session.cancel();
    else if (key.tab && key.shift)
      store.update((s) => ({ paneOpen: true, paneFocus: s.paneFocus === "app" ? "programmatic" : "app" }));
    // Tab completes (PromptInput); the pane has its own key.
    else if (key.ctrl && input === "t") togglePane(store);
    else if (key.ctrl && input === "o" && !state.approval && !state.input) void session.submit("/show");
    else if (key.pageUp || key.pageDown) store.update((s) => scrollPane(s, key.pageUp ? "up" : "down", side, rows));
    else if ((key.home || key.end) && promptEmpty.current && paneShown)
      store.update((s) => scrollPane(s, key.home ? "top" : "bottom", side, rows));
  });

  const onSubmit = useCallback((text: string) => void session.submit(text), [session]);
  const completion = useMemo(() => session.completionSource(), [session]);
  const onEmpty = useCallback((empty: boolean) => void (promptEmpty.current = empty), []);
  const focus = scrolledPane(state);
  const sidePane = paneShown ? (
    <Box flexDirection="column" width={side}>
      {state.programmatic.length ? (
        <ProgrammaticPane
          entries={state.programmatic}
          width={side}
          height={heights.programmatic}
          scroll={state.progScroll}
          focused={focus === "programmatic"}
        />
      ) : null}
      {state.app.length ? (
        <AppPane
          entries={state.app}
          width={side}
          height={heights.app}
          scroll={state.appScroll}
          focused={focus === "app"}
        />
      ) : null}
    </Box>
  ) : null;

  const approval = state.approval;
  const input = state.input ? (
    <InputDialog input={state.input} width={main} />
  ) : approval ? (
    <ApprovalPrompt
      server={approval.server}
      tool={approval.tool}
      args={approval.args}
      width={main}
      rows={Math.max(3, Math.min(24, rows - 12))}
      onAnswer={approval.resolve}
    />
  ) : (
    <PromptInput
      onSubmit={onSubmit}
      history={session.history}
      width={main}
      completion={completion}
      onEmpty={onEmpty}
      busy={state.busy}
      isActive={!approval && !state.input}
    />
  );
  const mainColumn = (
    <Box flexDirection="column" width={main}>
      {state.live ? <TurnView turn={state.live} width={main} maxPixels={maxPixels} /> : null}
      {firstScreen(state) ? <Text dimColor>{truncateToWidth(FIRST_HINT, main)}</Text> : null}
      {input}
    </Box>
  );

  return (
    <Box flexDirection="column" width={columns}>
      <FinishedTurns finished={state.finished} width={main} epoch={state.epoch} maxPixels={maxPixels} />
      {narrow ? (
        <Box flexDirection="column">
          {mainColumn}
          {sidePane}
        </Box>
      ) : (
        <Box flexDirection="row">
          {mainColumn}
          {sidePane ? <Box marginLeft={1}>{sidePane}</Box> : null}
        </Box>
      )}
      {Date.now() - quitArmed < QUIT_WINDOW_MS ? <Text color="yellow">Press ^C again to quit</Text> : null}
      <StatusBar
        servers={servers()}
        mode={state.mode}
        model={typeof modelName === "function" ? modelName() : modelName}
        width={columns}
        busy={state.busy}
        retry={state.retry}
        usage={usage}
        contextWindow={session.capabilities()?.contextWindow}
      />
    </Box>
  );
}
