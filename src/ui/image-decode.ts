// Decoding for terminal drawing: an image is only ever shown as a few thousand half-block cells,
// so decoding keeps just that many pixels. PNG: node:zlib inflate, then rows are unfiltered in
// place (each depends on the one above) and only the rows a target pixel samples are read.
// JPEG: jpeg-js with resolution/memory limits, then sampled the same way. Anything else (GIF,
// interlaced or sub-byte PNG) returns undefined and the caller falls back to terminal-image.
import { promisify } from "node:util";
import { inflate } from "node:zlib";

// Inflating runs on the libuv thread pool: a large PNG never blocks the UI while it inflates.
const inflateAsync = promisify(inflate);

/** A small RGBA bitmap (alpha 0 = transparent). */
export interface Bitmap {
  width: number;
  height: number;
  rgba: Uint8Array;
}

/** Target size in pixels of an image fitted into `cols` × `rows*2` (aspect kept, as terminal-image fits). */
export function fitPixels(imgW: number, imgH: number, cols: number, rows?: number): { width: number; height: number } {
  let w = cols;
  let h = (imgH * cols) / imgW;
  if (rows !== undefined) {
    const boxH = rows * 2;
    const factor = cols / boxH > imgW / imgH ? boxH / imgH : cols / imgW;
    w = factor * imgW;
    h = factor * imgH;
  }
  return { width: Math.max(1, Math.round(w)), height: Math.max(1, Math.round(h)) };
}

// Up to SAMPLES×SAMPLES source pixels are averaged per target pixel (a cheap box filter).
const SAMPLES = 3;

/** Source coordinates sampled for each target index: SAMPLES per target pixel, spread over its box. */
function sampleCoords(src: number, dst: number): Int32Array {
  const out = new Int32Array(dst * SAMPLES);
  const step = src / dst;
  for (let d = 0; d < dst; d++) {
    for (let s = 0; s < SAMPLES; s++) out[d * SAMPLES + s] = Math.min(src - 1, Math.floor((d + (s + 0.5) / SAMPLES) * step));
  }
  return out;
}

/** Downsamples with `pixel(x, y, out4)` reading one source pixel; rows are requested in increasing order. */
function downsample(
  srcW: number,
  srcH: number,
  dstW: number,
  dstH: number,
  row: (y: number) => (x: number, out: Uint8Array, o: number) => void,
): Bitmap {
  const xs = sampleCoords(srcW, dstW);
  const ys = sampleCoords(srcH, dstH);
  const sums = new Float64Array(dstW * dstH * 4);
  const px = new Uint8Array(4);
  let lastY = -1;
  let read: ((x: number, out: Uint8Array, o: number) => void) | undefined;
  for (let i = 0; i < ys.length; i++) {
    const y = ys[i];
    if (y !== lastY) read = row((lastY = y));
    const base = Math.floor(i / SAMPLES) * dstW * 4;
    for (let j = 0; j < xs.length; j++) {
      read!(xs[j], px, 0);
      const o = base + Math.floor(j / SAMPLES) * 4;
      sums[o] += px[0];
      sums[o + 1] += px[1];
      sums[o + 2] += px[2];
      sums[o + 3] += px[3];
    }
  }
  const rgba = new Uint8Array(dstW * dstH * 4);
  const n = SAMPLES * SAMPLES;
  for (let i = 0; i < rgba.length; i++) rgba[i] = Math.round(sums[i] / n);
  return { width: dstW, height: dstH, rgba };
}

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/** Decodes a non-interlaced 8-bit PNG straight to `dstW`×`dstH`; undefined when unsupported. */
export async function decodePngScaled(buf: Buffer, dstW: number, dstH: number): Promise<Bitmap | undefined> {
  let pos = 8;
  let width = 0;
  let height = 0;
  let depth = 0;
  let colour = 0;
  let interlace = 0;
  let palette: Buffer | undefined;
  let alphaTable: Buffer | undefined;
  const idat: Buffer[] = [];
  while (pos + 8 <= buf.length) {
    const len = buf.readUInt32BE(pos);
    const type = buf.toString("latin1", pos + 4, pos + 8);
    const data = buf.subarray(pos + 8, pos + 8 + len);
    if (data.length < len) throw new Error("truncated PNG chunk");
    if (type === "IHDR") {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      depth = data[8];
      colour = data[9];
      interlace = data[12];
    } else if (type === "PLTE") palette = data;
    else if (type === "tRNS") alphaTable = data;
    else if (type === "IDAT") idat.push(data);
    else if (type === "IEND") break;
    pos += 12 + len;
  }
  const channels = CHANNELS[colour];
  if (depth !== 8 || interlace !== 0 || channels === undefined || width === 0 || height === 0) return undefined;
  if (colour === 3 && !palette) throw new Error("palette PNG without PLTE");
  const stride = width * channels;
  const raw = await inflateAsync(Buffer.concat(idat), { maxOutputLength: (stride + 1) * height });
  if (raw.length < (stride + 1) * height) throw new Error("PNG image data is truncated");
  let unfiltered = -1;
  const unfilterTo = (y: number) => {
    for (let r = unfiltered + 1; r <= y; r++) unfilterRow(raw, r, stride, channels);
    unfiltered = Math.max(unfiltered, y);
  };
  return downsample(width, height, dstW, dstH, (y) => {
    unfilterTo(y);
    const start = y * (stride + 1) + 1;
    return (x, out, o) => {
      const i = start + x * channels;
      if (colour === 2 || colour === 6) {
        out[o] = raw[i];
        out[o + 1] = raw[i + 1];
        out[o + 2] = raw[i + 2];
        out[o + 3] = colour === 6 ? raw[i + 3] : 255;
      } else if (colour === 0 || colour === 4) {
        out[o] = out[o + 1] = out[o + 2] = raw[i];
        out[o + 3] = colour === 4 ? raw[i + 1] : 255;
      } else {
        const p = raw[i] * 3;
        out[o] = palette![p] ?? 0;
        out[o + 1] = palette![p + 1] ?? 0;
        out[o + 2] = palette![p + 2] ?? 0;
        out[o + 3] = alphaTable?.[raw[i]] ?? 255;
      }
    };
  });
}

