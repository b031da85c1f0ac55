// Figure 4b — the drawing guard for images. renderImage (header check, decode in the worker,
// box-sampled to 100×40 cells, half-block ANSI) on PNGs from 1 MP up to the 40 MP pixel limit,
// and on the formats that decode differently (16-bit interlaced PNG, GIF, JPEG). Two targets:
// the cost grows at most linearly with the pixel count, and the main thread's longest pause
// while an image is drawn stays bounded (the decode runs off it).
import { monitorEventLoopDelay } from "node:perf_hooks";
import jpeg from "jpeg-js";
import { encodePng } from "../src/protocol/png.js";
import { drawSunrise } from "../src/demo/images.js";
import { renderImage } from "../src/ui/image.js";
import { encodeGif, encodeRawPng } from "../test/fixtures/image-forge.js";
import { fmt, gc, int, median, ms, ratio, type BenchOptions, type Section, type Target } from "./lib/report.js";

const PAUSE_BUDGET_MS = 50;

/** Time and longest event-loop pause of each of `reps` draws of `img`. */
async function drawStats(img: Buffer, reps: number): Promise<{ times: number[]; pauses: number[] }> {
  const times: number[] = [];
  const pauses: number[] = [];
  // The bench's own garbage (the RGBA it drew the image from) is collected first, so a pause
  // below is the draw's, not the set-up's.
  gc();
  for (let i = 0; i < reps; i++) {
    const h = monitorEventLoopDelay({ resolution: 1 });
    h.enable();
    const t0 = performance.now();
    const r = await renderImage(img, { width: 100, height: 40, deadlineMs: 120_000 });
    times.push(performance.now() - t0);
    h.disable();
    pauses.push(h.max / 1e6);
    if (!r.ok) throw new Error(r.reason);
  }
  return { times, pauses };
}

/** The longest event-loop pause of an idle main thread over `ms` (the machine's own noise floor). */
async function idlePause(ms: number): Promise<number> {
  const h = monitorEventLoopDelay({ resolution: 1 });
  h.enable();
  await new Promise((r) => setTimeout(r, ms));
  h.disable();
  return h.max / 1e6;
}

