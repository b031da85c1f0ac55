// Reading a session transcript back (transcript.ts writes it): line by line, in bounded chunks,
// trusting nothing. A line that is not JSON, is too long, or is not a record is refused with one
// line naming it, and every valid record is kept.
import { closeSync, openSync, readSync } from "node:fs";
import { isObject } from "../protocol/is-object.js";
import type { TranscriptRecord } from "../host/transcript/record.js";

export interface ReadLimits {
  /** Longer lines are refused unread (the writer bounds a context record well below this). */
  maxLineBytes: number;
  /** Reading stops here, with one line saying so. */
  maxFileBytes: number;
}
export const READ_LIMITS: ReadLimits = { maxLineBytes: 16 * 1024 * 1024, maxFileBytes: 512 * 1024 * 1024 };
/** Refusals kept word for word; the rest are counted. */
const MAX_REFUSALS_SHOWN = 10;

export interface ReadResult {
  /** One line per refused line (at most MAX_REFUSALS_SHOWN, then one line counting the rest). */
  refused: string[];
  /** Number of valid records. */
  records: number;
}

/** A line as a record, or why it is not one. */
function parseLine(text: string): TranscriptRecord | string {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return `not JSON (${(e as Error).message.split("\n")[0].slice(0, 80)})`;
  }
  if (!isObject(v) || typeof v.kind !== "string" || typeof v.at !== "string")
    return "not a transcript record (it needs a kind and an at)";
  return v as TranscriptRecord;
}

/** Calls `onRecord` with each valid record of the file at `path`, in order; throws only when the file cannot be opened. */
export function readTranscript(
  path: string,
  onRecord: (r: TranscriptRecord, line: number) => void,
  limits: ReadLimits = READ_LIMITS,
): ReadResult {
  const fd = openSync(path, "r");
  const refused: string[] = [];
  let refusedCount = 0;
  let records = 0;
  const refuse = (line: number, why: string) => {
    if (++refusedCount <= MAX_REFUSALS_SHOWN) refused.push(`line ${line}: ${why}; skipped`);
  };
  const chunk = Buffer.alloc(1024 * 1024);
  let parts: Buffer[] = [];
  let partBytes = 0;
  let tooLong = false;
  let line = 1;
  let total = 0;
  const endLine = () => {
    if (tooLong) refuse(line, `longer than ${limits.maxLineBytes} bytes`);
    else if (partBytes > 0) {
      const text = Buffer.concat(parts, partBytes).toString("utf8");
      if (/\S/.test(text)) {
        const r = parseLine(text);
        if (typeof r === "string") refuse(line, r);
        else {
          records++;
          onRecord(r, line);
        }
      }
    }
    parts = [];
    partBytes = 0;
    tooLong = false;
    line++;
  };
  try {
    for (;;) {
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n <= 0) break;
      let start = 0;
      for (let nl = chunk.indexOf(10, start); nl >= 0 && nl < n; nl = chunk.indexOf(10, start)) {
        take(chunk.subarray(start, nl));
        endLine();
        start = nl + 1;
      }
      take(chunk.subarray(start, n));
      total += n;
      if (total >= limits.maxFileBytes) {
        refused.push(`the file is larger than ${limits.maxFileBytes} bytes: read up to there`);
        break;
      }
    }
    endLine();
  } finally {
    closeSync(fd);
  }
  if (refusedCount > MAX_REFUSALS_SHOWN) refused.push(`${refusedCount - MAX_REFUSALS_SHOWN} more lines skipped`);
  return { refused, records };

  function take(b: Buffer): void {
    if (tooLong || b.length === 0) return;
    if (partBytes + b.length > limits.maxLineBytes) {
      tooLong = true;
      parts = [];
      partBytes = 0;
      return;
    }
    parts.push(Buffer.from(b)); // a copy: the chunk buffer is reused
    partBytes += b.length;
  }
}
