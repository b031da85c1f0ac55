// THE reader of image headers: the host's image-too-large rule and the terminal's decoders both
// take their dimensions from here, and a decoder obeys what it returns (it never re-reads a size
// of its own). So a file cannot pass the pixel limit with one size and decode with another:
// - PNG: every chunk is walked (lengths only); a second IHDR, or IHDR not first, is malformed.
// - GIF: every image descriptor is walked; the size is the largest extent any frame reaches,
//   not only the logical screen (a frame may claim more than the screen).
// - JPEG: segments are walked to the first SOFn wherever it lies (no reading window: APPn
//   segments may push it megabytes in); a later second SOFn with another size is malformed.
// Base64 is read by random access (three bytes per four characters), so finding a header costs
// the number of chunks or segments, never a decode of the whole string. Pure; linear; no stack.

export interface ImageSize {
  width: number;
  height: number;
  format: "png" | "jpeg" | "gif";
}

/** What a decoder needs besides the size; fixed by the header, obeyed by the decoder. */
export interface ImageHeader extends ImageSize {
  /** PNG IHDR: bit depth, colour type, interlace method. */
  png?: { depth: number; colour: number; interlace: number };
}

/** A recognised format: its header, or why it cannot be trusted. Undefined: not PNG, JPEG or GIF. */
export type HeaderVerdict =
  | { ok: true; header: ImageHeader }
  | { ok: false; format: ImageSize["format"]; reason: string };

/** Random access to the bytes of an image (a byte array, or base64 text decoded on demand). */
interface Bytes {
  readonly length: number;
  at(i: number): number;
}

function arrayBytes(b: Uint8Array): Bytes {
  return { length: b.length, at: (i) => b[i] };
}

const B64 = (() => {
  const t = new Int16Array(128).fill(-1);
  const abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (let i = 0; i < abc.length; i++) t[abc.charCodeAt(i)] = i;
  return t;
})();

/** Strict base64 (as the content schemas require) read in place: byte i is in characters 4⌊i/3⌋…+3. */
function base64Bytes(s: string): Bytes | undefined {
  if (s.length % 4 !== 0) return undefined;
  const pad = s.endsWith("==") ? 2 : s.endsWith("=") ? 1 : 0;
  const length = (s.length / 4) * 3 - pad;
  const val = (k: number) => {
    const c = s.charCodeAt(k);
    return c < 128 ? B64[c] : -1;
  };
  return {
    length,
    at(i) {
      if (i < 0 || i >= length) return NaN;
      const g = Math.floor(i / 3) * 4;
      const n = (val(g) << 18) | (val(g + 1) << 12) | ((val(g + 2) & 63) << 6) | (val(g + 3) & 63);
      return (n >> (16 - 8 * (i % 3))) & 255;
    },
  };
}

function strictBase64(data: string): string {
  const clean = data.replace(/[^A-Za-z0-9+/]/g, "");
  return clean.slice(0, clean.length - (clean.length % 4));
}

const u16be = (b: Bytes, i: number) => (b.at(i) << 8) | b.at(i + 1);
const u16le = (b: Bytes, i: number) => b.at(i) | (b.at(i + 1) << 8);
const u32be = (b: Bytes, i: number) => ((b.at(i) << 24) >>> 0) + (b.at(i + 1) << 16) + (b.at(i + 2) << 8) + b.at(i + 3);
const ascii = (b: Bytes, from: number, to: number) => {
  let s = "";
  for (let i = from; i < to; i++) s += String.fromCharCode(b.at(i));
  return s;
};

function readPng(b: Bytes): HeaderVerdict {
  const bad = (reason: string): HeaderVerdict => ({ ok: false, format: "png", reason: `PNG ${reason}` });
  if (b.length < 33 || ascii(b, 12, 16) !== "IHDR" || u32be(b, 8) !== 13)
    return bad("header: the first chunk is not a 13-byte IHDR");
  const header: ImageHeader = {
    format: "png",
    width: u32be(b, 16),
    height: u32be(b, 20),
    png: { depth: b.at(24), colour: b.at(25), interlace: b.at(28) },
  };
  // The other chunks' lengths, to the end: a second IHDR would let a decoder use another size.
  for (let pos = 33; pos + 8 <= b.length; ) {
    const len = u32be(b, pos);
    const type = ascii(b, pos + 4, pos + 8);
    if (type === "IHDR") return bad("has two IHDR chunks (two sizes: which one would be decoded?)");
    if (type === "IEND") break;
    pos += 12 + len;
  }
  return { ok: true, header };
}

