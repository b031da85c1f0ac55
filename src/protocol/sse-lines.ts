// SSE line splitting per the WHATWG event-stream grammar: a line ends with CRLF, LF or a lone CR.
// A CR last in the text may be the first half of a CRLF split across chunks, so it waits for more
// unless the stream has ended. Pure; shared by the modern HTTP transport and the legacy guard.

/** The complete lines at the start of `text` and what is left for the next chunk. */
export function splitSseLines(text: string, final: boolean): { lines: string[]; rest: string } {
  const lines: string[] = [];
  let from = 0;
  for (;;) {
    const cr = text.indexOf("\r", from);
    const lf = text.indexOf("\n", from);
    const end = cr === -1 ? lf : lf === -1 ? cr : Math.min(cr, lf);
    if (end === -1) break;
    if (end === cr && end === text.length - 1 && !final) break;
    lines.push(text.slice(from, end));
    from = end === cr && text[end + 1] === "\n" ? end + 2 : end + 1;
  }
  return { lines, rest: from === 0 ? text : text.slice(from) };
}

/** A field line's name and value ("data: x" → ["data", "x"]; "data" → ["data", ""]); undefined for a comment. */
export function sseField(line: string): [string, string] | undefined {
  if (line.startsWith(":")) return undefined;
  const colon = line.indexOf(":");
  if (colon === -1) return [line, ""];
  const value = line.slice(colon + 1);
  return [line.slice(0, colon), value.startsWith(" ") ? value.slice(1) : value];
}
