// The decoders the terminal draws with, on every PNG variant (bit depths 1–16, every colour type,
// Adam7 interlacing), GIF first frames (plain, interlaced, transparent, a frame off the screen's
// corner) and the one header reader they obey (two IHDRs, GIF frames larger than the screen,
// JPEG frame headers megabytes in).
import { test } from "node:test";
import assert from "node:assert/strict";
import { decodePngScaled } from "../../src/ui/image-decode.js";
import { decodeGifScaled } from "../../src/ui/image-gif.js";
import { readBase64ImageHeader, readImageHeader, type ImageHeader } from "../../src/protocol/image-header.js";
import {
  doubleIhdrPng,
  encodeGif,
  encodeRawPng,
  ihdr,
  jpegBehindApp,
  pngChunk,
  type RawPng,
} from "../fixtures/image-forge.js";
import { PNG_SIGNATURE } from "../../src/protocol/png.js";

const _CH: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
const PALETTE = Buffer.from(Array.from({ length: 256 }, (_, i) => [i, 255 - i, (i * 7) & 255]).flat());

/** The RGBA a correct decoder gives for pixel (x, y) of `p` (8-bit output). */
function expected(p: RawPng, x: number, y: number): number[] {
  const max = 2 ** p.depth - 1;
  const s = (c: number) => {
    const v = p.sample(x, y, c);
    return p.depth === 16 ? v >> 8 : Math.round((v * 255) / max);
  };
  if (p.colour === 3) {
    const i = p.sample(x, y, 0);
    return [PALETTE[i * 3], PALETTE[i * 3 + 1], PALETTE[i * 3 + 2], p.trns?.[i] ?? 255];
  }
  if (p.colour === 0) return [s(0), s(0), s(0), 255];
  if (p.colour === 4) return [s(0), s(0), s(0), s(1)];
  return [s(0), s(1), s(2), p.colour === 6 ? s(3) : 255];
}

test("PNG decoder: every valid bit depth × colour type, plain and Adam7-interlaced, decodes exactly at full size", async () => {
  const combos: [number, number][] = [
    [0, 1],
    [0, 2],
    [0, 4],
    [0, 8],
    [0, 16],
    [2, 8],
    [2, 16],
    [3, 1],
    [3, 2],
    [3, 4],
    [3, 8],
    [4, 8],
    [4, 16],
    [6, 8],
    [6, 16],
  ];
  // 13×11: odd sizes leave some Adam7 passes narrow and a 1-pixel image leaves six passes empty.
  for (const [w, h] of [
    [13, 11],
    [1, 1],
    [9, 3],
  ]) {
    for (const [colour, depth] of combos) {
      for (const interlace of [0, 1] as const) {
        const max = 2 ** depth - 1;
        const p: RawPng = {
          width: w,
          height: h,
          depth,
          colour,
          interlace,
          sample: (x, y, c) => (x * 31 + y * 17 + c * 101) % (max + 1),
          ...(colour === 3 ? { palette: PALETTE.subarray(0, 3 * 2 ** depth), trns: Buffer.from([0, 128]) } : {}),
        };
        const out = await decodePngScaled(encodeRawPng(p), w, h);
        for (let y = 0; y < h; y++) {
          for (let x = 0; x < w; x++) {
            const i = (y * w + x) * 4;
            assert.deepEqual(
              [...out.rgba.subarray(i, i + 4)],
              expected(p, x, y),
              `${w}×${h} colour ${colour} depth ${depth} interlace ${interlace} pixel ${x},${y}`,
            );
          }
        }
      }
    }
  }
});

test("PNG decoder: an interlaced image larger than one inflate piece is sampled down", async () => {
  const p: RawPng = {
    width: 900,
    height: 700,
    depth: 16,
    colour: 6,
    interlace: 1,
    sample: (x, y, c) => (c === 3 ? 65535 : ((x >> 4) * 4000 + y + c) & 65535),
  };
  const out = await decodePngScaled(encodeRawPng(p), 90, 70);
  assert.equal(out.width, 90);
  assert.equal(out.rgba[3], 255);
});

