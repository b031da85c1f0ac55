// Task-augmented tool calls (2025-11-25 `tasks` capability; the 2026-07-28
// `io.modelcontextprotocol/tasks` extension): whether a call runs as a task, and following a
// task from its handle to its result: tasks/get polled at the server's pollInterval (clamped to
// POLL_MIN_MS..POLL_MAX_MS), each status shown as progress on the tool card, tasks/result once
// completed or when the server needs input (its elicitation requests arrive on that request and
// take the host's elicitation path), tasks/cancel when the call is cancelled. Running tasks are
// kept per host so that closing it cancels them (RunningTasks.cancelAll).
import type { Connection } from "../connection/connection.js";
import type { ProgressUpdate, ToolEntry } from "../types.js";
import { isObject } from "../../protocol/is-object.js";
import { sanitizeInline } from "../../protocol/sanitize.js";
import { beforeSignalExit } from "../connection/process-group.js";

export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";
const POLL_MIN_MS = 100;
const POLL_MAX_MS = 5_000;
const DEFAULT_POLL_MS = 1_000;
/** How long one tasks/cancel may take (on a cancel or at exit). */
export const CANCEL_TIMEOUT_MS = 3_000;
const MAX_STATUS_CHARS = 300;
const TERMINAL = new Set(["completed", "failed", "cancelled"]);

type Json = Record<string, unknown>;

/** True when the server runs tools/call as a task (2025-11-25 capability, or the 2026-07-28 extension). */
export function serverRunsTasks(conn: Connection): boolean {
  const caps = conn.serverCapabilities as Json;
  const tasks = isObject(caps.tasks) ? caps.tasks : undefined;
  const requests = tasks && isObject(tasks.requests) ? tasks.requests : undefined;
  if (requests && isObject(requests.tools) && isObject(requests.tools.call)) return true;
  const ext = isObject(caps.extensions) ? caps.extensions : undefined;
  return ext !== undefined && Object.hasOwn(ext, TASKS_EXTENSION);
}

/** The tool's `execution.taskSupport`, when it is "required" or "optional". */
export function taskSupport(entry: Pick<ToolEntry, "execution">): "required" | "optional" | undefined {
  const s = entry.execution?.taskSupport;
  return s === "required" || s === "optional" ? s : undefined;
}

/** A task handle in a tools/call result (CreateTaskResult, or an unsolicited 2026-07-28 handle). */
export function taskHandle(
  raw: Json,
): { taskId: string; status: string; statusMessage?: string; pollInterval?: number } | undefined {
  const t = raw.task;
  if (!isObject(t) || typeof t.taskId !== "string" || t.taskId.length === 0 || t.taskId.length > 500) return undefined;
  return {
    taskId: t.taskId,
    status: typeof t.status === "string" ? t.status : "working",
    ...(typeof t.statusMessage === "string" ? { statusMessage: t.statusMessage } : {}),
    ...(typeof t.pollInterval === "number" ? { pollInterval: t.pollInterval } : {}),
  };
}

export class TaskError extends Error {
  constructor(
    readonly rule: "task-failed" | "task-cancelled" | "task-malformed",
    message: string,
  ) {
    super(message);
  }
}

export interface FollowOptions {
  signal?: AbortSignal;
  onProgress?: (p: ProgressUpdate) => void;
  /** The longest the whole task may take (limits.maxCallTimeoutMs). */
  maxMs: number;
}

interface Running {
  conn: Connection;
  server: string;
  tool: string;
  taskId: string;
}

/** Every host's running tasks in this process (a signal's exit cancels them all). */
const everyHost = new Set<RunningTasks>();

/** Cancels every task of every host, saying so on stderr (exitOnSignals, before the servers stop). */
async function cancelEveryTask(): Promise<void> {
  await Promise.all([...everyHost].map((r) => r.cancelAll()));
}

/** The tasks one host is following; `cancelAll` at exit. */
export class RunningTasks {
  private readonly running = new Set<Running>();
  /**
   * Set when the app is quitting (Host.exiting): a task its call's abort cancels now is one the
   * exit cancelled, and is said like those cancelAll finds still running.
   */
  exiting = false;
  constructor() {
    if (everyHost.size === 0) beforeSignalExit(cancelEveryTask);
    everyHost.add(this);
  }

