// A one-shot command's reader may stop reading early (`mcp-prism tools | head -1`). Node ignores
// SIGPIPE, so the next write fails with EPIPE as an 'error' event on the stream, which, unhandled,
// kills the process with a stack trace. The reader has what it wanted: exit at once, status 0,
// nothing printed ('exit' still stops every server's process group: process-group.ts).
const CLOSED = new Set(["EPIPE", "ERR_STREAM_DESTROYED"]);

/** Installs the quiet exit on stdout and stderr (for every command except the chat app and demo-server). */
export function exitQuietlyWhenOutputCloses(streams: NodeJS.WriteStream[] = [process.stdout, process.stderr]): void {
  for (const stream of streams) {
    stream.on("error", (e: NodeJS.ErrnoException) => {
      if (e && CLOSED.has(e.code ?? "")) process.exit(0);
      throw e; // anything else stays what it was: an uncaught error
    });
  }
}
