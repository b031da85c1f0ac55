// The real built app (`node bin/mcp-prism.js`) in a real terminal: a detached tmux session on its
// own socket (-L), so parallel runs never collide. Tests send keys and poll `capture-pane` with a
// deadline. No tmux → the test FAILS (CI installs it; a silent skip would hide a broken app).
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const BIN = join(ROOT, "bin", "mcp-prism.js");

export function requireTmux(): void {
  const r = spawnSync("tmux", ["-V"], { encoding: "utf8" });
  if (r.error || r.status !== 0)
    throw new Error("tmux is not installed: the end-to-end tests need it (.ci/run installs it; apt-get install tmux)");
  if (!existsSync(join(ROOT, "dist", "cli", "main.js")))
    throw new Error("no build: run `npx tsc -p tsconfig.build.json` (npm test builds first)");
}

const sh = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
let counter = 0;

export interface AppTerminal {
  /** Temp dir holding state/, config/ and the exit code file. */
  dir: string;
  stateDir: string;
  tmux(...args: string[]): string;
  /** Text and Enter in ONE send-keys (one stdin chunk, like fast typing or ssh). */
  submit(text: string): void;
  /** submit(), then wait until the prompt line is empty again: the app has taken the line. Keys sent
   * before that may reach the app in the same stdin chunk, which reads as one pasted text. */
  send(text: string, what?: string): Promise<string>;
  keys(...keys: string[]): void;
  /** The visible screen (or `history` lines of scrollback too). */
  screen(history?: number): string;
  waitFor(
    test: string | RegExp | ((screen: string) => boolean),
    what: string,
    opts?: { timeoutMs?: number; history?: number },
  ): Promise<string>;
  format(fmt: string): string;
  /** Waits for `test` on a screen whose status bar is idle (no turn running). */
  idle(
    test: RegExp | ((screen: string) => boolean),
    what: string,
    opts?: { timeoutMs?: number; history?: number },
  ): Promise<string>;
  /** The app's exit code once it has exited (polls the wrapper's file). */
  exitCode(timeoutMs?: number): Promise<number>;
  close(): void;
}

export interface StartOptions {
  args?: string[];
  columns?: number;
  rows?: number;
  env?: Record<string, string>;
  /** What on screen means "started" (default: the demo server in the status bar). */
  ready?: string | RegExp;
  /** The app's current directory (default: the repository root). */
  cwd?: string;
  /** Shell commands run before the app in its shell (e.g. `ulimit -f 8`). */
  prelude?: string;
  /** The launcher to run (default: this checkout's bin/mcp-prism.js; the install test runs an installed one). */
  bin?: string;
}

export async function startApp(opts: StartOptions = {}): Promise<AppTerminal> {
  requireTmux();
  const dir = mkdtempSync(join(tmpdir(), "prism-e2e-"));
  const socket = `prism-e2e-${process.pid}-${++counter}-${Date.now().toString(36)}`;
  const stateDir = join(dir, "state");
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    XDG_STATE_HOME: stateDir,
    XDG_CONFIG_HOME: join(dir, "config"),
    ...opts.env,
  };
  delete env.CI; // Ink freezes its live frame under CI=true
  delete env.TMUX;
  const exitFile = join(dir, "exit-code");
  // The wrapper records the exit code and keeps the pane open, so the screen can be read after exit.
  // SIGINT ignored by the wrapper: a ^C that reaches the tty after the app exits must not close the pane.
  const cmd = `trap '' INT; ${opts.prelude ? `${opts.prelude}; ` : ""}cd ${sh(opts.cwd ?? ROOT)} && node ${sh(opts.bin ?? BIN)} ${(opts.args ?? []).map(sh).join(" ")}; echo $? > ${sh(exitFile)}; sleep 600`;
  const tmux = (...args: string[]) => execFileSync("tmux", ["-L", socket, ...args], { encoding: "utf8", env });
  tmux(
    "-f",
    "/dev/null",
    "new-session",
    "-d",
    "-s",
    "e2e",
    "-x",
    String(opts.columns ?? 120),
    "-y",
    String(opts.rows ?? 50),
    cmd,
  );
  // kill-server leaves the socket file behind: close() removes it (one per test otherwise piles up).
  const socketPath = tmux("display-message", "-p", "#{socket_path}").trim();
  const screen = (history = 0) => tmux("capture-pane", "-p", "-t", "e2e", ...(history ? ["-S", `-${history}`] : []));
  const term: AppTerminal = {
    dir,
    stateDir,
    tmux,
    submit: (text) => void tmux("send-keys", "-t", "e2e", "--", text, "Enter"),
    keys: (...keys) => void tmux("send-keys", "-t", "e2e", ...keys),
    send(text, what = `"${text}" taken`) {
      term.submit(text);
      // Taken = echoed above the prompt and the prompt empty again (an empty prompt alone may be
      // the screen from before the keys were read).
      const echoed = (x: string) => x.split("\n").some((l) => l.trimEnd() === `› ${text}`);
      return term.waitFor((x) => promptLine(x) === "" && echoed(x.slice(0, x.lastIndexOf("\n›"))), what);
    },
    screen,
    format: (fmt) => tmux("display-message", "-p", "-t", "e2e", fmt).trim(),
    async waitFor(test, what, o = {}) {
      const pred =
        typeof test === "function"
          ? test
          : typeof test === "string"
            ? (s: string) => s.includes(test)
            : (s: string) => test.test(s);
      const end = Date.now() + (o.timeoutMs ?? 20_000);
      let last = "";
      for (;;) {
        last = screen(o.history);
        if (pred(last)) return last;
        if (Date.now() > end) throw new Error(`timed out waiting for ${what}; screen:\n${last}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    idle(test, what, o = {}) {
      // A model request waiting to be retried is not idle either (the bar shows the wait instead of working…).
      return term.waitFor(
        (x) =>
          (typeof test === "function" ? test(x) : test.test(x)) &&
          /mode \w+ · model [^│]*│/.test(x) &&
          !x.includes("working…") &&
          !/· retry \d+\/\d+ in/.test(x),
        what,
        o,
      );
    },
    async exitCode(timeoutMs = 15_000) {
      const end = Date.now() + timeoutMs;
      while (!existsSync(exitFile) || !readFileSync(exitFile, "utf8").trim()) {
        if (Date.now() > end) throw new Error(`the app did not exit; screen:\n${screen()}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      return Number(readFileSync(exitFile, "utf8").trim());
    },
    close() {
      try {
        tmux("kill-server");
      } catch {
        // already gone
      }
      if (socketPath) rmSync(socketPath, { force: true });
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await term.waitFor(opts.ready ?? "demo 2026-12-01", "the status bar");
  } catch (e) {
    term.close();
    throw e;
  }
  return term;
}

/** The prompt's first line (the last `›` line on screen), without the marker; undefined if none. */
export function promptLine(screen: string): string | undefined {
  const lines = screen.split("\n").filter((l) => l.startsWith("›"));
  return lines.length ? lines[lines.length - 1].slice(1).trim() : undefined;
}

/** Columns 0..width of every line: the conversation column when the side pane is on the right. */
export function leftColumn(screen: string, width: number): string {
  return screen
    .split("\n")
    .map((l) => [...l].slice(0, width).join(""))
    .join("\n");
}
export function rightColumn(screen: string, from: number): string {
  return screen
    .split("\n")
    .map((l) => [...l].slice(from).join(""))
    .join("\n");
}
