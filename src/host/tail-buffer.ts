// A bounded ring of the last text lines of a stream: a server flooding stderr (with or without
// newlines) costs at most MAX_LINES × MAX_LINE_CHARS characters.
const MAX_LINES = 20;
const MAX_LINE_CHARS = 500;

export class TailBuffer {
  private ring: string[] = [];
  private partial = "";

  /** Appends raw text; complete lines enter the ring, an over-long partial line is cut. */
  write(text: string): void {
    const parts = (this.partial + text).split("\n");
    this.partial = parts.pop() ?? "";
    // Only the last MAX_LINES lines can survive: skip the rest without copying them.
    for (const line of parts.slice(-MAX_LINES)) this.push(line);
    if (this.partial.length > MAX_LINE_CHARS) {
      this.push(this.partial);
      this.partial = "";
    }
  }

  /** Ends a pending partial line (e.g. when the process restarts). */
  flush(): void {
    if (this.partial.trim() !== "") this.push(this.partial);
    this.partial = "";
  }

  push(line: string): void {
    const clean = line.replace(/\r$/, "");
    if (clean.trim() === "") return;
    this.ring.push(clean.length > MAX_LINE_CHARS ? `${clean.slice(0, MAX_LINE_CHARS)}… (${clean.length} chars)` : clean);
    if (this.ring.length > MAX_LINES) this.ring.splice(0, this.ring.length - MAX_LINES);
  }

  lines(): string[] {
    return [...this.ring];
  }
}