export async function imagesBench({ quick, log }: BenchOptions): Promise<Section> {
  const reps = quick ? 3 : 7;
  const formatReps = quick ? 2 : 3;
  log("images: idle baseline");
  const idle = Math.max(await idlePause(1000), await idlePause(1000), await idlePause(1000));
  // Warm the worker and the JIT.
  await drawStats(encodePng(64, 64, drawSunrise("warm", 0, 64, 64)), 3);
  const sides = [1000, 2000, 4000, 6320]; // 1 MP … 39.9 MP (the default limit is 40 MP)
  const scaling: { side: number; bytes: number; t: number; pause: number }[] = [];
  for (const side of sides) {
    log(`images: PNG ${side}×${side}`);
    const png = encodePng(side, side, drawSunrise("bench", 0, side, side));
    const { times, pauses } = await drawStats(png, reps);
    scaling.push({ side, bytes: png.length, t: median(times), pause: Math.max(...pauses) });
  }
  const formats: { name: string; bytes: number; t: number; pause: number }[] = [];
  const s16 = 2000;
  const cases: [string, () => Buffer][] = [
    [
      `16-bit RGBA Adam7-interlaced PNG ${s16}×${s16}`,
      () =>
        encodeRawPng({
          width: s16,
          height: s16,
          depth: 16,
          colour: 6,
          interlace: 1,
          sample: (x, y, c) => (c === 3 ? 65535 : (x * 31 + y * 17 + c * 4099) & 65535),
        }),
    ],
    [
      "2-bit palette PNG 4000×4000",
      () =>
        encodeRawPng({
          width: 4000,
          height: 4000,
          depth: 2,
          colour: 3,
          palette: Buffer.from([0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255]),
          sample: (x, y) => ((x >> 6) + (y >> 6)) % 4,
        }),
    ],
    [
      "GIF 2000×2000",
      () =>
        encodeGif({
          screen: [2000, 2000],
          frame: { left: 0, top: 0, width: 2000, height: 2000, index: (x, y) => ((x >> 5) ^ (y >> 5)) & 3 },
          palette: [
            [0, 0, 0],
            [255, 0, 0],
            [0, 255, 0],
            [0, 0, 255],
          ],
        }),
    ],
    [
      "JPEG 3000×3000 (decoded synchronously by jpeg-js, in the worker)",
      () =>
        Buffer.from(
          jpeg.encode({ data: Buffer.from(drawSunrise("bench", 1, 3000, 3000)), width: 3000, height: 3000 }, 80).data,
        ),
    ],
  ];
  for (const [name, make] of cases) {
    log(`images: ${name}`);
    const img = make();
    const { times, pauses } = await drawStats(img, formatReps);
    formats.push({ name, bytes: img.length, t: median(times), pause: Math.max(...pauses) });
  }

  const small = scaling[0];
  const large = scaling[scaling.length - 1];
  const pixelRatio = (large.side * large.side) / (small.side * small.side);
  const timeRatio = large.t / small.t;
  const worstPause = [...scaling, ...formats].reduce((a, b) => (b.pause > a.pause ? b : a));
  const targets: Target[] = [
    {
      name: "Image drawing grows at most linearly with the pixel count",
      target: `${int(large.side)}² vs ${int(small.side)}² PNG (${fmt(pixelRatio, 1)}× the pixels) ≤ ${fmt(pixelRatio, 1)}× the time`,
      figure: `${ratio(timeRatio)} (${ms(large.t)} vs ${ms(small.t)}); per megapixel ${ms(small.t / ((small.side * small.side) / 1e6))} vs ${ms(large.t / ((large.side * large.side) / 1e6))}`,
      met: timeRatio <= pixelRatio,
    },
    {
      name: "The main thread stays responsive while an image is drawn",
      target: `longest event-loop pause during any draw ≤ ${PAUSE_BUDGET_MS} ms, or ≤ 2× the idle loop's own longest pause on a loaded machine`,
      figure: `longest ${ms(worstPause.pause)} (${"side" in worstPause ? `PNG ${int(worstPause.side)}²` : worstPause.name}); idle loop, 3 × 1 s measured first: ${ms(idle)}; the slowest draw took ${ms(Math.max(...formats.map((f) => f.t), large.t))} (on the main thread it would have been one pause that long)`,
      met: worstPause.pause <= Math.max(PAUSE_BUDGET_MS, 2 * idle),
    },
  ];
  return {
    id: "images",
    title: "4b. Drawing images: linear in pixels, never blocking",
    intro: [
      `Each figure is \`renderImage\` fitted to 100×40 cells with the decode in the drawing worker (\`src/ui/image-pool.ts\`), after three warm-up draws; ${reps} draws each (${formatReps} for the other decoders), median time, and the longest event-loop pause of the main thread over all the draws (\`monitorEventLoopDelay\`, 1 ms resolution). PNGs are the demo's sunrise; the 6,320² one is just under the default 40 MP limit.`,
    ],
    tables: [
      {
        caption: "PNG size scaling (8-bit RGB)",
        head: ["image", "file", "median draw", "per megapixel", "longest main-thread pause"],
        rows: scaling.map((r) => [
          `${int(r.side)}×${int(r.side)} (${fmt((r.side * r.side) / 1e6, 1)} MP)`,
          `${fmt(r.bytes / 2 ** 20, 1)} MB`,
          ms(r.t),
          ms(r.t / ((r.side * r.side) / 1e6)),
          ms(r.pause),
        ]),
      },
      {
        caption: "Other decoders",
        head: ["image", "file", "median draw", "longest main-thread pause"],
        rows: formats.map((r) => [r.name, `${fmt(r.bytes / 2 ** 20, 1)} MB`, ms(r.t), ms(r.pause)]),
      },
    ],
    targets,
    notes: [],
  };
}
