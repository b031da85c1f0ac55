// The CLI's only way to write to stdout and stderr. Human text passes through the one terminal
// sanitizer as a whole, so no server-controlled string (a start-up error's stderr tail, an error
// message, a version string) reaches the terminal raw, whichever path built the line; text that
// was sanitized already comes out unchanged. JSON documents are written with every control
// escaped. test/architecture.test.ts keeps other writes out of src/cli.
import { sanitizeText } from "../../protocol/sanitize.js";
import { terminalSafeJson } from "./json.js";
import { wrapText } from "../../ui/format.js";

/**
 * Human text word-wrapped to a terminal's width (ui/format.ts wrapText: no row starts with a
 * space, continuation rows indented under their column); unchanged when `columns` is unknown
 * (a pipe or a file: what is written there is for programs, and --json never comes here).
 */
export function fitToTerminal(text: string, columns: number | undefined): string {
  if (!columns || columns < 20) return text;
  return wrapText(text, columns).join("\n");
}

function humanText(text: string, stream: NodeJS.WriteStream): string {
  return fitToTerminal(sanitizeText(text), stream.isTTY ? stream.columns : undefined);
}

/** Human text on stdout. */
export function out(text: string): void {
  process.stdout.write(humanText(text, process.stdout));
}

/** Human text on stderr. */
export function err(text: string): void {
  process.stderr.write(humanText(text, process.stderr));
}

/** A status line on a terminal's stderr, redrawn in place (the text sanitized; only the redraw codes are ours). */
export function errStatus(text: string): void {
  process.stderr.write(`\r\x1b[2K${sanitizeText(text).replace(/\n/g, " ")}`);
}

/** One JSON document (one line) on stdout. */
export function outJson(value: unknown): void {
  process.stdout.write(terminalSafeJson(value) + "\n");
}
