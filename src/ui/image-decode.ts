// PNG decoding for terminal drawing, straight to the drawn size (./image-sample.ts): node:zlib
// inflates into one reused buffer and each row is unfiltered and sampled as it arrives, so a
// 4,096² image is never held at full size (allocating its 50 MB of raw rows cost several times
// more than inflating them). Every bit depth and colour type, and Adam7 interlacing (seven passes
// of smaller rows), are handled here. The size, depth, colour type and interlace come from the
// one header reader (src/protocol/image-header.ts), never from an IHDR this file reads itself.
import { constants, createInflate } from "node:zlib";
import { readImageHeader, type ImageHeader } from "../protocol/image-header.js";
import { RowSampler, type Bitmap } from "./image-sample.js";

export { fitPixels, type Bitmap } from "./image-sample.js";
export { decodeJpegScaled } from "./image-jpeg.js";

/** Samples per pixel by PNG colour type. */
export const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
const DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };
/** Adam7 passes: first column, first row, column step, row step. */
export const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

export interface PngDecodeOptions {
  publicStream?: boolean;
  /** The header as the one reader read it (read here with that reader when absent). */
  header?: ImageHeader;
}

/** Decodes a PNG straight to `dstW`×`dstH`, at the size its header reader fixed. */
export async function decodePngScaled(
  buf: Buffer,
  dstW: number,
  dstH: number,
  opts: PngDecodeOptions = {},
): Promise<Bitmap> {
  let header = opts.header;
  if (!header) {
    const v = readImageHeader(buf);
    if (v && !v.ok) throw new Error(v.reason);
    if (!v || v.header.format !== "png") throw new Error("not a PNG");
    header = v.header;
  }
  const { width, height } = header;
  const { depth, colour, interlace } = header.png ?? { depth: 0, colour: -1, interlace: -1 };
  const channels = CHANNELS[colour];
  if (channels === undefined || !DEPTHS[colour].includes(depth))
    throw new Error(`PNG colour type ${colour} with bit depth ${depth} is not valid`);
  if (interlace !== 0 && interlace !== 1) throw new Error(`PNG interlace method ${interlace} is not valid`);
  if (width === 0 || height === 0) throw new Error(`PNG header claims ${width}×${height} pixels`);
  let palette: Buffer | undefined;
  let alphaTable: Buffer | undefined;
  const idat: Buffer[] = [];
  for (let pos = 8; pos + 8 <= buf.length; ) {
    const len = buf.readUInt32BE(pos);
    const type = buf.toString("latin1", pos + 4, pos + 8);
    const data = buf.subarray(pos + 8, pos + 8 + len);
    if (data.length < len) throw new Error("truncated PNG chunk");
    if (type === "PLTE") palette = data;
    else if (type === "tRNS") alphaTable = data;
    else if (type === "IDAT") idat.push(data);
    else if (type === "IEND") break;
    pos += 12 + len;
  }
  if (colour === 3 && !palette) throw new Error("palette PNG without PLTE");
  const bitsPerPixel = channels * depth;
  const bpp = Math.max(1, bitsPerPixel >> 3);
  const read = pixelReader(colour, channels, depth, palette, alphaTable);
  const sampler = new RowSampler(width, height, dstW, dstH);
  // One segment per pass (interlaced) or the whole image; an empty pass has no rows at all.
  const passes =
    interlace === 1
      ? ADAM7.map(([x0, y0, dx, dy]) => ({
          x0,
          y0,
          dx,
          dy,
          w: Math.ceil((width - x0) / dx),
          h: Math.ceil((height - y0) / dy),
        }))
      : [{ x0: 0, y0: 0, dx: 1, dy: 1, w: width, h: height }];
  const used = passes.filter((p) => p.w > 0 && p.h > 0);
  const segments = used.map((p) => ({ rowLen: Math.ceil((p.w * bitsPerPixel) / 8) + 1, rows: p.h }));
  const rows = new RowAssembler(segments, (row, off, prev, prevOff, seg, r) => {
    const p = used[seg];
    unfilterRow(row, off, prev, prevOff, segments[seg].rowLen - 1, bpp);
    const y = p.y0 + r * p.dy;
    if (sampler.wants(y)) sampler.addRow(y, (x, out, o) => read(row, off + 1, (x - p.x0) / p.dx, out, o), p.x0, p.dx);
  });
  await inflateRows(Buffer.concat(idat), rows, opts);
  return sampler.finish();
}

/** Writes the RGBA of pixel `x` of the row whose first byte (after the filter byte) is at `i`. */
type ChannelReader = (row: Buffer, i: number, x: number, out: Uint8Array, o: number) => void;

