// GIF decoding for terminal drawing: the first frame only (what a still drawing shows), LZW
// decoded row by row into the box sampler (./image-sample.ts), on a canvas of the size the one
// header reader found (src/protocol/image-header.ts: the largest extent any frame claims), so a
// frame larger than the logical screen can neither overflow nor be decoded past the pixel limit.
import type { ImageHeader } from "../protocol/image-header.js";
import { RowSampler, type Bitmap } from "./image-sample.js";

const MAX_CODES = 4096;

/** Rows of an interlaced GIF in the order they arrive (four passes). */
function rowOrder(height: number, interlaced: boolean): Int32Array {
  const out = new Int32Array(height);
  if (!interlaced) {
    for (let y = 0; y < height; y++) out[y] = y;
    return out;
  }
  let k = 0;
  for (const [start, step] of [
    [0, 8],
    [4, 8],
    [2, 4],
    [1, 2],
  ])
    for (let y = start; y < height; y += step) out[k++] = y;
  return out;
}

export function decodeGifScaled(buf: Buffer, header: ImageHeader, dstW: number, dstH: number): Bitmap {
  const sampler = new RowSampler(header.width, header.height, dstW, dstH);
  const flags = buf[10];
  let pos = 13;
  let palette: Uint8Array | undefined;
  if (flags & 0x80) {
    const n = 3 << ((flags & 7) + 1);
    palette = buf.subarray(pos, pos + n);
    pos += n;
  }
  let transparent = -1;
  while (pos < buf.length) {
    const kind = buf[pos];
    if (kind === 0x3b) break;
    if (kind === 0x21) {
      // Graphic control extension: the transparent index of the next frame.
      if (buf[pos + 1] === 0xf9 && buf[pos + 2] >= 4) transparent = buf[pos + 3] & 1 ? buf[pos + 6] : -1;
      pos += 2;
      while (pos < buf.length && buf[pos] > 0) pos += buf[pos] + 1;
      pos++;
      continue;
    }
    if (kind !== 0x2c) throw new Error(`GIF: unknown block 0x${kind.toString(16)}`);
    const left = buf.readUInt16LE(pos + 1);
    const top = buf.readUInt16LE(pos + 3);
    const fw = buf.readUInt16LE(pos + 5);
    const fh = buf.readUInt16LE(pos + 7);
    const f = buf[pos + 9];
    pos += 10;
    if (f & 0x80) {
      const n = 3 << ((f & 7) + 1);
      palette = buf.subarray(pos, pos + n);
      pos += n;
    }
    if (!palette) throw new Error("GIF: no colour table");
    if (left + fw > header.width || top + fh > header.height)
      throw new Error("GIF: the frame lies outside the size its header reader found");
    const minCode = buf[pos++];
    if (minCode < 2 || minCode > 8) throw new Error(`GIF: LZW minimum code size ${minCode}`);
    // The frame's data sub-blocks, joined (bounded by the file itself).
    const parts: Buffer[] = [];
    while (pos < buf.length && buf[pos] > 0) {
      parts.push(buf.subarray(pos + 1, pos + 1 + buf[pos]));
      pos += buf[pos] + 1;
    }
    const pal = palette;
    const row = new Uint8Array(fw);
    const order = rowOrder(fh, (f & 0x40) !== 0);
    let x = 0;
    let r = 0;
    const emitRow = () => {
      const y = top + order[r];
      if (sampler.wants(y)) {
        sampler.addRow(y, (sx, out, o) => {
          const c = sx - left;
          if (c < 0 || c >= fw || row[c] === transparent) {
            out[o] = out[o + 1] = out[o + 2] = out[o + 3] = 0;
            return;
          }
          const p = row[c] * 3;
          out[o] = pal[p] ?? 0;
          out[o + 1] = pal[p + 1] ?? 0;
          out[o + 2] = pal[p + 2] ?? 0;
          out[o + 3] = 255;
        });
      }
    };
    lzw(Buffer.concat(parts), minCode, (index) => {
      if (r >= fh) return false;
      row[x++] = index;
      if (x === fw) {
        emitRow();
        x = 0;
        r++;
      }
      return r < fh;
    });
    return sampler.finish(); // the first frame is the drawing
  }
  throw new Error("GIF: no image");
}

/** LZW decoding of GIF image data; `put` takes each index and says whether more are wanted. */
function lzw(data: Buffer, minCode: number, put: (index: number) => boolean): void {
  const clear = 1 << minCode;
  const end = clear + 1;
  const prefix = new Int16Array(MAX_CODES);
  const suffix = new Uint8Array(MAX_CODES);
  const first = new Uint8Array(MAX_CODES);
  const stack = new Uint8Array(MAX_CODES + 1);
  for (let i = 0; i < clear; i++) {
    suffix[i] = i;
    first[i] = i;
  }
  let size = minCode + 1;
  let next = end + 1;
  let old = -1;
  let bits = 0;
  let acc = 0;
  for (let p = 0; p < data.length; ) {
    while (bits < size && p < data.length) {
      acc |= data[p++] << bits;
      bits += 8;
    }
    if (bits < size) break;
    const code = acc & ((1 << size) - 1);
    acc >>>= size;
    bits -= size;
    if (code === clear) {
      size = minCode + 1;
      next = end + 1;
      old = -1;
      continue;
    }
    if (code === end) break;
    let c = code;
    let sp = 0;
    if (old === -1) {
      if (code >= clear) throw new Error("GIF: LZW data starts with an unknown code");
    } else {
      if (code > next || (code === next && next >= MAX_CODES)) throw new Error("GIF: corrupt LZW data");
      if (code === next) {
        stack[sp++] = first[old];
        c = old;
      }
    }
    while (c >= clear) {
      stack[sp++] = suffix[c];
      c = prefix[c];
    }
    stack[sp++] = c;
    const head = c;
    if (old !== -1 && next < MAX_CODES) {
      prefix[next] = old;
      suffix[next] = head;
      first[next] = first[old];
      next++;
      if (next === 1 << size && size < 12) size++;
    }
    old = code;
    while (sp > 0) if (!put(stack[--sp])) return;
  }
}
