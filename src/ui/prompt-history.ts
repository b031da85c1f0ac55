// The prompt line's history across runs: $XDG_STATE_HOME/mcp-prism/history.jsonl, one JSON
// string a line (a multi-line prompt stays one entry), mode 0600. Bounded: the newest
// MAX_ENTRIES entries of at most MAX_ENTRY_CHARS each are kept (a longer one is not saved), and
// the file is rewritten to those when it has grown to twice that. What is not a JSON string
// (a damaged line) is skipped. A file that cannot be read or written costs the history, never the app.
import {
  appendFileSync,
  chmodSync,
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";

export const MAX_ENTRIES = 1000;
export const MAX_ENTRY_CHARS = 8192;
/** The tail of the file read at start (older entries are past MAX_ENTRIES anyway). */
const MAX_READ_BYTES = 4 * MAX_ENTRIES * (MAX_ENTRY_CHARS + 16);

export const historyPath = (dir: string): string => join(dir, "history.jsonl");

export class PromptHistory {
  /** Lines in the file (what decides when it is compacted). */
  private lines = 0;
  private failed = false;

  private constructor(
    readonly path: string,
    readonly entries: string[],
  ) {}

  /** The history saved in `dir` (none when there is no file or it cannot be read). */
  static load(dir: string): PromptHistory {
    const path = historyPath(dir);
    const h = new PromptHistory(path, []);
    let text = "";
    try {
      const fd = openSync(path, "r");
      try {
        const size = fstatSync(fd).size;
        const len = Math.min(size, MAX_READ_BYTES);
        const buf = Buffer.alloc(len);
        readSync(fd, buf, 0, len, size - len);
        text = buf.toString("utf8");
        if (len < size) text = text.slice(text.indexOf("\n") + 1); // the first line may be cut
      } finally {
        closeSync(fd);
      }
    } catch {
      return h;
    }
    for (const line of text.split("\n")) {
      if (!line) continue;
      h.lines++;
      try {
        const v: unknown = JSON.parse(line);
        if (typeof v === "string" && v.length <= MAX_ENTRY_CHARS && v.trim() && h.entries.at(-1) !== v)
          h.entries.push(v);
      } catch {
        // a damaged line: skipped
      }
    }
    h.entries.splice(0, Math.max(0, h.entries.length - MAX_ENTRIES));
    return h;
  }

  /** Adds a submitted line (the same as the last one is not repeated) and saves it. */
  add(line: string): void {
    if (!line.trim() || this.entries.at(-1) === line) return;
    this.entries.push(line);
    if (this.entries.length > MAX_ENTRIES) this.entries.splice(0, this.entries.length - MAX_ENTRIES);
    if (line.length > MAX_ENTRY_CHARS || this.failed) return;
    try {
      mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
      if (++this.lines > 2 * MAX_ENTRIES) this.compact();
      else appendFileSync(this.path, JSON.stringify(line) + "\n", { mode: 0o600 });
      chmodSync(this.path, 0o600);
    } catch {
      this.failed = true; // a read-only state directory: the history lives for this run only
    }
  }

  /** Rewrites the file to the newest entries (a new file renamed over the old, so a crash loses nothing). */
  private compact(): void {
    const kept = this.entries.filter((e) => e.length <= MAX_ENTRY_CHARS);
    const tmp = `${this.path}.${process.pid}.tmp`;
    writeFileSync(tmp, kept.map((e) => JSON.stringify(e) + "\n").join(""), { mode: 0o600 });
    renameSync(tmp, this.path);
    this.lines = kept.length;
  }
}
