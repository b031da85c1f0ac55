// The session transcript on disk: one JSON Lines file per session under
// $XDG_STATE_HOME/mcp-prism/ (default ~/.local/state/mcp-prism/). Every store record is written
// with one synchronous write as it happens, so the file is complete up to the last event even if
// the app is killed.
import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";
import type { SessionStore, TranscriptRecord } from "./state.js";

/** `$XDG_STATE_HOME/mcp-prism`; a relative or empty XDG_STATE_HOME is ignored, as the spec says. */
export function transcriptDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_STATE_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : join(homedir(), ".local", "state");
  return join(base, "mcp-prism");
}

/** One record as one line; a value JSON cannot hold becomes a marker rather than a lost line. */
export function jsonLine(r: TranscriptRecord): string {
  try {
    return JSON.stringify(r, (_k, v) => (typeof v === "bigint" ? v.toString() : v)) + "\n";
  } catch (e) {
    return JSON.stringify({ kind: r.kind, at: r.at, unserializable: (e as Error).message }) + "\n";
  }
}

export class TranscriptFile {
  readonly path: string;
  private fd: number | undefined;

  constructor(dir: string, now = new Date()) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stamp = now.toISOString().replace(/[:.]/g, "-");
    this.path = join(dir, `session-${stamp}-${process.pid}.jsonl`);
    this.fd = openSync(this.path, "a", 0o600);
  }

  write(r: TranscriptRecord): void {
    if (this.fd === undefined) return;
    writeSync(this.fd, jsonLine(r));
  }

  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }
}

/**
 * Opens the session file and writes every store record to it from now on. A file that cannot be
 * opened or written costs one error notice; the session goes on without it.
 */
export function attachTranscript(store: SessionStore, dir = transcriptDir()): { file?: TranscriptFile; detach: () => void } {
  let file: TranscriptFile | undefined;
  try {
    file = new TranscriptFile(dir);
  } catch (e) {
    store.notice(`transcript off: cannot write in ${dir}: ${(e as Error).message}`, "error");
    return { detach: () => {} };
  }
  const f = file;
  const off = store.onRecord((r) => {
    try {
      f.write(r);
    } catch (e) {
      off();
      f.close();
      store.notice(`transcript stopped: ${(e as Error).message}`, "error");
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
