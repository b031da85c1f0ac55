// Image renderings cached per content block and width. A finished turn is drawn once, inside
// <Static>, so its images must be rendered before the turn is finished: the session awaits
// `imagesSettled()` before moving a turn out of the live area.
import type { ImageContent } from "../protocol/index.js";
import { renderImage, type RenderedImage } from "./image.js";
import type { Graphics } from "./graphics/detect.js";

type Entry = { done?: RenderedImage; promise: Promise<RenderedImage> };
const cache = new WeakMap<object, Map<string, Entry>>();
const pending = new Set<Promise<unknown>>();
/** Who waits for a block's rendering that has not started yet (it starts when the block is drawn). */
const waiting = new WeakMap<object, (() => void)[]>();

export interface ImageFit {
  width: number;
  height?: number;
  maxPixels?: number;
  /** Also prepare a picture in the terminal's own protocol. */
  graphics?: Graphics;
}

function keyOf(fit: ImageFit): string {
  return `${fit.width}x${fit.height ?? ""}/${fit.maxPixels ?? ""}/${fit.graphics?.protocol ?? "blocks"}`;
}

/** Starts (once) the rendering of `block` at `fit`; returns the entry to read or await. */
export function imageEntry(block: ImageContent, fit: ImageFit): Entry {
  let byFit = cache.get(block);
  if (!byFit) cache.set(block, (byFit = new Map()));
  const key = keyOf(fit);
  let e = byFit.get(key);
  if (!e) {
    const promise = renderImage(Buffer.from(block.data, "base64"), fit).catch(
      (err: unknown): RenderedImage => ({ ok: false, reason: `image could not be rendered: ${String(err)}` }),
    );
    const entry: Entry = { promise };
    e = entry;
    byFit.set(key, entry);
    pending.add(promise);
    void promise.then((r) => {
      entry.done = r;
      pending.delete(promise);
      if (imageRendered(block)) {
        for (const wake of waiting.get(block) ?? []) wake();
        waiting.delete(block);
      }
    });
  }
  return e;
}

/** Whether an image rendering is under way. */
export function imagesPending(): boolean {
  return pending.size > 0;
}

/** Resolves when every image rendering started so far has finished. */
export async function imagesSettled(): Promise<void> {
  while (pending.size) await Promise.allSettled([...pending]);
}

/** True once every rendering of `block` started so far has finished (false if none has started). */
export function imageRendered(block: object): boolean {
  const byFit = cache.get(block);
  if (!byFit?.size) return false;
  for (const e of byFit.values()) if (!e.done) return false;
  return true;
}

/**
 * Resolves once `block` has been rendered — also when its rendering has not started yet because
 * the component that draws it has not been drawn: appending an item only schedules its drawing,
 * so `imagesSettled()` alone can return before the rendering starts. Bounded by `maxWaitMs`.
 */
export function whenRendered(block: object, maxWaitMs = 10_000): Promise<void> {
  if (imageRendered(block)) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, maxWaitMs);
    const list = waiting.get(block) ?? [];
    list.push(() => {
      clearTimeout(timer);
      resolve();
    });
    waiting.set(block, list);
  });
}
