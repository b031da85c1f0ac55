import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { deflateSync } from "node:zlib";
import jpeg from "jpeg-js";
import { decodeJpegScaled, decodePngScaled, fitPixels } from "../../src/ui/image-decode.js";
import { encodePng } from "../../src/protocol/png.js";

// pngjs (a devDependency) ships no types: the little used here, typed by hand.
type PngImage = { data: Buffer };
type PngModule = {
  PNG: {
    new (o: { width: number; height: number; bitDepth?: number }): PngImage;
    sync: { write(p: PngImage, o?: Record<string, unknown>): Buffer };
  };
};
const { PNG } = createRequire(import.meta.url)("pngjs") as PngModule;

function pattern(w: number, h: number): Uint8Array {
  const rgba = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) rgba.set([(x * 37 + y) & 255, (y * 11) & 255, (x * y) & 255, 255], (y * w + x) * 4);
  return rgba;
}

test("PNG decoder: every filter type (pngjs adaptive filtering) and RGB/RGBA/grey decode exactly at full size", async () => {
  const w = 23,
    h = 17;
  const src = pattern(w, h);
  for (const [filterType, colorType] of [
    [0, 6],
    [1, 6],
    [2, 2],
    [3, 6],
    [4, 2],
    [-1, 6],
    [-1, 0],
  ] as const) {
    const png = new PNG({ width: w, height: h });
    png.data = Buffer.from(src);
    const buf = PNG.sync.write(png, { filterType, colorType, inputHasAlpha: true });
    const out = await decodePngScaled(buf, w, h);
    assert.ok(out, `decoded (filter ${filterType}, colour ${colorType})`);
    for (let i = 0; i < w * h; i++) {
      const got: number[] = [...out.rgba.subarray(i * 4, i * 4 + 4)];
      const want = colorType === 0 ? null : [...src.subarray(i * 4, i * 4 + 4)];
      if (want) assert.deepEqual(got, want, `pixel ${i} (filter ${filterType}, colour ${colorType})`);
      else assert.ok(got[0] === got[1] && got[1] === got[2], "grey");
    }
  }
});

test("PNG decoder: a large image is sampled down to the target size (box average of a flat colour stays flat)", async () => {
  const w = 640,
    h = 480;
  const rgba = new Uint8Array(w * h * 4);
  for (let i = 0; i < w * h; i++) rgba.set([200, 100, 50, 255], i * 4);
  const out = await decodePngScaled(encodePng(w, h, rgba), 40, 30);
  assert.equal(out!.width, 40);
  assert.equal(out!.rgba.length, 40 * 30 * 4);
  assert.deepEqual([...out!.rgba.subarray(0, 4)], [200, 100, 50, 255]);
  assert.deepEqual([...out!.rgba.subarray(-4)], [200, 100, 50, 255]);
});

test("PNG decoder: truncated image data is an error", async () => {
  const good = encodePng(8, 8, pattern(8, 8));
  const cut = Buffer.concat([good.subarray(0, 40), good.subarray(-12)]);
  await assert.rejects(decodePngScaled(cut, 8, 8));
});

test("PNG decoder: rows split across inflate pieces decode exactly, through zlib's handle and through the public stream alike", async () => {
  // 700×200 RGBA with adaptive filters: 2,801-byte rows over 560 kB of pixels, so rows straddle
  // the 256 kB pieces and Up/Average/Paeth rows read a row above that lived in an earlier piece.
  const w = 700,
    h = 200;
  const src = pattern(w, h);
  const png = new PNG({ width: w, height: h });
  png.data = Buffer.from(src);
  const buf = PNG.sync.write(png, { filterType: -1, colorType: 6, inputHasAlpha: true });
  for (const publicStream of [false, true]) {
    const out = await decodePngScaled(buf, w, h, { publicStream });
    assert.ok(out);
    const mismatch = out.rgba.findIndex((v, i) => v !== src[i]);
    assert.equal(mismatch, -1, `first differing byte ${mismatch} (publicStream ${publicStream})`);
  }
});

test("PNG decoder: corrupt or short image data is a one-line error on both inflate paths; bytes past the last row are never inflated", async () => {
  const w = 300,
    h = 300;
  const good = encodePng(w, h, pattern(w, h));
  const idatAt = good.indexOf("IDAT", 0, "latin1");
  const len = good.readUInt32BE(idatAt - 4);
  const withIdat = (data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write("IDAT", 4, "latin1");
    return Buffer.concat([good.subarray(0, idatAt - 4), head, data, Buffer.alloc(4), good.subarray(-12)]);
  };
  const zdata = good.subarray(idatAt + 4, idatAt + 4 + len);
  const corrupt = Buffer.from(zdata);
  corrupt.fill(0xff, 2, 40);
  // The deflate stream of 2 rows only, wrapped in a valid PNG claiming 300 rows.
  const rowLen = w * 3 + 1;
  const short = deflateSync(Buffer.alloc(rowLen * 2));
  // A valid image followed by garbage inside the same IDAT: never reached.
  const trailing = Buffer.concat([zdata, Buffer.alloc(1000, 0xee)]);
  for (const publicStream of [false, true]) {
    await assert.rejects(decodePngScaled(withIdat(corrupt), 10, 10, { publicStream }), /^Error: PNG image data: /);
    await assert.rejects(decodePngScaled(withIdat(short), 10, 10, { publicStream }), /PNG image data is truncated/);
    const out = await decodePngScaled(withIdat(trailing), w, h, { publicStream });
    assert.deepEqual([...out!.rgba.subarray(0, 4)], [...pattern(w, h).subarray(0, 4)]);
  }
});

test("PNG decoder: a 4,096² image gives the event loop turns while it inflates", async () => {
  const side = 4096;
  const rgba = new Uint8Array(side * side * 4);
  for (let i = 0; i < rgba.length; i += 4) rgba[i] = (i >> 14) & 255;
  const png = encodePng(side, side, rgba);
  let turns = 0;
  let running = true;
  const tick = () => {
    turns++;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  const out = await decodePngScaled(png, 80, 80);
  running = false;
  assert.equal(out!.width, 80);
  // 48 MB of rows, one turn every 4 MB at least: a decode that held the thread would give ≤ 1.
  assert.ok(turns >= 8, `event loop turns during the decode: ${turns}`);
});

test("JPEG decoder: decodes and samples; pixel limit enforced by jpeg-js", async () => {
  const w = 64,
    h = 48;
  const data = Buffer.alloc(w * h * 4);
  for (let i = 0; i < w * h; i++) data.set([10, 200, 30, 255], i * 4);
  const jpg = jpeg.encode({ data, width: w, height: h }, 95).data;
  const out = await decodeJpegScaled(jpg, 16, 12, 40_000_000);
  assert.equal(out.width, 16);
  const [r, g, b] = out.rgba;
  assert.ok(Math.abs(r - 10) < 8 && Math.abs(g - 200) < 8 && Math.abs(b - 30) < 8, `${r},${g},${b}`);
  await assert.rejects(decodeJpegScaled(jpg, 16, 12, 1000), /maxResolutionInMP/);
});

test("fitPixels keeps the aspect ratio inside cols × 2·rows", () => {
  assert.deepEqual(fitPixels(120, 40, 48), { width: 48, height: 16 });
  assert.deepEqual(fitPixels(4096, 4096, 100, 40), { width: 80, height: 80 });
  assert.deepEqual(fitPixels(1000, 100, 100, 40), { width: 100, height: 10 });
});
