// Task-augmented tool calls (2025-11-25 `tasks` capability; the 2026-07-28
// `io.modelcontextprotocol/tasks` extension): whether a call runs as a task, and following a
// task from its handle to its result: tasks/get polled at the server's pollInterval (clamped to
// POLL_MIN_MS..POLL_MAX_MS), each status shown as progress on the tool card, tasks/result once
// completed or when the server needs input (its elicitation requests arrive on that request and
// take the host's elicitation path), tasks/cancel when the call is cancelled. Running tasks are
// kept per host so that closing it cancels them (RunningTasks.cancelAll).
import type { Connection } from "../connection/connection.js";
import { TASKS_EXTENSION } from "../connection/client-capabilities.js";
import { answerInputRequests, type InputAsker } from "./input-required.js";
import type { Rule } from "../../protocol/rules.js";
import type { ProgressUpdate, ToolEntry } from "../types.js";
import { isObject } from "../../protocol/is-object.js";
import { sanitizeInline } from "../../protocol/sanitize.js";
import { beforeSignalExit } from "../connection/process-group.js";

export { TASKS_EXTENSION };
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
  return requestorTasks(conn) || extensionTasks(conn);
}

/** The 2025-11-25 capability: the client asks for a task with the request's `task` parameter. */
export function requestorTasks(conn: Connection): boolean {
  const caps = conn.serverCapabilities as Json;
  const tasks = isObject(caps.tasks) ? caps.tasks : undefined;
  const requests = tasks && isObject(tasks.requests) ? tasks.requests : undefined;
  return requests !== undefined && isObject(requests.tools) && isObject(requests.tools.call);
}

/** The 2026-07-28 extension on a modern connection: the server decides, per request, to answer with a task. */
function extensionTasks(conn: Connection): boolean {
  const caps = conn.serverCapabilities as Json;
  const ext = isObject(caps.extensions) ? caps.extensions : undefined;
  return conn.era !== "legacy" && ext !== undefined && Object.hasOwn(ext, TASKS_EXTENSION);
}

/** The tool's `execution.taskSupport`, when it is "required" or "optional". */
export function taskSupport(entry: Pick<ToolEntry, "execution">): "required" | "optional" | undefined {
  const s = entry.execution?.taskSupport;
  return s === "required" || s === "optional" ? s : undefined;
}

export interface TaskHandle {
  taskId: string;
  status: string;
  statusMessage?: string;
  pollInterval?: number;
  /** "extension": the 2026-07-28 shape (flat, polled to its inline result; input by tasks/update). */
  shape: "2025-11-25" | "extension";
}

/**
 * A task handle in a tools/call result: a 2025-11-25 CreateTaskResult (`{task}`), or on a modern
 * connection the 2026-07-28 extension's flat one (`resultType: "task"`, `taskId`, `pollIntervalMs`).
 */
export function taskHandle(raw: Json, era?: string): TaskHandle | undefined {
  const flat = era !== "legacy" && raw.resultType === "task";
  const t = flat ? raw : raw.task;
  if (!isObject(t) || typeof t.taskId !== "string" || t.taskId.length === 0 || t.taskId.length > 500) return undefined;
  const interval = t.pollIntervalMs ?? t.pollInterval;
  return {
    taskId: t.taskId,
    status: typeof t.status === "string" ? t.status : "working",
    ...(typeof t.statusMessage === "string" ? { statusMessage: t.statusMessage } : {}),
    ...(typeof interval === "number" ? { pollInterval: interval } : {}),
    shape: flat ? "extension" : "2025-11-25",
  };
}

export class TaskError extends Error {
  constructor(
    readonly rule: Rule,
    message: string,
  ) {
    super(message);
  }
}

export interface FollowOptions {
  signal?: AbortSignal;
  /** Who answers the extension's inputRequests (the connection's input path, as for MRTR). */
  asker?: InputAsker;
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
  async follow(conn: Connection, tool: string, first: TaskHandle, opts: FollowOptions): Promise<Json> {
    const me: Running = { conn, server: conn.name, tool, taskId: first.taskId };
    this.running.add(me);
    const started = performance.now();
    const show = (status: string, message?: string) =>
      opts.onProgress?.({
        progress: 0,
        message: `task ${status}${message ? `: ${message.slice(0, MAX_STATUS_CHARS)}` : ""}`,
      });
    const ext = first.shape === "extension";
    /** The extension's inputRequests keys answered (each is asked once over the task's life). */
    const answered = new Set<string>();
    try {
      let task: Json = { ...first };
      let interval = clampPoll(first.pollInterval);
      show(first.status, first.statusMessage);
      for (;;) {
        const status = String(task.status);
        if (ext && status === "completed") {
          if (!isObject(task.result)) throw new TaskError("task-malformed", "a completed task without its result");
          return task.result;
        }
        if (ext && status === "input_required") await this.answer(conn, me, task, answered, opts);
        else if (status === "completed" || status === "input_required") break;
        if (status === "failed") {
          const why =
            isObject(task.error) && typeof task.error.message === "string" ? task.error.message : task.statusMessage;
          throw new TaskError(
            "task-failed",
            `the task failed${typeof why === "string" ? `: ${why.slice(0, MAX_STATUS_CHARS)}` : ""}`,
          );
        }
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
        const asked = next.pollIntervalMs ?? next.pollInterval;
        interval = clampPoll(typeof asked === "number" ? asked : interval);
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

  /**
   * The extension's input_required: the requests not answered yet, answered on the host's input
   * path (the same as MRTR's: elicitation, sampling, roots) and sent with tasks/update.
   */
  private async answer(conn: Connection, me: Running, task: Json, answered: Set<string>, opts: FollowOptions) {
    const all = isObject(task.inputRequests) ? task.inputRequests : {};
    const fresh = Object.fromEntries(Object.entries(all).filter(([k]) => !answered.has(k)));
    if (!Object.keys(fresh).length) return;
    const got = await answerInputRequests(
      { inputRequests: fresh },
      { ...(opts.asker ?? { server: conn.name }), signal: opts.signal },
    );
    if (!got.ok) {
      await cancelTask(me);
      throw new TaskError(got.rule, got.detail);
    }
    for (const k of Object.keys(fresh)) answered.add(k);
    await conn.request(
      "tasks/update",
      { taskId: me.taskId, inputResponses: got.retry.inputResponses },
      { signal: opts.signal },
    );
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