test("PNG decoder: an invalid depth/colour pair is an error, never a guess", async () => {
  const bad = Buffer.concat([PNG_SIGNATURE, ihdr(4, 4, 4, 2), pngChunk("IEND", Buffer.alloc(0))]);
  await assert.rejects(decodePngScaled(bad, 4, 4), /colour type 2 with bit depth 4 is not valid/);
});

test("header reader: a second IHDR is refused (host and terminal alike), the decoder never sees it", async () => {
  const two = doubleIhdrPng(400);
  const v = readImageHeader(two);
  assert.equal(v?.ok, false);
  assert.match((v as { reason: string }).reason, /two IHDR chunks/);
  assert.deepEqual(readBase64ImageHeader(two.toString("base64")), v);
  await assert.rejects(decodePngScaled(two, 10, 10), /two IHDR chunks/);
});

test("header reader: a GIF's size is the largest extent any frame claims, not only the screen", () => {
  const g = encodeGif({
    screen: [16, 16],
    frame: { left: 10, top: 0, width: 16000, height: 16000, index: () => 1 },
    palette: [
      [0, 0, 0],
      [255, 0, 0],
      [0, 255, 0],
      [0, 0, 255],
    ],
    pixels: 64,
  });
  const v = readImageHeader(g);
  assert.deepEqual(v, { ok: true, header: { format: "gif", width: 16010, height: 16000 } });
  assert.deepEqual(readBase64ImageHeader(g.toString("base64")), v);
});

test("header reader: a JPEG frame header behind 1 MB of APP1 is found, in place from base64 too", () => {
  const j = jpegBehindApp(1 << 20, { width: 30000, height: 20000 });
  const b64 = j.toString("base64");
  assert.deepEqual(readBase64ImageHeader(b64), { ok: true, header: { format: "jpeg", width: 30000, height: 20000 } });
  assert.deepEqual(readImageHeader(j), readBase64ImageHeader(b64));
});

test("GIF decoder: the first frame, plain and interlaced, with transparency and an offset frame", () => {
  const palette = [
    [0, 0, 0],
    [255, 0, 0],
    [0, 255, 0],
    [0, 0, 255],
  ];
  for (const interlaced of [false, true]) {
    const index = (x: number, y: number) => (x + 2 * y) % 4;
    const frame = { left: 3, top: 2, width: 20, height: 17, index };
    let g = encodeGif({ screen: [23, 19], frame, palette, transparent: 0 });
    if (interlaced) g = interlace(g, frame.width, frame.height, index, palette);
    const v = readImageHeader(g);
    assert.ok(v?.ok);
    const out = decodeGifScaled(g, v.header as ImageHeader, 23, 19);
    for (let y = 0; y < 19; y++) {
      for (let x = 0; x < 23; x++) {
        const i = (y * 23 + x) * 4;
        const inside = x >= 3 && y >= 2 && x < 23 && y < 19;
        const k = inside ? index(x - 3, y - 2) : 0;
        const want = !inside || k === 0 ? [0, 0, 0, 0] : [...palette[k], 255];
        assert.deepEqual([...out.rgba.subarray(i, i + 4)], want, `interlaced ${interlaced} pixel ${x},${y}`);
      }
    }
  }
});

/** Re-encodes the GIF's first frame with its rows in interlaced order and the interlace flag set. */
function interlace(
  _g: Buffer,
  w: number,
  h: number,
  index: (x: number, y: number) => number,
  palette: number[][],
): Buffer {
  const order: number[] = [];
  for (const [start, step] of [
    [0, 8],
    [4, 8],
    [2, 4],
    [1, 2],
  ])
    for (let y = start; y < h; y += step) order.push(y);
  const g = encodeGif({
    screen: [23, 19],
    frame: { left: 3, top: 2, width: w, height: h, index: (x, r) => index(x, order[r]) },
    palette,
    transparent: 0,
  });
  const desc = g.indexOf(0x2c, 13 + 12 + 8);
  g[desc + 9] |= 0x40;
  return g;
}