  list(): readonly Running[] {
    return [...this.running];
  }

  /** Follows a task from its handle to the tools/call result it ends with; throws TaskError, McpError or the abort. */
  async follow(
    conn: Connection,
    tool: string,
    first: NonNullable<ReturnType<typeof taskHandle>>,
    opts: FollowOptions,
  ): Promise<Json> {
    const me: Running = { conn, server: conn.name, tool, taskId: first.taskId };
    this.running.add(me);
    const started = performance.now();
    const show = (status: string, message?: string) =>
      opts.onProgress?.({
        progress: 0,
        message: `task ${status}${message ? `: ${message.slice(0, MAX_STATUS_CHARS)}` : ""}`,
      });
    try {
      let task: Json = { ...first };
      let interval = clampPoll(first.pollInterval);
      show(first.status, first.statusMessage);
      for (;;) {
        const status = String(task.status);
        if (status === "completed" || status === "input_required") break;
        if (status === "failed")
          throw new TaskError(
            "task-failed",
            `the task failed${typeof task.statusMessage === "string" ? `: ${task.statusMessage.slice(0, MAX_STATUS_CHARS)}` : ""}`,
          );
        if (status === "cancelled") throw new TaskError("task-cancelled", "the server cancelled the task");
        if (performance.now() - started > opts.maxMs)
          throw new TaskError("task-failed", `the task ran longer than ${opts.maxMs} ms`);
        await sleep(interval, opts.signal);
        const got = await conn.request("tasks/get", { taskId: me.taskId }, { signal: opts.signal });
        // 2025-11-25: GetTaskResult is the task itself; some servers wrap it as {task}.
        const next = isObject(got.task) ? got.task : got;
        if (typeof next.status !== "string") throw new TaskError("task-malformed", "tasks/get returned no status");
        if (next.status !== task.status || next.statusMessage !== task.statusMessage)
          show(next.status, typeof next.statusMessage === "string" ? next.statusMessage : undefined);
        task = next;
        interval = clampPoll(typeof next.pollInterval === "number" ? next.pollInterval : interval);
        // The 2026-07-28 extension's tasks/get carries the result of a completed task.
        if (next.status === "completed" && isObject(got.result)) return got.result;
      }
      // Completed, or the server needs input: tasks/result answers once the task ends, and the
      // server's input requests arrive meanwhile (the connection's elicitation handler answers them).
      const left = Math.max(1_000, opts.maxMs - (performance.now() - started));
      const result = await conn.request("tasks/result", { taskId: me.taskId }, { signal: opts.signal, timeout: left });
      if (!TERMINAL.has(String(task.status))) show("completed");
      return result;
    } catch (e) {
      if (opts.signal?.aborted) {
        this.running.delete(me); // cancelled here: cancelAll must not send it again
        await cancelTask(me);
        if (this.exiting) saidCancelledOnExit(me);
      }
      throw e;
    } finally {
      this.running.delete(me);
    }
  }

  /** Cancels every task still running (at exit); resolves with the ones it asked to cancel. */
  async cancelAll(): Promise<Running[]> {
    const all = [...this.running];
    this.running.clear();
    await Promise.all(all.map(cancelTask));
    // A task outlives a turn, never the process: the person hears which ones were stopped.
    for (const t of all) saidCancelledOnExit(t);
    return all;
  }
}

function saidCancelledOnExit(t: Running): void {
  process.stderr.write(
    `mcp-prism: task ${sanitizeInline(t.taskId.slice(0, 80))} of ${sanitizeInline(`${t.server}/${t.tool}`)} cancelled on exit\n`,
  );
}

/** tasks/cancel, bounded; a server that refuses or is gone changes nothing here. */
async function cancelTask(t: Running): Promise<void> {
  await t.conn.request("tasks/cancel", { taskId: t.taskId }, { timeout: CANCEL_TIMEOUT_MS }).catch(() => {});
}

function clampPoll(ms: number | undefined): number {
  if (typeof ms !== "number" || !Number.isFinite(ms)) return DEFAULT_POLL_MS;
  return Math.min(POLL_MAX_MS, Math.max(POLL_MIN_MS, ms));
}

/** Waits `ms` (the server's poll interval), ending early with the abort. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
