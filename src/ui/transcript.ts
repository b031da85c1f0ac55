// The app's transcript: every record of its store to the session file (host/transcript/file.ts),
// and every change of the model's context as a `context` record.
import { transcriptDir, TranscriptFile } from "../host/transcript/file.js";
import { TranscriptRecorder } from "../host/transcript/recorder.js";
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
  const recorder = TranscriptRecorder.open(
    (line, phase) =>
      // A stop is said after the record that failed has been handled (it happens inside store.record).
      phase === "off" ? store.notice(line, "error") : queueMicrotask(() => store.notice(line, "error")),
    { dir, open, goesOn: "session" },
  );
  if (!recorder.opened) return { detach: () => {} };
  const off = store.onRecord((r) => recorder.write(r));
  return {
    file: recorder.opened,
    detach: () => {
      off();
      recorder.close();
    },
  };
}

/** Writes every change of `conversation` to the store's transcript as a `context` record, from now on. */
export function recordContext(conversation: Conversation, store: SessionStore): () => void {
  return conversation.observe((c) => store.record(contextChangeRecord(c)));
}
