// Image dimensions from the header bytes alone (PNG IHDR, JPEG SOFn, GIF logical screen), so a
// tiny body claiming 50,000 × 50,000 pixels can be refused before anything decodes it. Pure.

export interface ImageSize {
  width: number;
  height: number;
  format: "png" | "jpeg" | "gif";
}

/** Base64 characters decoded to find a header: JPEG APPn segments (EXIF) may precede the SOF. */
const HEADER_BASE64_CHARS = 256 * 1024;

const u16be = (b: Uint8Array, i: number) => (b[i] << 8) | b[i + 1];
const u16le = (b: Uint8Array, i: number) => b[i] | (b[i + 1] << 8);
const u32be = (b: Uint8Array, i: number) => ((b[i] << 24) >>> 0) + (b[i + 1] << 16) + (b[i + 2] << 8) + b[i + 3];
const ascii = (b: Uint8Array, from: number, to: number) => String.fromCharCode(...b.subarray(from, to));

/** Dimensions claimed by an image header, or undefined when the format is unknown or truncated. */
export function readImageSize(b: Uint8Array): ImageSize | undefined {
  // PNG: 8-byte signature, then the IHDR chunk (length, "IHDR", width, height).
  if (b.length >= 24 && u32be(b, 0) === 0x89504e47 && u32be(b, 4) === 0x0d0a1a0a) {
    if (ascii(b, 12, 16) !== "IHDR") return undefined;
    return { width: u32be(b, 16), height: u32be(b, 20), format: "png" };
  }
  // GIF: logical screen size, little-endian.
  if (b.length >= 10 && ascii(b, 0, 3) === "GIF") return { width: u16le(b, 6), height: u16le(b, 8), format: "gif" };
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
      const len = u16be(b, i + 2);
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { height: u16be(b, i + 5), width: u16be(b, i + 7), format: "jpeg" };
      }
      if (len < 2) return undefined;
      i += 2 + len;
    }
  }
  return undefined;
}

/** Decodes only the start of a base64 string (enough for any header) and reads the image size. */
export function readBase64ImageSize(data: string): ImageSize | undefined {
  const head = data.slice(0, HEADER_BASE64_CHARS).replace(/[^A-Za-z0-9+/]/g, "");
  const usable = head.slice(0, head.length - (head.length % 4));
  return readImageSize(Uint8Array.from(atob(usable), (c) => c.charCodeAt(0)));
}
