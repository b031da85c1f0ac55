// Keyboard input with bracketed paste. Ink 6.8 has no paste support: its input parser hands each
// escape sequence and each text run to useInput separately, so a paste arrives as
// `ESC[200~`, the text (possibly in several pieces) and `ESC[201~`. One tracker per Ink instance
// listens FIRST on Ink's input emitter (prependListener), collects everything between the markers
// into one paste, and marks those events so the key handlers below ignore them.
import { useEffect, useRef } from "react";
import type { EventEmitter } from "node:events";
import { useInput, useStdin, type Key } from "ink";

export const PASTE_START = "\x1b[200~";
export const PASTE_END = "\x1b[201~";

export class PasteTracker {
  /** True while the event being dispatched belongs to a paste (markers included). */
  swallow = false;
  private inPaste = false;
  private buffer = "";
  private readonly listeners = new Set<(text: string) => void>();

  onInput = (data: string): void => {
    if (data === PASTE_START) {
      this.inPaste = true;
      this.buffer = "";
      this.swallow = true;
    } else if (data === PASTE_END) {
      this.swallow = true;
      if (!this.inPaste) return;
      this.inPaste = false;
      const text = this.buffer;
      this.buffer = "";
      for (const fn of this.listeners) fn(text);
    } else if (this.inPaste) {
      this.buffer += data;
      this.swallow = true;
    } else this.swallow = false;
  };

  subscribe(fn: (text: string) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }
}

const trackers = new WeakMap<EventEmitter, PasteTracker>();
export function pasteTrackerFor(emitter: EventEmitter): PasteTracker {
  let t = trackers.get(emitter);
  if (!t) {
    t = new PasteTracker();
    trackers.set(emitter, t);
    emitter.prependListener("input", t.onInput);
  }
  return t;
}

export interface UseKeysOptions {
  isActive?: boolean;
  /** A bracketed paste, whole, with its newlines. */
  onPaste?: (text: string) => void;
}

/** Like Ink's useInput, but paste markers and pasted text never reach `handler`. */
export function useKeys(handler: (input: string, key: Key) => void, opts: UseKeysOptions = {}): void {
  const { internal_eventEmitter } = useStdin();
  const tracker = pasteTrackerFor(internal_eventEmitter);
  const pasteRef = useRef(opts.onPaste);
  pasteRef.current = opts.onPaste;
  const active = opts.isActive !== false;
  const wantsPaste = opts.onPaste !== undefined;
  useInput(
    (input, key) => {
      if (!tracker.swallow) handler(input, key);
    },
    { isActive: active },
  );
  useEffect(() => {
    if (!active || !wantsPaste) return;
    return tracker.subscribe((t) => pasteRef.current?.(t));
  }, [tracker, active, wantsPaste]);
}
