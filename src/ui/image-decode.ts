// Decoding for terminal drawing: an image is only ever shown as a few thousand half-block cells,
// so decoding keeps just that many pixels. PNG: node:zlib inflates into one reused buffer and each
// row is unfiltered and sampled as it arrives, so a 4,096² image is never held at full size
// (allocating its 50 MB of raw rows cost several times more than inflating them). JPEG: jpeg-js with
// resolution/memory limits, then sampled the same way. Anything else (GIF, interlaced or
// sub-byte PNG) returns undefined and the caller falls back to terminal-image.
import { constants, createInflate } from "node:zlib";

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

type PixelReader = (x: number, out: Uint8Array, o: number) => void;

/** Box-samples a source image fed one row at a time, top to bottom, down to `dstW`×`dstH`. */
class RowSampler {
  private readonly xs: Int32Array;
  private readonly ys: Int32Array;
  private readonly sums: Float64Array;
  private readonly px = new Uint8Array(4);
  /** Index into `ys` of the next sample row still wanted. */
  private next = 0;
  constructor(srcW: number, srcH: number, private readonly dstW: number, private readonly dstH: number) {
    this.xs = sampleCoords(srcW, dstW);
    this.ys = sampleCoords(srcH, dstH);
    this.sums = new Float64Array(dstW * dstH * 4);
  }
  /** Whether source row `y` is sampled (rows are offered in increasing order). */
  wants(y: number): boolean {
    return this.ys[this.next] === y;
  }
  addRow(y: number, read: PixelReader): void {
    const { xs, ys, sums, px, dstW } = this;
    for (; this.next < ys.length && ys[this.next] === y; this.next++) {
      const base = Math.floor(this.next / SAMPLES) * dstW * 4;
      for (let j = 0; j < xs.length; j++) {
        read(xs[j], px, 0);
        const o = base + Math.floor(j / SAMPLES) * 4;
        sums[o] += px[0];
        sums[o + 1] += px[1];
        sums[o + 2] += px[2];
        sums[o + 3] += px[3];
      }
    }
  }
  finish(): Bitmap {
    const rgba = new Uint8Array(this.dstW * this.dstH * 4);
    const n = SAMPLES * SAMPLES;
    for (let i = 0; i < rgba.length; i++) rgba[i] = Math.round(this.sums[i] / n);
    return { width: this.dstW, height: this.dstH, rgba };
  }
}

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/** Decodes a non-interlaced 8-bit PNG straight to `dstW`×`dstH`; undefined when unsupported. */
export async function decodePngScaled(buf: Buffer, dstW: number, dstH: number, opts: { publicStream?: boolean } = {}): Promise<Bitmap | undefined> {
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
  const read = pixelReader(colour, channels, palette, alphaTable);
  const sampler = new RowSampler(width, height, dstW, dstH);
  const rows = new RowAssembler(stride + 1, height, (row, off, prev, prevOff, y) => {
    unfilterRow(row, off, prev, prevOff, stride, channels);
    if (sampler.wants(y)) sampler.addRow(y, (x, out, o) => read(row, off + 1 + x * channels, out, o));
  });
  await inflateRows(Buffer.concat(idat), rows, opts);
  return sampler.finish();
}

type ChannelReader = (row: Buffer, i: number, out: Uint8Array, o: number) => void;

function pixelReader(colour: number, channels: number, palette: Buffer | undefined, alphaTable: Buffer | undefined): ChannelReader {
  if (colour === 2 || colour === 6) {
    const alpha = channels === 4;
    return (row, i, out, o) => {
      out[o] = row[i];
      out[o + 1] = row[i + 1];
      out[o + 2] = row[i + 2];
      out[o + 3] = alpha ? row[i + 3] : 255;
    };
  }
  if (colour === 0 || colour === 4) {
    const alpha = channels === 2;
    return (row, i, out, o) => {
      out[o] = out[o + 1] = out[o + 2] = row[i];
      out[o + 3] = alpha ? row[i + 1] : 255;
    };
  }
  return (row, i, out, o) => {
    const p = row[i] * 3;
    out[o] = palette![p] ?? 0;
    out[o + 1] = palette![p + 1] ?? 0;
    out[o + 2] = palette![p + 2] ?? 0;
    out[o + 3] = alphaTable?.[row[i]] ?? 255;
  };
}