function readGif(b: Bytes): HeaderVerdict {
  const bad = (reason: string): HeaderVerdict => ({ ok: false, format: "gif", reason: `GIF ${reason}` });
  if (b.length < 13) return bad("header is truncated");
  let width = u16le(b, 6);
  let height = u16le(b, 8);
  const flags = b.at(10);
  let pos = 13 + (flags & 0x80 ? 3 << ((flags & 7) + 1) : 0);
  const skipSubBlocks = () => {
    for (let n = b.at(pos); pos < b.length && n > 0; n = b.at(pos)) pos += n + 1;
    pos++;
  };
  let frames = 0;
  while (pos < b.length) {
    const kind = b.at(pos);
    if (kind === 0x3b) break; // trailer
    if (kind === 0x21) {
      pos += 2; // extension introducer and label
      skipSubBlocks();
    } else if (kind === 0x2c) {
      if (pos + 10 > b.length) return bad("image descriptor is truncated");
      width = Math.max(width, u16le(b, pos + 1) + u16le(b, pos + 5));
      height = Math.max(height, u16le(b, pos + 3) + u16le(b, pos + 7));
      const f = b.at(pos + 9);
      pos += 10 + (f & 0x80 ? 3 << ((f & 7) + 1) : 0) + 1; // local palette, LZW minimum code size
      skipSubBlocks();
      frames++;
    } else return bad(`has an unknown block 0x${kind.toString(16)} at byte ${pos}`);
  }
  if (frames === 0) return bad("has no image");
  return { ok: true, header: { format: "gif", width, height } };
}

const isSof = (m: number) => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;

function readJpeg(b: Bytes): HeaderVerdict {
  const bad = (reason: string): HeaderVerdict => ({ ok: false, format: "jpeg", reason: `JPEG ${reason}` });
  let header: ImageHeader | undefined;
  // Segment by segment to the first scan (SOS): each step skips a whole segment by its length.
  for (let i = 2; i + 3 < b.length; ) {
    if (b.at(i) !== 0xff) return bad(`has no marker at byte ${i}`);
    const marker = b.at(i + 1);
    if (marker === 0xff) {
      i++; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2;
      continue;
    }
    if (marker === 0xda || marker === 0xd9) break; // start of scan / end of image
    const len = u16be(b, i + 2);
    if (len < 2) return bad(`segment at byte ${i} has length ${len}`);
    if (isSof(marker)) {
      if (i + 9 > b.length) return bad("frame header is truncated");
      const h = u16be(b, i + 5);
      const w = u16be(b, i + 7);
      if (header && (header.width !== w || header.height !== h))
        return bad(`has two frame headers (${header.width}×${header.height} and ${w}×${h})`);
      header ??= { format: "jpeg", width: w, height: h };
    }
    i += 2 + len;
  }
  return header ? { ok: true, header } : bad("has no frame header (SOFn) before its image data");
}

function readHeader(b: Bytes): HeaderVerdict | undefined {
  if (b.length >= 8 && u32be(b, 0) === 0x89504e47 && u32be(b, 4) === 0x0d0a1a0a) return readPng(b);
  if (b.length >= 6 && ascii(b, 0, 3) === "GIF") return readGif(b);
  if (b.length >= 4 && b.at(0) === 0xff && b.at(1) === 0xd8) return readJpeg(b);
  return undefined;
}

/** The header of an image in bytes: undefined when not PNG, JPEG or GIF. */
export function readImageHeader(b: Uint8Array): HeaderVerdict | undefined {
  return readHeader(arrayBytes(b));
}

/** The same, read in place from base64 (nothing but the header bytes is decoded). */
export function readBase64ImageHeader(data: string): HeaderVerdict | undefined {
  // Not strict base64 (the content schemas refuse that): its alphabet only, still read in place.
  const bytes = base64Bytes(data) ?? base64Bytes(strictBase64(data));
  return bytes ? readHeader(bytes) : undefined;
}

/** Dimensions claimed by an image header; undefined when unknown or untrustworthy. */
export function readImageSize(b: Uint8Array): ImageSize | undefined {
  return sizeOf(readImageHeader(b));
}

function sizeOf(v: HeaderVerdict | undefined): ImageSize | undefined {
  return v?.ok ? { width: v.header.width, height: v.header.height, format: v.header.format } : undefined;
}

/** The same from base64. */
export function readBase64ImageSize(data: string): ImageSize | undefined {
  return sizeOf(readBase64ImageHeader(data));
}
