// The transcript of a command without the app (-p, `call`, `run`): the same session file and
// records as the app's, written as things happen. It observes the call lifecycle (a `request`
// record when a call starts, a `tool` record with its routed outputs or error when it ends), and
// the command adds its own records (the session's start and end, the prompt, the reply). A file
// that cannot be opened, or stops being writable, costs one line through `problem`; the command
// goes on without it.
import type { CallObserver, CallStarted } from "../call/lifecycle.js";
import type { CallOutcome } from "../types.js";
import { fsProblem, TranscriptFile, transcriptDir, unwritable } from "./file.js";
import { outcomeRecord, type TranscriptRecord } from "./record.js";

export class TranscriptRecorder implements CallObserver {
  private file: TranscriptFile | undefined;

  private constructor(
    file: TranscriptFile | undefined,
    private readonly problem: (line: string) => void,
  ) {
    this.file = file;
  }

  /** A new session file in `dir` (the state directory by default). */
  static open(problem: (line: string) => void, dir = transcriptDir()): TranscriptRecorder {
    try {
      return new TranscriptRecorder(TranscriptFile.create(dir), problem);
    } catch (e) {
      problem(
        `transcript off: cannot write in the state directory ${dir}: ${fsProblem(unwritable(dir) ?? e)}; the command goes on without it`,
      );
      return new TranscriptRecorder(undefined, problem);
    }
  }

  /** The session file, while it is being written. */
  get path(): string | undefined {
    return this.file?.path;
  }

  record(r: { kind: string; [key: string]: unknown }): void {
    const f = this.file;
    if (!f) return;
    const rec: TranscriptRecord = { at: new Date().toISOString(), ...r };
    try {
      f.write(rec);
    } catch (e) {
      this.file = undefined;
      f.close();
      this.problem(
        `transcript stopped: ${f.path}: ${(e as Error).message}; it ends at the last whole record and the command goes on`,
      );
    }
  }

  started(e: CallStarted): void {
    this.record({ kind: "request", call: e.id, source: e.source, server: e.server, tool: e.tool, arguments: e.args });
  }

  ended(id: number | string, outcome: CallOutcome): void {
    this.record({ kind: "tool", call: id, ...outcomeRecord(outcome) });
  }

  /** A script's inner call (code mode, `run`) as it ends: its outcome, or what stopped it before the server. */
  scriptCall(c: {
    server: string;
    tool: string;
    args: Record<string, unknown>;
    outcome?: CallOutcome;
    error?: unknown;
  }): void {
    if (c.outcome) this.record({ kind: "tool", source: "script", ...outcomeRecord(c.outcome) });
    else
      this.record({
        kind: "tool",
        source: "script",
        server: c.server,
        tool: c.tool,
        arguments: c.args,
        error: c.error,
      });
  }

  /** The session's start: the same fields as the app's `session` record, and the command that ran. */
  start(fields: { command: string; mode: string; model?: string; servers: string[] }): void {
    this.record({
      kind: "session",
      event: "start",
      pid: process.pid,
      cwd: process.cwd(),
      command: fields.command,
      mode: fields.mode,
      ...(fields.model ? { model: fields.model } : {}),
      servers: fields.servers.map((name) => ({ name })),
    });
  }

  /** The session's end record, then the file closed. */
  end(): void {
    this.record({ kind: "session", event: "end" });
    this.file?.close();
    this.file = undefined;
  }
}
