// Terminal modes the app turns on, and their guaranteed restore: on a normal exit, a crash
// (process 'exit' runs after an uncaught exception too) and on SIGTERM/SIGHUP/SIGINT/SIGQUIT.
import { writeSync } from "node:fs";

export const BRACKETED_PASTE_ON = "\x1b[?2004h";
export const BRACKETED_PASTE_OFF = "\x1b[?2004l";
export const SHOW_CURSOR = "\x1b[?25h";

const SIGNALS: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGTERM: 15 };

/**
 * Enables bracketed paste on `fd` (default stdout) and returns the restore function
 * (idempotent): bracketed paste off, cursor shown. On a signal the modes are restored and
 * `onSignal` decides what happens next (the app closes its servers, then exits); without one, the
 * process exits with 128 + the signal number.
 */
export function enterTerminalModes(fd = 1, onSignal?: (signal: NodeJS.Signals, exitCode: number) => void): () => void {
  const write = (s: string) => {
    try {
      writeSync(fd, s);
    } catch {
      // the terminal is gone; nothing to restore
    }
  };
  let restored = false;
  const signalled = (signal: NodeJS.Signals) => {
    restore();
    const code = 128 + (SIGNALS[signal] ?? 1);
    if (onSignal) onSignal(signal, code);
    else process.exit(code);
  };
  const restore = () => {
    if (restored) return;
    restored = true;
    write(BRACKETED_PASTE_OFF + SHOW_CURSOR);
    process.removeListener("exit", restore);
    for (const s of Object.keys(SIGNALS)) process.removeListener(s, signalled);
  };
  process.on("exit", restore);
  for (const s of Object.keys(SIGNALS)) process.on(s, signalled);
  write(BRACKETED_PASTE_ON);
  return restore;
}
