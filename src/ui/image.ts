// Images in the terminal: the header is read here (PNG IHDR, JPEG SOFn, GIF) BEFORE anything is
// decoded, so a 1 KB file claiming 100,000 × 100,000 pixels is refused instead of exhausting memory.
// PNG and JPEG are decoded straight to the drawn size (./image-decode.ts); terminal-image (and its
// decoders, a large share of start-up if loaded eagerly) is imported only for other formats.
import chalk from "chalk";
import { readImageSize, type ImageSize } from "../protocol/image-header.js";
import { decodeJpegScaled, decodePngScaled, fitPixels, type Bitmap } from "./image-decode.js";

let terminalImageModule: Promise<typeof import("terminal-image")> | undefined;
const loadTerminalImage = () => (terminalImageModule ??= import("terminal-image"));

export const DEFAULT_MAX_PIXELS = 40_000_000;

// The header reader is the host's own (src/protocol/image-header.ts): one reader decides both the
// host's image-too-large rule and what the terminal agrees to decode.
export { readImageSize, type ImageSize };

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
