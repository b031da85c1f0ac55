// Images in the terminal. The one header reader (src/protocol/image-header.ts, which also decides
// the host's image-too-large rule) reads the header BEFORE anything is decoded, so a 1 KB file
// claiming 100,000 × 100,000 pixels, or a PNG with two IHDRs, is refused instead of exhausting
// memory; the decoders then obey that header. Decoding runs off the main thread with a deadline
// (./image-pool.ts), straight to the drawn size (./image-decode.ts, image-gif.ts, image-jpeg.ts):
// the chat stays responsive, and a too-big or too-slow image gets one line instead of a picture.
import chalk from "chalk";
import { type ImageHeader, readImageHeader, readImageSize, type ImageSize } from "../protocol/image-header.js";
import { decodeOffThread } from "./image-pool.js";
import { fitPixels, type Bitmap } from "./image-sample.js";
import type { Graphics } from "./graphics/detect.js";
import { itermSequence, kittySequence, MAX_MARKER_ROWS, placePicture } from "./graphics/markers.js";

export const DEFAULT_MAX_PIXELS = 40_000_000;
/** Longest a decode may take before the image is given up (one line instead). */
export const DEFAULT_DECODE_DEADLINE_MS = 8_000;

export { readImageSize, type ImageSize };

export interface RenderImageOptions {
  /** Terminal columns to fit. */
  width: number;
  /** Terminal rows at most (each row is two pixels). */
  height?: number;
  maxPixels?: number;
  deadlineMs?: number;
  /** Also prepare the picture in this protocol (graphics/markers.ts); blocks: half blocks only. */
  graphics?: Graphics;
}

/** A picture ready for the terminal's own protocol: its marker slot and size in cells. */
export interface Picture {
  slot: number;
  cols: number;
  rows: number;
}

export type RenderedImage =
  | { ok: true; ansi: string; size: ImageSize; picture?: Picture }
  | { ok: false; reason: string };

/** A file larger than this is re-encoded (smaller) before it is sent to the terminal. */
const MAX_SENT_FILE = 4 * 1024 * 1024;
/** The most pixels a picture sent to the terminal has (a decode at the terminal's resolution). */
const MAX_SENT_PIXELS = 2_000_000;
/** Pixels per cell assumed when sizing a re-encoded picture for kitty or iTerm2 (they scale it to the cells). */
const CELL_GUESS = { width: 10, height: 20 };

/** ANSI half-block rendering of an image, fitted to `width` columns; refuses untrustworthy or oversized headers. */
export async function renderImage(buf: Uint8Array, opts: RenderImageOptions): Promise<RenderedImage> {
  const verdict = readImageHeader(buf);
  if (!verdict) return { ok: false, reason: "not a PNG, JPEG or GIF image (unreadable header)" };
  if (!verdict.ok) return { ok: false, reason: `image refused: ${verdict.reason}` };
  const header = verdict.header;
  const size: ImageSize = { width: header.width, height: header.height, format: header.format };
  const max = opts.maxPixels ?? DEFAULT_MAX_PIXELS;
  const pixels = size.width * size.height;
  if (size.width === 0 || size.height === 0)
    return { ok: false, reason: `image header claims ${size.width}×${size.height} pixels` };
  if (pixels > max) {
    return {
      ok: false,
      reason: `image refused: header claims ${size.width}×${size.height} (${(pixels / 1e6).toFixed(1)} MP), limit ${(max / 1e6).toFixed(1)} MP`,
    };
  }
  // Never upscale a tiny image past its own pixel width.
  const width = Math.max(1, Math.min(Math.floor(opts.width), size.width));
  const rows = opts.height ? Math.max(1, Math.floor(opts.height)) : undefined;
  const fit = fitPixels(size.width, size.height, width, rows);
  const deadline = opts.deadlineMs ?? DEFAULT_DECODE_DEADLINE_MS;
  try {
    const bitmap = await decodeOffThread(
      { bytes: buf, header, width: fit.width, height: fit.height, maxPixels: max },
      deadline,
    );
    const ansi = halfBlocks(bitmap);
    if (!opts.graphics || opts.graphics.protocol === "blocks") return { ok: true, ansi, size };
    const rowsDrawn = Math.min(ansi.split("\n").length, MAX_MARKER_ROWS);
    // A picture that cannot be made in time (or at all) leaves the half blocks, which could.
    const picture = await preparePicture(buf, header, bitmap.width, rowsDrawn, opts.graphics, max, deadline).catch(
      () => undefined,
    );
    return { ok: true, ansi, size, picture };
  } catch (e) {
    return { ok: false, reason: `image could not be decoded: ${(e as Error).message}` };
  }
}

