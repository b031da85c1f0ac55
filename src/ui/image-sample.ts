// Down-sampling for terminal drawing: an image is only ever shown as a few thousand half-block
// cells, so decoders feed their rows (in any order: interlaced PNG and GIF rows come in passes)
// to a box sampler that keeps just those pixels. No decoder holds a whole image as RGBA.

/** A small RGBA bitmap (alpha 0 = transparent). */
export interface Bitmap {
  width: number;
  height: number;
  rgba: Uint8Array;
}

/** Target size in pixels of an image fitted into `cols` × `rows*2` (aspect kept). */
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

/** Source coordinates sampled for each target index: SAMPLES per target pixel, spread over its box (sorted). */
function sampleCoords(src: number, dst: number): Int32Array {
  const out = new Int32Array(dst * SAMPLES);
  const step = src / dst;
  for (let d = 0; d < dst; d++) {
    for (let s = 0; s < SAMPLES; s++)
      out[d * SAMPLES + s] = Math.min(src - 1, Math.floor((d + (s + 0.5) / SAMPLES) * step));
  }
  return out;
}

/** Writes the RGBA of source column `x` at out[o..o+3]. */
export type PixelReader = (x: number, out: Uint8Array, o: number) => void;

/** Box-samples a source image fed one row at a time (any order, each row at most once) down to `dstW`×`dstH`. */
export class RowSampler {
  private readonly xs: Int32Array;
  private readonly ys: Int32Array;
  private readonly sums: Float64Array;
  private readonly px = new Uint8Array(4);
  constructor(
    srcW: number,
    srcH: number,
    private readonly dstW: number,
    private readonly dstH: number,
  ) {
    this.xs = sampleCoords(srcW, dstW);
    this.ys = sampleCoords(srcH, dstH);
    this.sums = new Float64Array(dstW * dstH * 4);
  }
  /** First index into `ys` whose row is `y`, or -1. */
  private first(y: number): number {
    const { ys } = this;
    let lo = 0;
    let hi = ys.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ys[mid] < y) lo = mid + 1;
      else hi = mid;
    }
    return lo < ys.length && ys[lo] === y ? lo : -1;
  }
  /** Whether source row `y` is sampled. */
  wants(y: number): boolean {
    return this.first(y) >= 0;
  }
  /** Adds row `y`; only columns x ≡ xStart (mod xStep) are read (an Adam7 pass holds no others). */
  addRow(y: number, read: PixelReader, xStart = 0, xStep = 1): void {
    const { xs, ys, sums, px, dstW } = this;
    for (let k = this.first(y); k >= 0 && k < ys.length && ys[k] === y; k++) {
      const base = Math.floor(k / SAMPLES) * dstW * 4;
      for (let j = 0; j < xs.length; j++) {
        const x = xs[j];
        if (xStep !== 1 && (x < xStart || (x - xStart) % xStep !== 0)) continue;
        read(x, px, 0);
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
