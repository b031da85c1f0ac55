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

/** Why a transcript is not being written: it could not be opened, or a write failed (the file then ends at its last whole record). */
export type TranscriptProblem = (line: string, phase: "off" | "stopped") => void;

export interface RecorderOptions {
  /** The state directory (default: transcriptDir()). */
  dir?: string;
  /** How the file is opened (default: a new session file; the app's resume reopens its own). */
  open?: (dir: string) => TranscriptFile;
  /** What goes on without the transcript, in the problem lines: the app's session or a command. */
  goesOn?: "session" | "command";
}

export class TranscriptRecorder implements CallObserver {
  private file: TranscriptFile | undefined;

  private constructor(
    /** The file opened, kept after a failed write stopped the transcript (its path names the session). */
    readonly opened: TranscriptFile | undefined,
    private readonly problem: TranscriptProblem,
    private readonly goesOn: string,
  ) {
    this.file = opened;
  }

  /** A session file in the state directory; one that cannot be opened is one "off" problem line. */
  static open(problem: TranscriptProblem, o: RecorderOptions = {}): TranscriptRecorder {
    const dir = o.dir ?? transcriptDir();
    const goesOn = o.goesOn ?? "command";
    try {
      return new TranscriptRecorder((o.open ?? ((d) => TranscriptFile.create(d)))(dir), problem, goesOn);
    } catch (e) {
      problem(
        `transcript off: cannot write in the state directory ${dir}: ${fsProblem(unwritable(dir) ?? e)}; the ${goesOn} goes on without it`,
        "off",
      );
      return new TranscriptRecorder(undefined, problem, goesOn);
    }
  }

  /** The session file, while it is being written. */
  get path(): string | undefined {
    return this.file?.path;
  }

  /** A record stamped now. */
  record(r: { kind: string; [key: string]: unknown }): void {
    this.write({ at: new Date().toISOString(), ...r });
  }

  /** A stamped record; a failed write stops the transcript with one "stopped" problem line. */
  write(rec: TranscriptRecord): void {
    const f = this.file;
    if (!f) return;
    try {
      f.write(rec);
    } catch (e) {
      this.file = undefined;
      f.close();
      this.problem(
        `transcript stopped: ${f.path}: ${(e as Error).message}; it ends at the last whole record and the ${this.goesOn} goes on`,
        "stopped",
      );
    }
  }

  /** Closes the file; nothing more is written. */
  close(): void {
    this.file?.close();
    this.file = undefined;
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
    this.close();
  }
}
