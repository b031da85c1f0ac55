// The one dispatch from a trusted header (src/protocol/image-header.ts) to its format's decoder,
// straight to the drawn size. Runs in the drawing worker (./image-worker.ts); pure CPU, no I/O.
import type { ImageHeader } from "../protocol/image-header.js";
import { decodePngScaled } from "./image-decode.js";
import { decodeGifScaled } from "./image-gif.js";
import { decodeJpegScaled } from "./image-jpeg.js";
import type { Bitmap } from "./image-sample.js";

export interface DecodeRequest {
  bytes: Uint8Array;
  header: ImageHeader;
  width: number;
  height: number;
  maxPixels: number;
  /** Encode the decoded bitmap too, in the worker (a terminal picture: sixel text, or an RGBA PNG). */
  encode?: "sixel" | "png";
}

export async function decodeScaled({ bytes, header, width, height, maxPixels }: DecodeRequest): Promise<Bitmap> {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (header.format === "png") return decodePngScaled(b, width, height, { header });
  if (header.format === "gif") return decodeGifScaled(b, header, width, height);
  return decodeJpegScaled(b, width, height, maxPixels, header);
}
