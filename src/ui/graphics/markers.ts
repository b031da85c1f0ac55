// Pictures in pixels, through Ink. Ink lays out text, so a picture is drawn as marker characters
// (private-use code points that say which picture and which row, one cell each) and the app's
// stdout turns markers into the terminal's own protocol as Ink writes them:
// - kitty: the picture is sent once (a=t), given a virtual placement (a=p,U=1) and each marker
//   row becomes Unicode placeholder cells (U+10EEEE with row/column diacritics, the image id in
//   the foreground colour). Placeholders are text, so they work in Ink's live frame, survive its
//   redraws and pass through tmux.
// - iTerm2 and sixel: the picture is drawn at the cursor, so only where Ink writes once (<Static>).
//   Marker rows become spaces and the picture's label line starts with a trigger marker: there,
//   every row of the picture is on screen, so the cursor is saved, moved up over the rows, the
//   picture drawn into them and the cursor restored. Nothing scrolls and Ink's count of lines
//   stays true.
import type { ImageProtocol } from "./detect.js";

const BASE = 0xf0000;
/** Rows a marker can name (a picture taller than this is shown smaller). */
export const MAX_MARKER_ROWS = 120;
const TRIGGER_ROW = 120;
const SLOTS = 1024;

/** What a slot holds: the sequences that draw it, and its size in cells. */
export interface PlacedPicture {
  protocol: ImageProtocol;
  cols: number;
  rows: number;
  /** kitty: transmission + virtual placement; iterm/sixel: the picture, drawn at the cursor. */
  sequence: string;
  /** kitty's image id (24 bits: it travels as a foreground colour). */
  imageId: number;
}

const slots = new Map<number, PlacedPicture>();
let nextSlot = 0;
let bytes = 0;
/** Pictures kept for redraws at most (Ink redraws all of <Static> after a frame taller than the screen). */
const MAX_BYTES = 48 * 1024 * 1024;
const transmitted = new Set<number>();
// Image ids start at a random point: other programs in the same terminal number theirs from 1.
const idBase = 0x10000 + Math.floor(Math.random() * 0x700000);

/**
 * Stores a picture, its sequence built for the slot's kitty image id; returns the slot. The oldest
 * pictures are dropped past MAX_BYTES (their markers then become spaces).
 */
export function placePicture(
  p: Omit<PlacedPicture, "imageId" | "sequence">,
  build: (imageId: number) => string,
): number {
  const slot = nextSlot;
  nextSlot = (nextSlot + 1) % SLOTS;
  const old = slots.get(slot);
  if (old) bytes -= old.sequence.length;
  transmitted.delete(slot);
  const imageId = idBase + slot;
  const placed: PlacedPicture = { ...p, sequence: build(imageId), imageId };
  slots.set(slot, placed);
  bytes += placed.sequence.length;
  for (let s = (slot + 1) % SLOTS; bytes > MAX_BYTES && s !== slot; s = (s + 1) % SLOTS) {
    const gone = slots.get(s);
    if (!gone) continue;
    bytes -= gone.sequence.length;
    slots.delete(s);
    transmitted.delete(s);
  }
  return slot;
}

/** The marker rows of a slot (each `cols` cells). */
export function markerRows(slot: number, cols: number, rows: number): string {
  const lines: string[] = [];
  for (let r = 0; r < Math.min(rows, MAX_MARKER_ROWS); r++)
    lines.push(String.fromCodePoint(BASE + slot * 128 + r).repeat(cols));
  return lines.join("\n");
}

/** The one-cell marker that draws an iTerm2 or sixel picture (the first cell of its label line). */
export function triggerMarker(slot: number): string {
  return String.fromCodePoint(BASE + slot * 128 + TRIGGER_ROW);
}

// kitty's row/column diacritics (gen/rowcolumn-diacritics.txt in kitty), the first 120.
const DIACRITICS = [
  0x305, 0x30d, 0x30e, 0x310, 0x312, 0x33d, 0x33e, 0x33f, 0x346, 0x34a, 0x34b, 0x34c, 0x350, 0x351, 0x352, 0x357, 0x35b,
  0x363, 0x364, 0x365, 0x366, 0x367, 0x368, 0x369, 0x36a, 0x36b, 0x36c, 0x36d, 0x36e, 0x36f, 0x483, 0x484, 0x485, 0x486,
  0x487, 0x592, 0x593, 0x594, 0x595, 0x597, 0x598, 0x599, 0x59c, 0x59d, 0x59e, 0x59f, 0x5a0, 0x5a1, 0x5a8, 0x5a9, 0x5ab,
  0x5ac, 0x5af, 0x5c4, 0x610, 0x611, 0x612, 0x613, 0x614, 0x615, 0x616, 0x617, 0x657, 0x658, 0x659, 0x65a, 0x65b, 0x65d,
  0x65e, 0x6d6, 0x6d7, 0x6d8, 0x6d9, 0x6da, 0x6db, 0x6dc, 0x6df, 0x6e0, 0x6e1, 0x6e2, 0x6e4, 0x6e7, 0x6e8, 0x6eb, 0x6ec,
  0x730, 0x732, 0x733, 0x735, 0x736, 0x73a, 0x73d, 0x73f, 0x740, 0x741, 0x743, 0x745, 0x747, 0x749, 0x74a, 0x7eb, 0x7ec,
  0x7ed, 0x7ee, 0x7ef, 0x7f0, 0x7f1, 0x7f3, 0x816, 0x817, 0x818, 0x819, 0x81b, 0x81c, 0x81d, 0x81e, 0x81f, 0x820, 0x821,
  0x822,
].map((c) => String.fromCodePoint(c));
export const KITTY_PLACEHOLDER = "\u{10eeee}";

