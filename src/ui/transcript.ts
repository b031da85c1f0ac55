// The app's transcript: every record of its store to the session file (host/transcript/file.ts),
// and every change of the model's context as a `context` record.
import { fsProblem, transcriptDir, TranscriptFile, unwritable } from "../host/transcript/file.js";
import type { SessionStore } from "./state.js";
import type { Conversation } from "../model/conversation.js";
import { contextChangeRecord } from "../model/context-record.js";

export { fsProblem, jsonLine, transcriptDir, TranscriptFile } from "../host/transcript/file.js";

/**
 * Opens the session file and writes every store record to it from now on. A file that cannot be
 * opened (a read-only or unwritable state directory) costs one error notice; one that stops
 * being writable (a full disk) costs one notice, the file keeps its whole records, and the
 * session goes on without it.
 */
export function attachTranscript(
  store: SessionStore,
  dir = transcriptDir(),
  open: (dir: string) => TranscriptFile = (d) => TranscriptFile.create(d),
): {
  file?: TranscriptFile;
  detach: () => void;
} {
  let file: TranscriptFile;
  try {
    file = open(dir);
  } catch (e) {
    store.notice(
      `transcript off: cannot write in the state directory ${dir}: ${fsProblem(unwritable(dir) ?? e)}; the session goes on without it`,
      "error",
    );
    return { detach: () => {} };
  }
  const f = file;
  let stopped: string | undefined;
  const off = store.onRecord((r) => {
    if (stopped !== undefined) return;
    try {
      f.write(r);
    } catch (e) {
      stopped = (e as Error).message;
      off();
      f.close();
      // Said after the record that failed has been handled (this runs inside store.record).
      queueMicrotask(() =>
        store.notice(
          `transcript stopped: ${f.path}: ${stopped}; it ends at the last whole record and the session goes on`,
          "error",
        ),
      );
    }
  });
  return {
    file,
    detach: () => {
      off();
      f.close();
    },
  };
}

/** Writes every change of `conversation` to the store's transcript as a `context` record, from now on. */
export function recordContext(conversation: Conversation, store: SessionStore): () => void {
  return conversation.observe((c) => store.record(contextChangeRecord(c) as { kind: string }));
}