function pixelReader(
  colour: number,
  channels: number,
  depth: number,
  palette: Buffer | undefined,
  alphaTable: Buffer | undefined,
): ChannelReader {
  // Sample c of pixel x, scaled to 8 bits (16-bit: its high byte; 1/2/4-bit: stretched to 0–255).
  // A palette index is never scaled.
  const scale = colour === 3 ? 1 : depth < 8 ? 255 / ((1 << depth) - 1) : 1;
  const sample =
    depth === 8
      ? (row: Buffer, i: number, x: number, c: number) => row[i + x * channels + c]
      : depth === 16
        ? (row: Buffer, i: number, x: number, c: number) => row[i + (x * channels + c) * 2]
        : (row: Buffer, i: number, x: number) => {
            const bit = x * depth;
            return Math.round(((row[i + (bit >> 3)] >> (8 - depth - (bit & 7))) & ((1 << depth) - 1)) * scale);
          };
  if (colour === 2 || colour === 6) {
    const alpha = channels === 4;
    return (row, i, x, out, o) => {
      out[o] = sample(row, i, x, 0);
      out[o + 1] = sample(row, i, x, 1);
      out[o + 2] = sample(row, i, x, 2);
      out[o + 3] = alpha ? sample(row, i, x, 3) : 255;
    };
  }
  if (colour === 0 || colour === 4) {
    const alpha = channels === 2;
    return (row, i, x, out, o) => {
      out[o] = out[o + 1] = out[o + 2] = sample(row, i, x, 0);
      out[o + 3] = alpha ? sample(row, i, x, 1) : 255;
    };
  }
  return (row, i, x, out, o) => {
    const v = sample(row, i, x, 0);
    const p = v * 3;
    out[o] = palette![p] ?? 0;
    out[o + 1] = palette![p + 1] ?? 0;
    out[o + 2] = palette![p + 2] ?? 0;
    out[o + 3] = alphaTable?.[v] ?? 255;
  };
}

type RowHandler = (
  row: Buffer,
  off: number,
  prev: Buffer | undefined,
  prevOff: number,
  segment: number,
  r: number,
) => void;

/**
 * Cuts inflated bytes into PNG rows, segment by segment (one per Adam7 pass, or the whole image),
 * and hands over each complete filtered row (filter byte at `off`) with the row above it in the
 * same segment (`prev` undefined for a segment's first). A row lying whole inside a pushed piece
 * is handed over in place; one split across pieces is assembled in one of two spare buffers (two,
 * because the row above must stay readable while the next one fills). A pushed piece may be
 * overwritten once `push` returns, so a row above that lives in it is copied out first.
 */
class RowAssembler {
  private readonly spare: [Buffer, Buffer];
  private spareIdx = 0;
  /** Bytes of a split row gathered in spare[spareIdx]. */
  private fill = 0;
  private seg = 0;
  private r = 0;
  private prev: Buffer | undefined;
  private prevOff = 0;
  constructor(
    private readonly segments: readonly { rowLen: number; rows: number }[],
    private readonly onRow: RowHandler,
  ) {
    const most = Math.max(1, ...segments.map((s) => s.rowLen));
    this.spare = [Buffer.allocUnsafe(most), Buffer.allocUnsafe(most)];
  }
  get done(): boolean {
    return this.seg >= this.segments.length;
  }
  push(piece: Buffer, len: number): void {
    let pos = 0;
    while (pos < len && !this.done) {
      const { rowLen } = this.segments[this.seg];
      if (this.fill === 0 && pos + rowLen <= len) {
        this.emit(piece, pos);
        pos += rowLen;
        continue;
      }
      if (this.fill === 0 && this.prev === piece) this.keepPrev();
      const n = Math.min(rowLen - this.fill, len - pos);
      piece.copy(this.spare[this.spareIdx], this.fill, pos, pos + n);
      this.fill += n;
      pos += n;
      if (this.fill < rowLen) break;
      this.fill = 0;
      this.emit(this.spare[this.spareIdx], 0);
      this.spareIdx ^= 1;
    }
    if (!this.done && this.prev === piece) this.keepPrev();
  }
  private keepPrev(): void {
    const keep = this.spare[this.spareIdx];
    this.prev!.copy(keep, 0, this.prevOff, this.prevOff + this.segments[this.seg].rowLen);
    this.prev = keep;
    this.prevOff = 0;
    this.spareIdx ^= 1;
  }
  private emit(row: Buffer, off: number): void {
    this.onRow(row, off, this.prev, this.prevOff, this.seg, this.r);
    this.prev = row;
    this.prevOff = off;
    if (++this.r >= this.segments[this.seg].rows) {
      this.seg++;
      this.r = 0;
      this.prev = undefined;
    }
  }
}

// Inflated bytes go through one reused piece of this size; the event loop gets a turn after
// every YIELD_BYTES of output, so a 4,096² image never blocks drawing for more than a few ms.
const PIECE_BYTES = 256 << 10;
const YIELD_BYTES = 4 << 20;

/** What zlib's stream keeps for its own synchronous path (node's lib/zlib.js processChunkSync). */
interface ZlibHandle {
  writeSync(
    flush: number,
    input: Buffer,
    inOff: number,
    inLen: number,
    out: Buffer,
    outOff: number,
    outLen: number,
  ): void;
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
function unfilterRow(
  row: Buffer,
  off: number,
  prev: Buffer | undefined,
  prevOff: number,
  stride: number,
  bpp: number,
): void {
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