type RowHandler = (row: Buffer, off: number, prev: Buffer | undefined, prevOff: number, y: number) => void;

/**
 * Cuts inflated bytes into PNG rows and hands over each complete filtered row (filter byte at
 * `off`) with the row above it (`prev` undefined for the first). A row lying whole inside a pushed
 * piece is handed over in place; one split across pieces is assembled in one of two spare buffers
 * (two, because the row above must stay readable while the next one fills). A pushed piece may be
 * overwritten once `push` returns, so a row above that lives in it is copied out first.
 */
class RowAssembler {
  private readonly spare: [Buffer, Buffer];
  private spareIdx = 0;
  /** Bytes of a split row gathered in spare[spareIdx]. */
  private fill = 0;
  private y = 0;
  private prev: Buffer | undefined;
  private prevOff = 0;
  constructor(
    private readonly rowLen: number,
    private readonly height: number,
    private readonly onRow: RowHandler,
  ) {
    this.spare = [Buffer.allocUnsafe(rowLen), Buffer.allocUnsafe(rowLen)];
  }
  get done(): boolean {
    return this.y >= this.height;
  }
  push(piece: Buffer, len: number): void {
    const { rowLen } = this;
    let pos = 0;
    if (this.fill > 0) {
      const n = Math.min(rowLen - this.fill, len);
      piece.copy(this.spare[this.spareIdx], this.fill, 0, n);
      this.fill += n;
      pos = n;
      if (this.fill < rowLen) return;
      this.emit(this.spare[this.spareIdx], 0);
      this.spareIdx ^= 1;
      this.fill = 0;
    }
    for (; !this.done && pos + rowLen <= len; pos += rowLen) this.emit(piece, pos);
    if (this.done) return;
    if (this.prev === piece) {
      const keep = this.spare[this.spareIdx];
      piece.copy(keep, 0, this.prevOff, this.prevOff + rowLen);
      this.prev = keep;
      this.prevOff = 0;
      this.spareIdx ^= 1;
    }
    if (pos < len) this.fill = piece.copy(this.spare[this.spareIdx], 0, pos, len);
  }
  private emit(row: Buffer, off: number): void {
    this.onRow(row, off, this.prev, this.prevOff, this.y);
    this.prev = row;
    this.prevOff = off;
    this.y++;
  }
}

// Inflated bytes go through one reused piece of this size; the event loop gets a turn after
// every YIELD_BYTES of output, so a 4,096² image never blocks drawing for more than a few ms.
const PIECE_BYTES = 256 << 10;
const YIELD_BYTES = 4 << 20;

/** What zlib's stream keeps for its own synchronous path (node's lib/zlib.js processChunkSync). */
interface ZlibHandle {
  writeSync(flush: number, input: Buffer, inOff: number, inLen: number, out: Buffer, outOff: number, outLen: number): void;
}

/**
 * Inflates `zdata` into the assembler until it has every row (trailing data is never expanded).
 * Why not the public stream: it hands out a freshly allocated buffer per output chunk, and 50 MB
 * of fresh external memory per large image drives V8 into full mark-compacts of the whole heap
 * (measured: a 25 ms inflate took 170 ms inside a 60 MB heap). zlib's synchronous handle writes
 * into one reused buffer instead. It is node-internal (`_handle`, `_writeState`, unchanged since
 * Node 10), so it is feature-checked and the public stream remains the fallback.
 */