/** Reverses one row's PNG filter in place (the row above is already unfiltered). */
function unfilterRow(raw: Buffer, y: number, stride: number, bpp: number): void {
  const start = y * (stride + 1);
  const filter = raw[start];
  const cur = start + 1;
  const prev = cur - (stride + 1); // only read when y > 0
  if (filter === 0) return;
  if (filter === 1) {
    for (let i = bpp; i < stride; i++) raw[cur + i] = (raw[cur + i] + raw[cur + i - bpp]) & 255;
  } else if (filter === 2) {
    if (y > 0) for (let i = 0; i < stride; i++) raw[cur + i] = (raw[cur + i] + raw[prev + i]) & 255;
  } else if (filter === 3) {
    for (let i = 0; i < stride; i++) {
      const a = i >= bpp ? raw[cur + i - bpp] : 0;
      const b = y > 0 ? raw[prev + i] : 0;
      raw[cur + i] = (raw[cur + i] + ((a + b) >> 1)) & 255;
    }
  } else if (filter === 4) {
    for (let i = 0; i < stride; i++) {
      const a = i >= bpp ? raw[cur + i - bpp] : 0;
      const b = y > 0 ? raw[prev + i] : 0;
      const c = i >= bpp && y > 0 ? raw[prev + i - bpp] : 0;
      const p = a + b - c;
      const pa = Math.abs(p - a);
      const pb = Math.abs(p - b);
      const pc = Math.abs(p - c);
      raw[cur + i] = (raw[cur + i] + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c)) & 255;
    }
  } else throw new Error(`unknown PNG filter type ${filter}`);
  raw[start] = 0; // unfiltered now: never reversed twice
}

/** Decodes a JPEG (within the pixel limit) and samples it down to `dstW`×`dstH`. */
export async function decodeJpegScaled(buf: Buffer, dstW: number, dstH: number, maxPixels: number): Promise<Bitmap> {
  const { default: jpeg } = await import("jpeg-js");
  const img = jpeg.decode(buf, {
    useTArray: true,
    formatAsRGBA: true,
    maxResolutionInMP: maxPixels / 1e6,
    maxMemoryUsageInMB: Math.max(64, Math.ceil((maxPixels * 4) / 2 ** 20) + 64),
  });
  const { width, data } = img;
  return downsample(img.width, img.height, dstW, dstH, (y) => (x, out, o) => {
    const i = (y * width + x) * 4;
    out[o] = data[i];
    out[o + 1] = data[i + 1];
    out[o + 2] = data[i + 2];
    out[o + 3] = data[i + 3];
  });
}