/** The number a diacritic stands for (tests decode placeholders with it). */
export function diacriticValue(ch: string): number {
  return DIACRITICS.indexOf(ch);
}

/** Wraps a sequence for tmux's passthrough (every ESC doubled). */
export function tmuxWrap(seq: string): string {
  return `\x1bPtmux;${seq.replaceAll("\x1b", "\x1b\x1b")}\x1b\\`;
}

/** kitty: the picture (PNG bytes) sent in 4096-byte chunks, then its virtual placement of cols×rows cells. */
export function kittySequence(png: Uint8Array, id: number, cols: number, rows: number, tmux = false): string {
  const data = Buffer.from(png).toString("base64");
  const out: string[] = [];
  for (let i = 0; i < data.length; i += 4096) {
    const more = i + 4096 < data.length ? 1 : 0;
    const keys = i === 0 ? `a=t,f=100,t=d,i=${id},q=2,m=${more}` : `m=${more}`;
    out.push(`\x1b_G${keys};${data.slice(i, i + 4096)}\x1b\\`);
  }
  out.push(`\x1b_Ga=p,U=1,i=${id},c=${cols},r=${rows},q=2\x1b\\`);
  return tmux ? out.map(tmuxWrap).join("") : out.join("");
}

/** iTerm2: the file itself, scaled by the terminal into cols×rows cells; the cursor stays. */
export function itermSequence(file: Uint8Array, cols: number, rows: number): string {
  const args = `inline=1;size=${file.length};width=${cols};height=${rows};preserveAspectRatio=1;doNotMoveCursor=1`;
  return `\x1b]1337;File=${args}:${Buffer.from(file).toString("base64")}\x07`;
}

const SAVE = "\x1b7";
const RESTORE = "\x1b8";

/** A kitty placeholder row: the first cell names row and column 0, the rest follow on (kitty infers them). */
function placeholderRow(id: number, row: number, cells: number): string {
  const fg = `\x1b[38;2;${(id >> 16) & 255};${(id >> 8) & 255};${id & 255}m`;
  return `${fg}${KITTY_PLACEHOLDER}${DIACRITICS[row]}${DIACRITICS[0]}${KITTY_PLACEHOLDER.repeat(cells - 1)}\x1b[39m`;
}

/** True when `chunk` may hold markers (their UTF-16 high surrogates). */
function mayHoldMarkers(chunk: string): boolean {
  return /[\udb80-\udbff]/.test(chunk);
}

/** Erase in display (all, or the scrollback): kitty may drop images then, so they are sent again. */
const ERASE = /\x1b\[[23]J/;

/** `chunk` as the terminal should get it: markers turned into pictures, placeholders or spaces. */
export function expandMarkers(chunk: string): string {
  if (ERASE.test(chunk)) transmitted.clear();
  if (!mayHoldMarkers(chunk)) return chunk;
  let out = "";
  let i = 0;
  while (i < chunk.length) {
    const cp = chunk.codePointAt(i) as number;
    const len = cp > 0xffff ? 2 : 1;
    if (cp < BASE || cp >= BASE + SLOTS * 128) {
      out += chunk.slice(i, i + len);
      i += len;
      continue;
    }
    let n = 1;
    while (chunk.codePointAt(i + n * 2) === cp) n++;
    i += n * 2;
    const slot = (cp - BASE) >> 7;
    const row = (cp - BASE) & 127;
    const p = slots.get(slot);
    if (!p) {
      out += " ".repeat(n);
    } else if (p.protocol === "kitty") {
      if (row === TRIGGER_ROW) out += " ".repeat(n);
      else {
        // Sent where first needed (after any erase earlier in the chunk); it moves no cursor.
        if (!transmitted.has(slot)) {
          out += p.sequence;
          transmitted.add(slot);
        }
        out += placeholderRow(p.imageId, row, n);
      }
    } else if (row === TRIGGER_ROW) {
      // The label's first cell: the picture's rows are the `p.rows` lines above this one.
      out += `${SAVE}\x1b[${p.rows}A${p.sequence}${RESTORE}${" ".repeat(n)}`;
    } else out += " ".repeat(n);
  }
  return out;
}

/** Makes `stream` expand markers in what it writes (Ink writes strings); returns the undo. */
export function installMarkerWriter(stream: NodeJS.WriteStream): () => void {
  const original = stream.write;
  const write = (chunk: unknown, ...rest: unknown[]): boolean =>
    (original as (...a: unknown[]) => boolean).call(
      stream,
      typeof chunk === "string" ? expandMarkers(chunk) : chunk,
      ...rest,
    );
  stream.write = write as NodeJS.WriteStream["write"];
  return () => {
    stream.write = original;
  };
}
