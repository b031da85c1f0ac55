// The one provider-neutral token estimate (the result budget, the fakes' context windows). It is
// meant to count at least what a provider's tokenizer does for ordinary text: ASCII at four
// characters a token, every other character a token of its own (CJK, emoji, escapes are dearer
// than four a token), images by the provider's own rule from their header's size.
import { readBase64ImageSize } from "../protocol/image-header.js";

/** Anthropic's rule: an image is scaled to fit 1568 px on its long edge and ≈1.15 MP, then w×h/750. */
export function anthropicImageTokens(width: number, height: number): number {
  let w = Math.max(1, width);
  let h = Math.max(1, height);
  const edge = Math.max(w, h);
  if (edge > 1568) {
    w = (w * 1568) / edge;
    h = (h * 1568) / edge;
  }
  const area = w * h;
  const maxArea = 1_150_000;
  const scale = area > maxArea ? maxArea / area : 1;
  return Math.ceil((area * scale) / 750);
}

/**
 * OpenAI's rule for an image at "high" detail (what a data URL gets by default): scaled to fit
 * 2048 × 2048, then its short side down to 768, then 85 tokens plus 170 per 512-pixel tile.
 */
export function openaiImageTokens(width: number, height: number): number {
  let w = Math.max(1, width);
  let h = Math.max(1, height);
  const fit = Math.min(1, 2048 / Math.max(w, h));
  w *= fit;
  h *= fit;
  const short = Math.min(w, h);
  if (short > 768) {
    w = (w * 768) / short;
    h = (h * 768) / short;
  }
  return 85 + 170 * Math.ceil(w / 512) * Math.ceil(h / 512);
}

/** What an image whose header cannot be read is counted as (the largest the rule above gives). */
export const UNKNOWN_IMAGE_TOKENS = 1600;

export function estimateTextTokens(text: string): number {
  let other = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) other++;
  return Math.ceil((text.length - other) / 4) + other;
}

/** An image's tokens by `rule` (the provider's; Anthropic's when none), from its base64 header. */
export function estimateImageTokens(
  data: string,
  rule: (width: number, height: number) => number = anthropicImageTokens,
): number {
  const size = readBase64ImageSize(data);
  return size ? rule(size.width, size.height) : UNKNOWN_IMAGE_TOKENS;
}

/** How many characters of text fit `tokens` by estimateTextTokens, from `start` (at least one). */
export function charsWithin(text: string, tokens: number, start = 0): number {
  let used = 0;
  let ascii = 0;
  let i = start;
  for (; i < text.length; i++) {
    if (text.charCodeAt(i) > 0x7f) used++;
    else if (ascii++ % 4 === 0) used++;
    if (used > tokens) break;
  }
  // Never end between the two halves of a surrogate pair.
  if (i > start + 1 && i < text.length && /[\ud800-\udbff]/.test(text[i - 1])) i--;
  return Math.max(1, i - start);
}
