// The session transcript on disk: one JSON Lines file per session under
// $XDG_STATE_HOME/mcp-prism/ (default ~/.local/state/mcp-prism/). Every record is written with one
// synchronous write as it happens, so the file is complete up to the last event even if the
// process is killed, and holds whole records only, even when the disk fills up.
import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  fstatSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  writeSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { stateDir } from "../config/paths.js";
import type { TranscriptRecord } from "./record.js";

/** `$XDG_STATE_HOME/mcp-prism`; a relative or empty XDG_STATE_HOME is ignored, as the spec says. */
export const transcriptDir = stateDir;

/** One record as one line; a value JSON cannot hold becomes a marker rather than a lost line. */
export function jsonLine(r: TranscriptRecord): string {
  try {
    return JSON.stringify(r, (_k, v) => (typeof v === "bigint" ? v.toString() : v)) + "\n";
  } catch (e) {
    return JSON.stringify({ kind: r.kind, at: r.at, unserializable: (e as Error).message }) + "\n";
  }
}

/** One line naming a write or open failure by what it means for the user. */
export function fsProblem(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  const what: Record<string, string> = {
    ENOSPC: "the disk is full",
    EDQUOT: "the disk quota is used up",
    EFBIG: "the file size limit was reached",
    EROFS: "it is on a read-only file system",
    EACCES: "permission denied",
    EPERM: "permission denied",
    ENOTDIR: "a part of the path is not a directory",
    EIO: "an I/O error",
  };
  return code && what[code] ? `${what[code]} (${code})` : (e as Error).message;
}

/**
 * Why `dir` cannot be written, from its nearest existing folder: a recursive mkdir on a read-only
 * file system reports ENOENT, not EROFS.
 */
export function unwritable(dir: string): NodeJS.ErrnoException | undefined {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(d)) {
      try {
        accessSync(d, constants.W_OK);
        return undefined;
      } catch (e) {
        return e as NodeJS.ErrnoException;
      }
    }
    if (dirname(d) === d) return undefined;
  }
}

/**
 * The session's JSON Lines file. Each record is one write of the whole line; a write that fails
 * or is short (a full disk, a file size limit) is cut back to the last whole record, so the file
 * never ends mid-object, and throws (the caller stops the transcript and says so).
 */
export class TranscriptFile {
  private fd: number | undefined;
  /** Bytes of whole records in the file: where a failed write is cut back to. */
  private size: number;

  /** A new session file in `dir` (created 0700), mode 0600. */
  static create(dir: string, now = new Date()): TranscriptFile {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stamp = now.toISOString().replace(/[:.]/g, "-");
    const path = join(dir, `session-${stamp}-${process.pid}.jsonl`);
    return new TranscriptFile(path, openSync(path, "a", 0o600));
  }

  /** An earlier session's file, appended to (a resumed session goes on in its own file). */
  static reopen(path: string): TranscriptFile {
    return new TranscriptFile(path, openSync(path, "a", 0o600));
  }

  /** Over any open file descriptor (tests hand it /dev/full). */
  constructor(
    readonly path: string,
    fd: number,
  ) {
    this.fd = fd;
    this.size = fstatSync(fd).size;
  }

  write(r: TranscriptRecord): void {
    if (this.fd === undefined) return;
    const line = Buffer.from(jsonLine(r), "utf8");
    let done = 0;
    try {
      // One write in the normal case; the loop only finishes a short one (the next write then
      // fails with ENOSPC/EFBIG, or completes the line).
      while (done < line.length) {
        const n = writeSync(this.fd, line, done, line.length - done);
        if (n <= 0) throw Object.assign(new Error("the write made no progress"), { code: "EIO" });
        done += n;
      }
    } catch (e) {
      this.cutBack();
      const partial = done > 0 ? `, ${done} of ${line.length} bytes of a record were written and removed` : "";
      throw new Error(`${fsProblem(e)}${partial}`);
    }
    this.size += done;
  }

  /** Truncates the file back to its last whole record (a device such as /dev/full cannot be truncated: nothing to undo there). */
  private cutBack(): void {
    try {
      if (this.fd !== undefined) ftruncateSync(this.fd, this.size);
    } catch {
      // EINVAL on a device; on a file the next record is not written anyway (the transcript stops)
    }
  }

  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }
}
