// The chat app shell: conversation in the main column, the side pane (Programmatic + App) beside
// it — or folded below it at ≤ 80 columns — and the status bar at the bottom.
import React, { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { Box, Text, useApp } from "ink";
import { useKeys } from "./hooks/useKeys.js";
import { FinishedTurns, TurnView } from "./components/Conversation.js";
import { AppPane, appLines, maxScroll, ProgrammaticPane, programmaticLines } from "./components/Panes.js";
import { PromptInput } from "./components/PromptInput.js";
import { ApprovalPrompt } from "./components/ApprovalPrompt.js";
import { InputDialog } from "./components/InputDialog.js";
import { StatusBar } from "./components/StatusBar.js";
import type { ServerView } from "./server-view.js";
import { useTerminalSize } from "./hooks/useTerminalSize.js";
import { useNow } from "./hooks/useNow.js";
import type { ChatSession } from "./session.js";
import type { UiState } from "./state.js";

export const NARROW_COLUMNS = 80;
const SCROLL_STEP = 5;

/** PgUp/PgDn: scrolls the focused side pane (lines up from its newest entry), within its content. */
export function scrollPane(s: UiState, delta: number, paneHeight: number): Partial<UiState> {
  const clamp = (v: number, count: number) => Math.max(0, Math.min(v + delta, maxScroll(count, paneHeight)));
  if (s.paneFocus === "app") return { appScroll: clamp(s.appScroll, appLines(s.app).length) };
  return { progScroll: clamp(s.progScroll, programmaticLines(s.programmatic).length) };
}
const QUIT_WINDOW_MS = 1500;

export interface AppProps {
  session: ChatSession;
  servers: () => ServerView[];
  modelName: string;
  maxPixels?: number;
}

export function layoutFor(columns: number, paneOpen: boolean): { narrow: boolean; main: number; side: number } {
  const narrow = columns <= NARROW_COLUMNS;
  if (!paneOpen) return { narrow, main: columns, side: 0 };
  if (narrow) return { narrow, main: columns, side: columns };
  const side = Math.min(64, Math.floor(columns * 0.38));
  return { narrow, main: columns - side - 1, side };
}

export function App({ session, servers, modelName, maxPixels }: AppProps) {
  const { store } = session;
  const state = useSyncExternalStore(store.subscribe, store.getState);
  const { columns, rows } = useTerminalSize();
  const { exit } = useApp();
  const [quitArmed, setQuitArmed] = useState(0);
  const lastCtrlC = useRef(0);
  /** Whether the prompt line is empty (Tab then toggles the pane instead of completing). */
  const promptEmpty = useRef(true);
  useNow(true, 1000); // refresh server states once a second

  useEffect(() => {
    session.onQuit(() => exit());
  }, [session, exit]);

  const { narrow, main, side } = layoutFor(columns, state.paneOpen);
  session.width = main;
  const paneHeight = narrow ? 10 : Math.max(8, Math.floor((rows - 4) / 2));

  useKeys((input, key) => {
    // ^C: one press cancels the running turn, a second within QUIT_WINDOW_MS quits. Several
    // presses can arrive in one chunk ("\x03\x03"), which Ink reports as text.
    const presses = key.ctrl && input === "c" ? 1 : /^\x03+$/.test(input) ? input.length : 0;
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
    if (key.escape && !state.approval && !state.input) session.cancel();
    else if (key.tab && key.shift) store.update((s) => ({ paneOpen: true, paneFocus: s.paneFocus === "app" ? "programmatic" : "app" }));
    // Tab while typing completes (PromptInput); on an empty prompt it shows / hides the pane.
    else if (key.tab) promptEmpty.current && store.update((s) => ({ paneOpen: !s.paneOpen }));
    else if (key.pageUp || key.pageDown) store.update((s) => scrollPane(s, key.pageUp ? SCROLL_STEP : -SCROLL_STEP, paneHeight));
  });

  const onSubmit = useCallback((text: string) => void session.submit(text), [session]);
  const completion = useMemo(() => session.completionSource(), [session]);
  const onEmpty = useCallback((empty: boolean) => void (promptEmpty.current = empty), []);
  const sidePane = state.paneOpen ? (
    <Box flexDirection="column" width={side}>
      <ProgrammaticPane entries={state.programmatic} width={side} height={paneHeight} scroll={state.progScroll} focused={state.paneFocus === "programmatic"} />
      <AppPane entries={state.app} width={side} height={paneHeight} scroll={state.appScroll} focused={state.paneFocus === "app"} />
    </Box>
  ) : null;

  const approval = state.approval;
  const input = state.input ? (
    <InputDialog input={state.input} width={main} />
  ) : approval ? (
    <ApprovalPrompt server={approval.server} tool={approval.tool} args={approval.args} width={main} rows={Math.max(3, Math.min(24, rows - 12))} onAnswer={approval.resolve} />
  ) : (
    <PromptInput onSubmit={onSubmit} history={session.history} width={main} completion={completion} onEmpty={onEmpty} isActive={!approval && !state.input} />
  );
  const mainColumn = (
    <Box flexDirection="column" width={main}>
      {state.live ? <TurnView turn={state.live} width={main} maxPixels={maxPixels} /> : null}
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
      <StatusBar servers={servers()} mode={state.mode} model={modelName} width={columns} busy={state.busy} />
    </Box>
  );
}
