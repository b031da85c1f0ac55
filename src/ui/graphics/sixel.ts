// Sixel: a bitmap as a DECSIXEL string. Colours are quantised to a fixed 6×6×6 cube (216
// registers, which every sixel terminal has), only the registers a picture uses are defined, and
// transparent pixels are left undrawn (P2=1), so the terminal's background shows through.
import type { Bitmap } from "../image-sample.js";

const LEVELS = 6;

/** The cube register of a colour: each channel to the nearest of six levels. */
function register(r: number, g: number, b: number): number {
  const q = (v: number) => Math.round((v * (LEVELS - 1)) / 255);
  return q(r) * LEVELS * LEVELS + q(g) * LEVELS + q(b);
}

/** A register's colour in sixel's percent RGB. */
function percent(reg: number): string {
  const p = (level: number) => Math.round((level * 100) / (LEVELS - 1));
  return `${p(Math.floor(reg / (LEVELS * LEVELS)))};${p(Math.floor(reg / LEVELS) % LEVELS)};${p(reg % LEVELS)}`;
}

/** One sixel character, repeated `n` times (run-length coded from four on). */
function run(char: string, n: number): string {
  return n > 3 ? `!${n}${char}` : char.repeat(n);
}

/** DCS … ST for `bitmap`, drawn 1:1 (one image pixel a screen pixel). */
export function encodeSixel({ width, height, rgba }: Bitmap): string {
  const regs = new Int16Array(width * height);
  const used = new Set<number>();
  for (let i = 0; i < width * height; i++) {
    const o = i * 4;
    if (rgba[o + 3] < 128) regs[i] = -1;
    else {
      regs[i] = register(rgba[o], rgba[o + 1], rgba[o + 2]);
      used.add(regs[i]);
    }
  }
  const parts: string[] = [`\x1bP0;1;0q"1;1;${width};${height}`];
  for (const reg of [...used].sort((a, b) => a - b)) parts.push(`#${reg};2;${percent(reg)}`);
  const bits = new Uint8Array(width);
  for (let top = 0; top < height; top += 6) {
    const rows = Math.min(6, height - top);
    const inBand = new Set<number>();
    for (let y = 0; y < rows; y++)
      for (let x = 0; x < width; x++) {
        const reg = regs[(top + y) * width + x];
        if (reg >= 0) inBand.add(reg);
      }
    const lines: string[] = [];
    for (const reg of inBand) {
      bits.fill(0);
      for (let y = 0; y < rows; y++)
        for (let x = 0; x < width; x++) if (regs[(top + y) * width + x] === reg) bits[x] |= 1 << y;
      let line = `#${reg}`;
      let x = 0;
      while (x < width) {
        let n = 1;
        while (x + n < width && bits[x + n] === bits[x]) n++;
        line += run(String.fromCharCode(63 + bits[x]), n);
        x += n;
      }
      lines.push(line);
    }
    // `$` returns to the band's start for the next colour; `-` moves to the next band.
    parts.push(lines.join("$"));
    if (top + 6 < height) parts.push("-");
  }
  parts.push("\x1b\\");
  return parts.join("");
}
