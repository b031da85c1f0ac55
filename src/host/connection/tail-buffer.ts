// A bounded ring of the last text lines of a stream: a server flooding stderr (with or without
// newlines) costs at most MAX_LINES × MAX_LINE_CHARS characters.
const MAX_LINES = 20;
const MAX_LINE_CHARS = 500;

/** A line that states an error (`Error: Cannot find module …`, `ModuleNotFoundError: …`, `fatal: …`), not a stack frame. */
const ERROR_LINE = /^\s*(?:Uncaught\s+)?(?:[\w.$]*(?:Error|Exception)\b|error\b|fatal\b|panic\b)/i;
/** A line that explains nothing: a stack frame, bare punctuation or a caret, node's version banner. */
const NOISE_LINE = /^\s*(?:at\s|[{}[\]()^,;|]*$|Node\.js v\d)/;

/**
 * The stderr lines that explain a failure: the first error line of the process's run (a crash's
 * cause, which its stack and node's banner push out of the tail), then the last `n` lines that are
 * not noise. `Error: Cannot find module '/x.js'` rather than `requireStack: [] | } | Node.js v20`.
 */
export function explainingLines(lines: readonly string[], firstError: string | undefined, n = 3): string[] {
  const tail = lines
    .filter((l) => !NOISE_LINE.test(l))
    .slice(-n)
    .map((l) => l.trim());
  const cause = firstError?.trim();
  return cause !== undefined && !tail.includes(cause) ? [cause, ...tail] : tail;
}

function cutLine(line: string): string {
  return line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}… (${line.length} chars)` : line;
}

export class TailBuffer {
  private ring: string[] = [];
  private partial = "";
  /** The first error line since the last flush (kept even when the ring has dropped it). */
  private first: string | undefined;

  /** Appends raw text; complete lines enter the ring, an over-long partial line is cut. */
  write(text: string): void {
    const parts = (this.partial + text).split("\n");
    this.partial = parts.pop() ?? "";
    // Only the last MAX_LINES lines can survive: skip the rest without copying them, but not
    // the first error line among them (a crash's cause comes before its long stack).
    if (this.first === undefined && parts.length > MAX_LINES) {
      const cause = parts.slice(0, -MAX_LINES).find((l) => ERROR_LINE.test(l));
      if (cause !== undefined) this.first = cutLine(cause.replace(/\r$/, ""));
    }
    for (const line of parts.slice(-MAX_LINES)) this.push(line);
    if (this.partial.length > MAX_LINE_CHARS) {
      this.push(this.partial);
      this.partial = "";
    }
  }

  /** Ends a pending partial line and the run: a restarted process's first error line is its own. */
  flush(): void {
    if (this.partial.trim() !== "") this.push(this.partial);
    this.partial = "";
    this.first = undefined;
  }

  push(line: string): void {
    const clean = line.replace(/\r$/, "");
    if (clean.trim() === "") return;
    const kept = cutLine(clean);
    this.ring.push(kept);
    if (this.first === undefined && ERROR_LINE.test(clean)) this.first = kept;
    if (this.ring.length > MAX_LINES) this.ring.splice(0, this.ring.length - MAX_LINES);
  }

  lines(): string[] {
    return [...this.ring];
  }

  /** The first error line of this run, if one came. */
  firstError(): string | undefined {
    return this.first;
  }

  /** explainingLines of this buffer. */
  explaining(n = 3): string[] {
    return explainingLines(this.ring, this.first, n);
  }
}