/** The largest size of `w`×`h` (aspect kept) inside `boxW`×`boxH` and MAX_SENT_PIXELS. */
function fitBox(w: number, h: number, boxW: number, boxH: number): { width: number; height: number } {
  let f = Math.min(boxW / w, boxH / h);
  if (w * h * f * f > MAX_SENT_PIXELS) f = Math.sqrt(MAX_SENT_PIXELS / (w * h));
  return { width: Math.max(1, Math.floor(w * f)), height: Math.max(1, Math.floor(h * f)) };
}

/** The picture in `graphics.protocol`, stored for its markers: `cols`×`rows` cells, the half blocks' own. */
async function preparePicture(
  buf: Uint8Array,
  header: ImageHeader,
  cols: number,
  rows: number,
  graphics: Graphics,
  maxPixels: number,
  deadline: number,
): Promise<Picture> {
  // Decoded at the size the terminal shows, and encoded, in the worker: the chat never waits on it.
  const encoded = async (cell: { width: number; height: number }, encode: "sixel" | "png") => {
    const fit = fitBox(header.width, header.height, cols * cell.width, rows * cell.height);
    const r = await decodeOffThread(
      { bytes: buf, header, width: fit.width, height: fit.height, maxPixels, encode },
      deadline,
    );
    if (r.encoded === undefined) throw new Error("the drawing worker returned no picture");
    return r.encoded;
  };
  const protocol = graphics.protocol;
  if (protocol === "sixel") {
    const sequence = String(await encoded(graphics.cell ?? CELL_GUESS, "sixel"));
    return { slot: placePicture({ protocol, cols, rows }, () => sequence), cols, rows };
  }
  // kitty reads PNG only; iTerm2 reads any of the three. Either way a big file is sent smaller.
  const asIs = buf.length <= MAX_SENT_FILE && (protocol === "iterm" || header.format === "png");
  const file = asIs ? buf : ((await encoded(CELL_GUESS, "png")) as Uint8Array);
  const slot = placePicture({ protocol, cols, rows }, (id) =>
    protocol === "kitty" ? kittySequence(file, id, cols, rows, graphics.tmux) : itermSequence(file, cols, rows),
  );
  return { slot, cols, rows };
}

const LOWER_HALF = "\u2584";

/** Dark to bright, one character a cell when there is no colour (NO_COLOR). */
const RAMP = " .:-=+*#%@";

/** Without colour: each cell (two pixels) as a character of the brightness ramp; no escape code. */
function luminanceCells({ width, height, rgba }: Bitmap): string {
  const lines: string[] = [];
  const lum = (i: number) =>
    rgba[i + 3] < 8 ? 0 : (0.2126 * rgba[i] + 0.7152 * rgba[i + 1] + 0.0722 * rgba[i + 2]) / 255;
  for (let y = 0; y + 1 < height; y += 2) {
    let line = "";
    for (let x = 0; x < width; x++) {
      const t = (y * width + x) * 4;
      const v = (lum(t) + lum(t + width * 4)) / 2;
      line += RAMP[Math.min(RAMP.length - 1, Math.floor(v * RAMP.length))];
    }
    lines.push(line);
  }
  return lines.join("\n");
}

/** Half-block rows: `▄` with bg = top pixel, fg = bottom pixel (chalk picks the colour depth). */
function halfBlocks(bitmap: Bitmap): string {
  if (chalk.level === 0) return luminanceCells(bitmap);
  const { width, height, rgba } = bitmap;
  const lines: string[] = [];
  for (let y = 0; y + 1 < height; y += 2) {
    let line = "";
    for (let x = 0; x < width; x++) {
      const t = (y * width + x) * 4;
      const u = t + width * 4;
      line +=
        rgba[t + 3] < 8
          ? chalk.reset.rgb(rgba[u], rgba[u + 1], rgba[u + 2])(LOWER_HALF)
          : chalk.bgRgb(rgba[t], rgba[t + 1], rgba[t + 2]).rgb(rgba[u], rgba[u + 1], rgba[u + 2])(LOWER_HALF);
    }
    lines.push(line);
  }
  return lines.join("\n");
}
