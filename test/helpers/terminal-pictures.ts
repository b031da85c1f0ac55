// What a terminal would draw from the bytes an app wrote: the kitty, iTerm2 and sixel picture
// sequences found and decoded back to pixels (PNG through pngjs, sixel by the decoder below),
// and kitty's Unicode placeholder cells read back to the rows and columns they name.
import { createRequire } from "node:module";
import { diacriticValue, KITTY_PLACEHOLDER } from "../../src/ui/graphics/markers.js";

export interface Pixels {
  width: number;
  height: number;
  /** RGBA; alpha 0 where nothing was drawn. */
  rgba: Uint8Array;
}

export function pixelAt(p: Pixels, x: number, y: number): [number, number, number, number] {
  const o = (y * p.width + x) * 4;
  return [p.rgba[o], p.rgba[o + 1], p.rgba[o + 2], p.rgba[o + 3]];
}

// pngjs (a devDependency, independent of the app's own decoder) ships no types: its one call, typed by hand.
const { PNG } = createRequire(import.meta.url)("pngjs") as {
  PNG: { sync: { read(b: Buffer): { width: number; height: number; data: Buffer } } };
};

function fromPng(bytes: Buffer): Pixels {
  const png = PNG.sync.read(bytes);
  return { width: png.width, height: png.height, rgba: new Uint8Array(png.data) };
}

/** kitty: every image transmitted (its chunks joined), with the virtual placements made for it. */
export function kittyImages(out: string): { id: number; pixels: Pixels; cols?: number; rows?: number }[] {
  const images = new Map<number, { data: string; cols?: number; rows?: number }>();
  let current: number | undefined;
  for (const m of out.matchAll(/\x1b_G([^;\x1b]*)(?:;([^\x1b]*))?\x1b\\/g)) {
    const keys = Object.fromEntries(m[1].split(",").map((kv) => kv.split("=") as [string, string]));
    if (keys.a === "t") {
      current = Number(keys.i);
      images.set(current, { data: m[2] ?? "" });
    } else if (keys.a === "p") {
      const img = images.get(Number(keys.i));
      if (img) Object.assign(img, { cols: Number(keys.c), rows: Number(keys.r) });
    } else if (keys.a === undefined && current !== undefined) {
      const img = images.get(current);
      if (img) img.data += m[2] ?? "";
    }
  }
  return [...images].map(([id, v]) => ({
    id,
    pixels: fromPng(Buffer.from(v.data, "base64")),
    cols: v.cols,
    rows: v.rows,
  }));
}

/** kitty placeholders: per row named, how many cells, for the image id their colour carries. */
export function kittyPlaceholderRows(out: string): { id: number; row: number; cells: number }[] {
  const rows: { id: number; row: number; cells: number }[] = [];
  const re = new RegExp(
    `\\x1b\\[38;2;(\\d+);(\\d+);(\\d+)m((?:${KITTY_PLACEHOLDER}[\\u0300-\\u08ff]*)+)\\x1b\\[39m`,
    "gu",
  );
  for (const m of out.matchAll(re)) {
    const id = (Number(m[1]) << 16) | (Number(m[2]) << 8) | Number(m[3]);
    const cells = [...m[4].matchAll(new RegExp(`${KITTY_PLACEHOLDER}([\\u0300-\\u08ff]*)`, "gu"))];
    const marks = [...cells[0][1]];
    rows.push({ id, row: diacriticValue(marks[0]), cells: cells.length });
    if (diacriticValue(marks[1]) !== 0) throw new Error("a placeholder row does not start at column 0");
  }
  return rows;
}

/** iTerm2: each inline file with its arguments, and how the cursor was moved around it. */
export function itermImages(out: string): { args: Record<string, string>; file: Buffer; pixels: Pixels; up: number }[] {
  const found = [];
  for (const m of out.matchAll(/\x1b7\x1b\[(\d+)A\x1b\]1337;File=([^:]*):([A-Za-z0-9+/=]*)\x07\x1b8/g)) {
    const args = Object.fromEntries(m[2].split(";").map((kv) => kv.split("=") as [string, string]));
    const file = Buffer.from(m[3], "base64");
    found.push({ args, file, pixels: fromPng(file), up: Number(m[1]) });
  }
  return found;
}

/** Sixel: each picture (with how far the cursor went up first), decoded as a terminal draws it. */
export function sixelImages(out: string): { pixels: Pixels; up: number }[] {
  return [...out.matchAll(/\x1b7\x1b\[(\d+)A(\x1bP[^\x1b]*\x1b\\)\x1b8/g)].map((m) => ({
    pixels: decodeSixel(m[2]),
    up: Number(m[1]),
  }));
}

/** A DECSIXEL decoder: raster attributes, colour registers (RGB %), `!` repeats, `$` and `-`. */
export function decodeSixel(seq: string): Pixels {
  const body = /^\x1bP[\d;]*q([\s\S]*)\x1b\\$/.exec(seq);
  if (!body) throw new Error("not a sixel sequence");
  let s = body[1];
  const raster = /^"(\d+);(\d+);(\d+);(\d+)/.exec(s);
  if (!raster) throw new Error("no raster attributes");
  s = s.slice(raster[0].length);
  const width = Number(raster[3]);
  const height = Number(raster[4]);
  const rgba = new Uint8Array(width * height * 4);
  const palette = new Map<number, [number, number, number]>();
  let colour: [number, number, number] = [0, 0, 0];
  let x = 0;
  let band = 0;
  const put = (bits: number, n: number) => {
    for (let k = 0; k < n; k++, x++)
      for (let b = 0; b < 6; b++) {
        const y = band * 6 + b;
        if (bits & (1 << b) && x < width && y < height) rgba.set([...colour, 255], (y * width + x) * 4);
      }
  };
  for (let i = 0; i < s.length; ) {
    const c = s[i];
    if (c === "#") {
      const m = /^#(\d+)(?:;2;(\d+);(\d+);(\d+))?/.exec(s.slice(i));
      if (!m) throw new Error(`bad colour at ${i}`);
      const reg = Number(m[1]);
      if (m[2] !== undefined)
        palette.set(
          reg,
          [m[2], m[3], m[4]].map((v) => Math.round((Number(v) * 255) / 100)) as [number, number, number],
        );
      colour = palette.get(reg) ?? [0, 0, 0];
      i += m[0].length;
    } else if (c === "!") {
      const m = /^!(\d+)(.)/.exec(s.slice(i));
      if (!m) throw new Error(`bad repeat at ${i}`);
      put(m[2].charCodeAt(0) - 63, Number(m[1]));
      i += m[0].length;
    } else if (c === "$") {
      x = 0;
      i++;
    } else if (c === "-") {
      x = 0;
      band++;
      i++;
    } else {
      put(c.charCodeAt(0) - 63, 1);
      i++;
    }
  }
  return { width, height, rgba };
}
