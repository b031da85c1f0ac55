// JPEG decoding for terminal drawing: jpeg-js, held to the size the one header reader found
// (src/protocol/image-header.ts): its resolution limit is that frame's pixel count, and a frame of
// any other size is an error. Then sampled down like every other format (./image-sample.ts).
import { RowSampler, type Bitmap } from "./image-sample.js";

export interface JpegFrame {
  width: number;
  height: number;
}

/** Decodes a JPEG whose header claims `frame` (within `maxPixels`) and samples it down to `dstW`×`dstH`. */
export async function decodeJpegScaled(
  buf: Buffer,
  dstW: number,
  dstH: number,
  maxPixels: number,
  frame?: JpegFrame,
): Promise<Bitmap> {
  const { default: jpeg } = await import("jpeg-js");
  const limit = frame ? Math.min(maxPixels, frame.width * frame.height) : maxPixels;
  const img = jpeg.decode(buf, {
    useTArray: true,
    formatAsRGBA: true,
    maxResolutionInMP: limit / 1e6,
    // jpeg-js's own accounting: RGBA out plus its coefficient and component planes, measured at
    // ~18 bytes a pixel for a 16 MP 4:2:0 JPEG; 24 leaves room for 4:4:4. Bounded by the limit.
    maxMemoryUsageInMB: Math.ceil((limit * 24) / 2 ** 20) + 64,
  });
  if (frame && (img.width !== frame.width || img.height !== frame.height)) {
    throw new Error(`JPEG decoded as ${img.width}×${img.height}, but its header claims ${frame.width}×${frame.height}`);
  }
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
