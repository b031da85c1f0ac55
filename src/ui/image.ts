// Images in the terminal: the header is read here (PNG IHDR, JPEG SOFn, GIF) BEFORE anything is
// decoded, so a 1 KB file claiming 100,000 × 100,000 pixels is refused instead of exhausting memory.
// PNG and JPEG are decoded straight to the drawn size (./image-decode.ts); terminal-image (and its
// decoders, a large share of start-up if loaded eagerly) is imported only for other formats.
import chalk from "chalk";
import { decodeJpegScaled, decodePngScaled, fitPixels, type Bitmap } from "./image-decode.js";

let terminalImageModule: Promise<typeof import("terminal-image")> | undefined;
const loadTerminalImage = () => (terminalImageModule ??= import("terminal-image"));

export const DEFAULT_MAX_PIXELS = 40_000_000;

export interface ImageSize {
  width: number;
  height: number;
  format: "png" | "jpeg" | "gif";
}

/** Dimensions claimed by an image header, or undefined when the format is unknown/truncated. */
export function readImageSize(buf: Uint8Array): ImageSize | undefined {
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  // PNG: 8-byte signature, then the IHDR chunk (length, "IHDR", width, height).
  if (b.length >= 24 && b.readUInt32BE(0) === 0x89504e47 && b.readUInt32BE(4) === 0x0d0a1a0a) {
    if (b.toString("latin1", 12, 16) !== "IHDR") return undefined;
    return { width: b.readUInt32BE(16), height: b.readUInt32BE(20), format: "png" };
  }
  // GIF: logical screen size, little-endian.
  if (b.length >= 10 && b.toString("latin1", 0, 3) === "GIF") {
    return { width: b.readUInt16LE(6), height: b.readUInt16LE(8), format: "gif" };
  }
  // JPEG: walk the segments to the first SOFn marker (C0–CF except C4 DHT, C8 JPG, CC DAC).
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8) {
    let i = 2;
    for (let guard = 0; guard < 10_000 && i + 9 < b.length; guard++) {
      if (b[i] !== 0xff) return undefined;
      const marker = b[i + 1];
      if (marker === 0xff) {
        i++; // fill byte
        continue;
      }
      if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
        i += 2;
        continue;
      }
      const len = b.readUInt16BE(i + 2);
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { height: b.readUInt16BE(i + 5), width: b.readUInt16BE(i + 7), format: "jpeg" };
      }
      if (len < 2) return undefined;
      i += 2 + len;
    }
  }
  return undefined;
}

export interface RenderImageOptions {
  /** Terminal columns to fit. */
  width: number;
  /** Terminal rows at most (each row is two pixels). */
  height?: number;
  maxPixels?: number;
}

export type RenderedImage = { ok: true; ansi: string; size: ImageSize } | { ok: false; reason: string };

/** ANSI half-block rendering of an image, fitted to `width` columns; refuses oversized headers. */
export async function renderImage(buf: Uint8Array, opts: RenderImageOptions): Promise<RenderedImage> {
  const size = readImageSize(buf);
  if (!size) return { ok: false, reason: "not a PNG, JPEG or GIF image (unreadable header)" };
  const max = opts.maxPixels ?? DEFAULT_MAX_PIXELS;
  const pixels = size.width * size.height;
  if (size.width === 0 || size.height === 0) return { ok: false, reason: `image header claims ${size.width}×${size.height} pixels` };
  if (pixels > max) {
    return {
      ok: false,
      reason: `image refused: header claims ${size.width}×${size.height} (${(pixels / 1e6).toFixed(1)} MP), limit ${(max / 1e6).toFixed(1)} MP`,
    };
  }
  // Never upscale a tiny image past its own pixel width.
  const width = Math.max(1, Math.min(Math.floor(opts.width), size.width));
  const rows = opts.height ? Math.max(1, Math.floor(opts.height)) : undefined;
  try {
    const fit = fitPixels(size.width, size.height, width, rows);
    const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
    // Decode straight to the few pixels drawn (a 4,096² image is never held at full size as RGBA
    // when it is a PNG); GIF and unusual PNGs go through terminal-image, which decodes in full.
    const bitmap =
      size.format === "png"
        ? await decodePngScaled(b, fit.width, fit.height)
        : size.format === "jpeg"
          ? await decodeJpegScaled(b, fit.width, fit.height, max)
          : undefined;
    if (bitmap) return { ok: true, ansi: halfBlocks(bitmap), size };
    const terminalImage = (await loadTerminalImage()).default;
    const ansi = await terminalImage.buffer(buf, { width, ...(rows ? { height: rows } : {}), preferNativeRender: false });
    return { ok: true, ansi, size };
  } catch (e) {
    return { ok: false, reason: `image could not be decoded: ${(e as Error).message}` };
  }
}

const LOWER_HALF = "\u2584";

/** Half-block rows as terminal-image draws them: `▄` with bg = top pixel, fg = bottom pixel (chalk picks the colour depth). */
function halfBlocks({ width, height, rgba }: Bitmap): string {
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
