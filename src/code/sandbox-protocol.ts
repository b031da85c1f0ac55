// The messages between the parent thread (runner.ts) and the sandbox worker (sandbox-worker.ts).
// Everything is JSON text or plain numbers: no object of either side crosses into QuickJS.

/** The names the host answers itself: `tools.$search` and `display` (script-extras.ts). */
export const SEARCH = "$search";
export const DISPLAY = "$display";

/** Per-run bounds (see DEFAULT_LIMITS in runner.ts). */
export interface SandboxLimits {
  /** CPU time inside QuickJS per run (interrupt handler, and after every pump of pending jobs). */
  cpuMs: number;
  /** Wall clock per run, tool calls included (the parent terminates a worker past it). */
  wallMs: number;
  /** The WebAssembly.Memory maximum; the runtime's allocator limit is set below it. */
  memoryBytes: number;
  /** The runtime's own allocator limit (default 3/4 of memoryBytes; -1: none, leaving only the Memory's maximum). */
  allocatorBytes?: number;
  stackBytes: number;
  maxCalls: number;
  /** The script's text. */
  maxCodeBytes: number;
  /** One call's arguments, as JSON. */
  maxArgsBytes: number;
  /** One image handed to `display`, as JSON. */
  maxDisplayBytes: number;
  /** All tool results handed into the sandbox in one run, as JSON. */
  maxInputBytes: number;
  /** The script's return value, as JSON. */
  maxValueBytes: number;
  /** Console output kept per run (later lines are counted, not kept). */
  maxLogBytes: number;
}

export interface RunRequest {
  t: "run";
  id: number;
  code: string;
  /** The names `tools.<name>` offers. */
  tools: string[];
  limits: SandboxLimits;
}

/** A sandbox-side failure of a tool call (the prelude makes it a ToolError). */
export interface CallFailure {
  server: string;
  tool: string;
  rule: string;
  message: string;
}

export type ToWorker =
  | RunRequest
  | { t: "reply"; callId: number; ok: true; json: string }
  | { t: "reply"; callId: number; ok: false; error: CallFailure };

export type FromWorker =
  | { t: "call"; runId: number; callId: number; tool: string; args: string }
  | ({
      t: "done";
      id: number;
      ok: boolean;
      /** The return value as JSON text (ok only). */
      value?: string;
    } & RunEnd);

/** How a run ended, as both sides report it. */
export interface RunEnd {
  logs: string[];
  /** Console lines dropped past maxLogBytes. */
  logsCut?: number;
  error?: { rule: string; message: string };
  /** The module is not to be trusted again: the parent drops this worker (and its module). */
  fault?: boolean;
  cpuMs?: number;
  /** The module's WebAssembly.Memory size after the run (never above limits.memoryBytes). */
  wasmBytes?: number;
}
