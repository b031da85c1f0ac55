// Which picture protocol the terminal speaks: config `"images"` ("auto" by default), then what
// the environment says (TERM, TERM_PROGRAM, kitty's and Ghostty's own variables), then, where
// that is silent, the terminal's answers to three queries sent at start-up with a short deadline:
// a kitty graphics query, the cell size in pixels (CSI 16 t, which sixel needs) and the primary
// device attributes (CSI c), which every terminal answers, last (so its answer ends the wait;
// a "4" among them means sixel). Inside tmux only kitty's Unicode placeholders can work (they
// are text to tmux), and only with tmux's allow-passthrough on; iTerm2 and sixel pictures are
// drawn at the cursor, which tmux owns, so there they fall back to half blocks. NO_COLOR keeps
// its meaning: no colour, so characters of a brightness ramp, whatever the setting.
import { execFileSync } from "node:child_process";
import type { ImagesSetting } from "../../host/config/config.js";

export type ImageProtocol = Exclude<ImagesSetting, "auto">;

export interface Graphics {
  protocol: ImageProtocol;
  /** A cell's size in pixels (sixel draws 1:1, so it needs this). */
  cell?: { width: number; height: number };
  /** Inside tmux with allow-passthrough: escape sequences are wrapped for it. */
  tmux?: boolean;
  /** One line for the user when the setting could not be honoured. */
  note?: string;
}

export const BLOCKS: Graphics = { protocol: "blocks" };

let current: Graphics = BLOCKS;
/** The app's graphics, chosen once at start-up (everything else, tests included, draws half blocks). */
export function setGraphics(g: Graphics): void {
  current = g;
}
export function currentGraphics(): Graphics {
  return current;
}

/** What the terminal said to the start-up queries (detect.ts's `queryTerminal`). */
export interface TerminalAnswers {
  kitty: boolean;
  sixel: boolean;
  cell?: { width: number; height: number };
}

/** The protocol the environment alone names, if it does. */
function fromEnvironment(env: NodeJS.ProcessEnv): ImageProtocol | undefined {
  const term = env.TERM ?? "";
  const program = env.TERM_PROGRAM ?? "";
  if (term === "xterm-kitty" || env.KITTY_WINDOW_ID || term === "xterm-ghostty" || program === "ghostty")
    return "kitty";
  // WezTerm speaks both; its Unicode placeholders are incomplete, its iTerm2 images are not.
  if (program === "iTerm.app" || program === "WezTerm") return "iterm";
  return undefined;
}

/** tmux's allow-passthrough ("on" or "all" lets the kitty transmission through). */
export function tmuxPassthrough(env: NodeJS.ProcessEnv): boolean {
  try {
    const out = execFileSync("tmux", ["show-options", "-gwqv", "allow-passthrough"], {
      env,
      timeout: 1_000,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
    return /^(on|all)$/.test(out.trim());
  } catch {
    return false;
  }
}

/**
 * The graphics to use. `answers` is called only when the setting and the environment leave the
 * question open (or sixel needs the cell size); `passthrough` only inside tmux.
 */
export async function chooseGraphics(
  setting: ImagesSetting,
  env: NodeJS.ProcessEnv,
  answers: () => Promise<TerminalAnswers | undefined>,
  passthrough: () => boolean = () => tmuxPassthrough(env),
): Promise<Graphics> {
  if (setting === "blocks") return BLOCKS;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "")
    return setting === "auto"
      ? BLOCKS
      : { ...BLOCKS, note: `images: NO_COLOR is set, so "${setting}" is drawn as characters` };
  if (env.TMUX) {
    const wanted = setting === "auto" ? fromEnvironment(env) : setting;
    if (wanted === undefined) return BLOCKS;
    if (wanted !== "kitty")
      return { ...BLOCKS, note: `images: ${wanted} pictures cannot be placed inside tmux; drawn as blocks` };
    if (!passthrough())
      return {
        ...BLOCKS,
        note: "images: inside tmux, pictures need `tmux set -g allow-passthrough on`; drawn as blocks",
      };
    return { protocol: "kitty", tmux: true };
  }
  const named = setting === "auto" ? fromEnvironment(env) : setting;
  if (named === "kitty" || named === "iterm") return { protocol: named };
  const said = await answers();
  // Sixel before kitty: a terminal that answers both (Konsole) draws sixel reliably.
  if (named === "sixel" || (named === undefined && said?.sixel)) {
    if (said?.cell) return { protocol: "sixel", cell: said.cell };
    if (named === "sixel")
      return {
        protocol: "sixel",
        cell: { width: 10, height: 20 },
        note: "images: the terminal did not say its cell size; sixel pictures assume 10×20 pixels",
      };
  }
  // Konsole answers the kitty query but draws no Unicode placeholders (its sixel, above, works).
  if (said?.kitty && !env.KONSOLE_VERSION) return { protocol: "kitty" };
  return BLOCKS;
}

export const QUERY_KITTY = "\x1b_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\x1b\\";
export const QUERY_CELL = "\x1b[16t";
export const QUERY_DA1 = "\x1b[c";

/** Parses what a terminal answered; `done` once the device attributes (always last) arrived. */
export function parseAnswers(text: string): { answers: TerminalAnswers; done: boolean } {
  const da = /\x1b\[\?([\d;]*)c/.exec(text);
  const cell = /\x1b\[6;(\d{1,4});(\d{1,4})t/.exec(text);
  const answers: TerminalAnswers = {
    kitty: /\x1b_Gi=31;OK\x1b\\/.test(text),
    sixel: da ? da[1].split(";").includes("4") : false,
  };
  if (cell && +cell[1] > 0 && +cell[2] > 0) answers.cell = { height: +cell[1], width: +cell[2] };
  return { answers, done: da !== null };
}

/** Every answer sequence above, to keep out of what the user typed meanwhile. */
const ANSWER = /\x1b\[\?[\d;]*c|\x1b\[6;\d{1,4};\d{1,4}t|\x1b_G[^\x1b]{0,64}\x1b\\/g;

interface TtyIn extends NodeJS.ReadableStream {
  isTTY?: boolean;
  isRaw?: boolean;
  setRawMode?(mode: boolean): unknown;
  unshift(chunk: Buffer): void;
}

/**
 * Sends the three queries and reads the answers for at most `timeoutMs` (the device attributes
 * end it early). Keys typed meanwhile go back to stdin for the app. Undefined without a terminal.
 */
export function queryTerminal(
  stdin: TtyIn,
  write: (s: string) => void,
  timeoutMs = 200,
): Promise<TerminalAnswers | undefined> {
  if (!stdin.isTTY || !stdin.setRawMode) return Promise.resolve(undefined);
  const wasRaw = stdin.isRaw === true;
  return new Promise((resolve) => {
    let text = "";
    const finish = () => {
      clearTimeout(timer);
      stdin.removeListener("data", onData);
      stdin.pause();
      if (!wasRaw) stdin.setRawMode?.(false);
      const typed = text.replace(ANSWER, "");
      if (typed) stdin.unshift(Buffer.from(typed, "utf8"));
      resolve(parseAnswers(text).answers);
    };
    const onData = (chunk: Buffer | string) => {
      text += chunk.toString();
      if (text.length > 4096 || parseAnswers(text).done) finish();
    };
    const timer = setTimeout(finish, timeoutMs);
    stdin.setRawMode?.(true);
    stdin.on("data", onData);
    stdin.resume();
    write(QUERY_KITTY + QUERY_CELL + QUERY_DA1);
  });
}
