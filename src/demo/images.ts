// Server-drawn demo images: a sunrise gradient over water with a sun disc and its reflection,
// deterministic from the prompt and the image index. Even indexes are PNG, odd ones JPEG.
import jpeg from "jpeg-js";
import { encodePng } from "../protocol/png.js";

export interface DrawnImage {
  mimeType: "image/png" | "image/jpeg";
  data: Buffer;
  width: number;
  height: number;
}

/** FNV-1a 32-bit: a stable seed from the prompt. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h >>> 0;
}

const lerp = (a: number, b: number, t: number) => a + (b - a) * t;
const clamp = (v: number) => Math.max(0, Math.min(255, Math.round(v)));

export function drawSunrise(prompt: string, index: number, width: number, height: number): Uint8Array {
  const h = hash(`${prompt}#${index}`);
  const horizon = Math.round(height * (0.55 + ((h & 0xff) / 255) * 0.1));
  const sunX = width * (0.3 + (((h >>> 8) & 0xff) / 255) * 0.4);
  const sunR = Math.max(4, Math.round(height * (0.12 + (((h >>> 16) & 0xff) / 255) * 0.06)));
  const sunY = horizon - sunR * (0.2 + (index % 3) * 0.25);
  const warm = ((h >>> 24) & 0xff) / 255; // shifts the sky from rose to amber
  const px = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let r: number, g: number, b: number;
      if (y < horizon) {
        const t = y / horizon; // 0 top … 1 horizon
        r = lerp(20, lerp(250, 255, warm), t ** 1.6);
        g = lerp(30, lerp(120, 170, warm), t ** 1.4);
        b = lerp(90, lerp(110, 60, warm), t);
        const d = Math.hypot(x - sunX, y - sunY);
        const glow = Math.max(0, 1 - d / (sunR * 4));
        r += 60 * glow;
        g += 50 * glow;
        b += 10 * glow;
        if (d <= sunR) [r, g, b] = [255, 236, 170];
      } else {
        const t = (y - horizon) / Math.max(1, height - horizon); // 0 horizon … 1 bottom
        r = lerp(120, 10, t);
        g = lerp(90, 40, t);
        b = lerp(120, 80, t);
        // Reflection: a shimmering column under the sun.
        const band = Math.abs(x - sunX) < sunR * (1 - t * 0.5) && (y + (h & 3)) % 3 !== 0;
        if (band) [r, g, b] = [lerp(255, 180, t), lerp(210, 120, t), lerp(140, 90, t)];
      }
      const i = (y * width + x) * 4;
      px[i] = clamp(r);
      px[i + 1] = clamp(g);
      px[i + 2] = clamp(b);
      px[i + 3] = 255;
    }
  }
  return px;
}

export function renderImage(prompt: string, index: number, width: number, height: number): DrawnImage {
  const rgba = drawSunrise(prompt, index, width, height);
  if (index % 2 === 0) return { mimeType: "image/png", data: encodePng(width, height, rgba), width, height };
  const data = jpeg.encode({ data: Buffer.from(rgba), width, height }, 85).data;
  return { mimeType: "image/jpeg", data, width, height };
}