async function inflateRows(zdata: Buffer, rows: RowAssembler, opts: { publicStream?: boolean } = {}): Promise<void> {
  const inflater = createInflate();
  const internals = inflater as unknown as { _handle?: Partial<ZlibHandle>; _writeState?: unknown };
  const handle = internals._handle;
  const state = internals._writeState;
  if (opts.publicStream || typeof handle?.writeSync !== "function" || !(state instanceof Uint32Array)) {
    inflater.close();
    return inflateRowsByStream(zdata, rows);
  }
  inflater.on("error", () => {}); // reported through `errored` below
  const piece = Buffer.allocUnsafe(PIECE_BYTES);
  let inOff = 0;
  let sinceYield = 0;
  try {
    while (!rows.done) {
      const inLen = zdata.length - inOff;
      handle.writeSync(constants.Z_FINISH, zdata, inOff, inLen, piece, 0, PIECE_BYTES);
      if (inflater.errored) throw new Error(`PNG image data: ${inflater.errored.message}`);
      const [outLeft, inLeft] = state;
      inOff += inLen - inLeft;
      const have = PIECE_BYTES - outLeft;
      if (have > 0) rows.push(piece, have);
      if (outLeft !== 0) break; // output not filled: the stream ended
      if ((sinceYield += have) >= YIELD_BYTES) {
        sinceYield = 0;
        await new Promise<void>((r) => setImmediate(r));
      }
    }
  } finally {
    inflater.close();
  }
  if (!rows.done) throw new Error("PNG image data is truncated");
}

/** The public-API path: zlib's stream on the thread pool (one fresh buffer per output chunk). */
function inflateRowsByStream(zdata: Buffer, rows: RowAssembler): Promise<void> {
  return new Promise((resolve, reject) => {
    const inflater = createInflate({ chunkSize: PIECE_BYTES });
    let settled = false;
    const settle = (err?: Error) => {
      if (settled) return;
      settled = true;
      inflater.removeAllListeners("data");
      inflater.destroy();
      if (err) reject(err);
      else resolve();
    };
    inflater.on("data", (chunk: Buffer) => {
      try {
        rows.push(chunk, chunk.length);
        if (rows.done) settle();
      } catch (e) {
        settle(e as Error);
      }
    });
    inflater.on("end", () => settle(rows.done ? undefined : new Error("PNG image data is truncated")));
    inflater.on("error", (e) => settle(new Error(`PNG image data: ${e.message}`)));
    inflater.end(zdata);
  });
}

/** Reverses one row's PNG filter in place; `prev` (the row above) is already unfiltered. */
function unfilterRow(row: Buffer, off: number, prev: Buffer | undefined, prevOff: number, stride: number, bpp: number): void {
  const filter = row[off];
  const cur = off + 1;
  const up = prevOff + 1;
  if (filter === 0) return;
  if (filter === 1) {
    for (let i = bpp; i < stride; i++) row[cur + i] = (row[cur + i] + row[cur + i - bpp]) & 255;
  } else if (filter === 2) {
    if (prev) for (let i = 0; i < stride; i++) row[cur + i] = (row[cur + i] + prev[up + i]) & 255;
  } else if (filter === 3) {
    for (let i = 0; i < stride; i++) {
      const a = i >= bpp ? row[cur + i - bpp] : 0;
      const b = prev ? prev[up + i] : 0;
      row[cur + i] = (row[cur + i] + ((a + b) >> 1)) & 255;
    }
  } else if (filter === 4) {
    for (let i = 0; i < stride; i++) {
      const a = i >= bpp ? row[cur + i - bpp] : 0;
      const b = prev ? prev[up + i] : 0;
      const c = i >= bpp && prev ? prev[up + i - bpp] : 0;
      const p = a + b - c;
      const pa = Math.abs(p - a);
      const pb = Math.abs(p - b);
      const pc = Math.abs(p - c);
      row[cur + i] = (row[cur + i] + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c)) & 255;
    }
  } else throw new Error(`unknown PNG filter type ${filter}`);
  row[off] = 0; // unfiltered now: never reversed twice
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
  const sampler = new RowSampler(img.width, img.height, dstW, dstH);
  for (let y = 0; y < img.height; y++) {
    if (!sampler.wants(y)) continue;
    const rowStart = y * width * 4;
    sampler.addRow(y, (x, out, o) => {
      const i = rowStart + x * 4;
      out[o] = data[i];
      out[o + 1] = data[i + 1];
      out[o + 2] = data[i + 2];
      out[o + 3] = data[i + 3];
    });
  }
  return sampler.finish();
}
