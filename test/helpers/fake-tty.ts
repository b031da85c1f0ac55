// A fake terminal for Ink: what the UI tests (test/ui/harness.ts) and the benches
// (bench/long-session.ts, bench/floods.ts) render into and type on.
import { EventEmitter } from "node:events";

export interface FakeStdoutOptions {
  columns?: number;
  rows?: number;
  /** Ink treats a TTY as a terminal (synchronized output, full-screen redraws); the tests' frames are a plain stream's. */
  isTTY?: boolean;
  /** Keep every frame (tests read them); a bench that only counts leaves this off. */
  keepFrames?: boolean;
}

/** Ink's stdout: records the frames it writes, counts writes and bytes, and resizes on demand. */
export class FakeStdout extends EventEmitter {
  columns: number;
  rows: number;
  readonly isTTY: boolean;
  frames: string[] = [];
  last = "";
  writes = 0;
  bytes = 0;
  /** Called after each write (a bench waits on it for the next frame). */
  onWrite: (() => void) | undefined;
  private readonly keepFrames: boolean;
  constructor(o: FakeStdoutOptions = {}) {
    super();
    this.columns = o.columns ?? 100;
    this.rows = o.rows ?? 40;
    this.isTTY = o.isTTY ?? false;
    this.keepFrames = o.keepFrames ?? true;
  }
  write = (frame: string) => {
    this.last = frame;
    this.writes++;
    this.bytes += frame.length;
    if (this.keepFrames) this.frames.push(frame);
    this.onWrite?.();
    return true;
  };
  lastFrame = () => this.last;
  resize(columns: number, rows?: number): void {
    this.columns = columns;
    if (rows) this.rows = rows;
    this.emit("resize");
  }
}

/** Ink's stdin in raw mode: `write` (or `type`) delivers one chunk as a key press or a paste. */
export class FakeStdin extends EventEmitter {
  isTTY = true;
  data: string | null = null;
  write = (data: string) => {
    this.data = data;
    this.emit("readable");
    this.emit("data", data);
  };
  type = this.write;
  setEncoding() {}
  setRawMode() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
  read = () => {
    const d = this.data;
    this.data = null;
    return d;
  };
}
