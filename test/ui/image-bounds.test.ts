// Drawing is bounded in pixels and in time: decoding runs off the main thread (the event loop
// keeps turning while a large image decodes), a decode past its deadline is stopped and gets one
// line, and the next image still draws.
import { test } from "node:test";
import assert from "node:assert/strict";
import { deflateSync } from "node:zlib";
import jpeg from "jpeg-js";
import { renderImage } from "../../src/ui/image.js";
import { encodePng, PNG_SIGNATURE } from "../../src/protocol/png.js";
import { doubleIhdrPng, encodeGif, ihdr, jpegBehindApp, pngChunk } from "../fixtures/image-forge.js";

/** A large 16-bit grey interlaced PNG built fast (zero rows): slow to decode, quick to make. */
function slowPng(side: number): Buffer {
  // Adam7 of a 16-bit grey image: the seven passes' rows, all filter 0 and zero.
  let raw = 0;
  for (const [x0, y0, dx, dy] of [
    [0, 0, 8, 8],
    [4, 0, 8, 8],
    [0, 4, 4, 8],
    [2, 0, 4, 4],
    [0, 2, 2, 4],
    [1, 0, 2, 2],
    [0, 1, 1, 2],
  ]) {
    const w = Math.ceil((side - x0) / dx);
    const h = Math.ceil((side - y0) / dy);
    if (w > 0 && h > 0) raw += h * (1 + w * 2);
  }
  return Buffer.concat([
    PNG_SIGNATURE,
    ihdr(side, side, 16, 0, 1),
    pngChunk("IDAT", deflateSync(Buffer.alloc(raw), { level: 1 })),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

let jpg: Buffer | undefined;
/** 2,400² pixels: jpeg-js decodes it synchronously for a few hundred ms. */
const bigJpeg = () =>
  (jpg ??= Buffer.from(jpeg.encode({ data: Buffer.alloc(2400 * 2400 * 4, 90), width: 2400, height: 2400 }, 50).data));

const small = () => encodePng(40, 20, new Uint8Array(40 * 20 * 4).fill(180));

test("a large decode runs off the main thread: the event loop keeps turning throughout (PNG and the synchronous JPEG decoder)", async () => {
  assert.ok((await renderImage(small(), { width: 20 })).ok, "warm-up draw");
  for (const img of [slowPng(5000), bigJpeg()]) {
    // The main thread's event-loop utilization over the draw: a decode holding the main thread
    // keeps it busy for (nearly) the whole draw (≈ 1); one in the worker leaves it waiting in the
    // poll phase (≈ 0). Time the CPU spends on other processes counts as neither, so a loaded
    // machine does not move it; timer gaps did (a 46 ms decode failed on one 30 ms pause).
    const before = performance.eventLoopUtilization();
    const started = performance.now();
    const r = await renderImage(img, { width: 60, height: 20, deadlineMs: 60_000 });
    const took = performance.now() - started;
    const { utilization } = performance.eventLoopUtilization(before);
    assert.ok(r.ok, r.ok ? "" : r.reason);
    const what = `${r.ok ? r.size.format : ""} decode of ${took.toFixed(0)} ms: event loop ${(utilization * 100).toFixed(0)}% busy`;
    assert.ok(utilization < 0.5, what);
  }
});

test("a decode past its deadline is stopped with one line, and the next image still draws", async () => {
  const r = await renderImage(bigJpeg(), { width: 60, height: 20, deadlineMs: 30 });
  assert.equal(r.ok, false);
  assert.match((r as { reason: string }).reason, /^image could not be decoded: decoding took longer than 30 ms$/);
  const next = await renderImage(small(), { width: 20 });
  assert.ok(next.ok, next.ok ? "" : next.reason);
});

test("the decoders obey the one header reader: untrustworthy or oversized headers are refused before decoding", async () => {
  const two = await renderImage(doubleIhdrPng(2000), { width: 40 });
  assert.deepEqual(two, {
    ok: false,
    reason: "image refused: PNG has two IHDR chunks (two sizes: which one would be decoded?)",
  });
  const gif = encodeGif({
    screen: [16, 16],
    frame: { left: 0, top: 0, width: 20000, height: 20000, index: () => 1 },
    palette: [
      [0, 0, 0],
      [9, 9, 9],
      [0, 0, 0],
      [0, 0, 0],
    ],
    pixels: 100,
  });
  assert.match(
    ((await renderImage(gif, { width: 40 })) as { reason: string }).reason,
    /header claims 20000×20000 \(400\.0 MP\), limit 40\.0 MP/,
  );
  const jpg = await renderImage(jpegBehindApp(400_000, { width: 40000, height: 30000 }), { width: 40 });
  assert.match((jpg as { reason: string }).reason, /header claims 40000×30000/);
  // The same JPEG with its true size behind the padding draws.
  const ok = await renderImage(jpegBehindApp(400_000), { width: 32 });
  assert.ok(ok.ok && ok.size.width === 64, ok.ok ? "" : ok.reason);
  // A GIF frame that carries fewer pixels than it claims still draws (missing pixels are transparent).
  const short = encodeGif({
    screen: [8, 8],
    frame: { left: 0, top: 0, width: 8, height: 8, index: (x) => 1 + (x % 3) },
    palette: [
      [0, 0, 0],
      [255, 0, 0],
      [0, 255, 0],
      [0, 0, 255],
    ],
    pixels: 20,
  });
  assert.ok((await renderImage(short, { width: 8 })).ok);
});
