// The parent side of the sandbox: one worker thread (sandbox-worker.ts) holding the QuickJS
// module, one run at a time. It answers the script's tool calls through the caller's `call`,
// bounds what goes in and out, and ends a run past its wall clock by terminating the worker.
// A fault (the wall clock, a module that aborted, a worker that died) drops the worker and the
// module with it; the next run starts a fresh one, so the session goes on.
// CPU is also enforced from here: loops inside the engine's builtins (lastIndexOf on a huge
// array-like, sort, regexps) never reach QuickJS's interrupt handler, so the worker publishes its
// time inside QuickJS in shared memory and the parent ends a worker that passes the limit.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import {
  DISPLAY,
  type CallFailure,
  type FromWorker,
  type RunEnd,
  type SandboxLimits,
  type ToWorker,
} from "./sandbox-protocol.js";

export type { CallFailure, SandboxLimits } from "./sandbox-protocol.js";

export const DEFAULT_LIMITS: SandboxLimits = {
  cpuMs: 2_000,
  wallMs: 60_000,
  memoryBytes: 64 * 1024 * 1024,
  stackBytes: 512 * 1024,
  maxCalls: 100,
  maxCodeBytes: 100_000,
  maxArgsBytes: 100_000,
  maxDisplayBytes: 8 * 1024 * 1024,
  maxInputBytes: 16 * 1024 * 1024,
  maxValueBytes: 1024 * 1024,
  maxLogBytes: 64 * 1024,
};

/** How a script's tool call is answered: the tool's JSON value, or a failure as data. */
export type CallAnswer = { ok: true; value: unknown } | { ok: false; error: CallFailure };
export type CallHandler = (tool: string, args: Record<string, unknown>, signal: AbortSignal) => Promise<CallAnswer>;

export interface RunOptions {
  /** The names `tools.<name>` offers. */
  tools: string[];
  call: CallHandler;
  limits?: Partial<SandboxLimits>;
  signal?: AbortSignal;
}

/** A run's end: its value (JSON) or the error that ended it, and its console output. */
export interface RunResult extends RunEnd {
  ok: boolean;
  value?: unknown;
  /** The value's JSON text as the sandbox wrote it. */
  valueJson?: string;
  durationMs: number;
}

/** The worker's file next to this module: the bundle's sandbox-worker.cjs, tsc's .js, or the source .ts (under tsx). */
function workerUrl(): URL {
  for (const name of ["./sandbox-worker.cjs", "./sandbox-worker.js", "./sandbox-worker.ts"]) {
    const u = new URL(name, import.meta.url);
    if (existsSync(fileURLToPath(u))) return u;
  }
  throw new Error("the code sandbox's worker is missing from this build");
}

/** The QuickJS .wasm: next to the bundle's chunks (scripts/bundle.js copies it), else the package's own. */
export function wasmPath(): string {
  const beside = fileURLToPath(new URL("./quickjs.wasm", import.meta.url));
  if (existsSync(beside)) return beside;
  return createRequire(import.meta.url).resolve("@jitl/quickjs-wasmfile-release-sync/wasm");
}

function tsxApi(): string {
  const req = createRequire(import.meta.url);
  const pkgPath = req.resolve("tsx/package.json");
  const pkg = req(pkgPath) as { exports: Record<string, { import: { default: string } }> };
  return new URL(pkg.exports["./esm/api"].import.default, pathToFileURL(pkgPath)).href;
}

/** The worker's clock, shared: [µs inside QuickJS this run, absolute µs a slice began or 0]. */
const CLOCK_SLOTS = 2;

/** The watchdog's margin past cpuMs, so the in-engine limit (no worker restart) ends a run first when it can. */
function cpuGrace(cpuMs: number): number {
  return Math.max(50, cpuMs / 4);
}

function spawnWorker(clock: SharedArrayBuffer): Worker {
  const url = workerUrl();
  const opts = {
    workerData: { wasm: wasmPath(), clock },
    resourceLimits: { maxOldGenerationSizeMb: 96 },
    stdout: true,
    stderr: true,
  };
  const w = url.pathname.endsWith(".ts")
    ? new Worker(
        `import(${JSON.stringify(tsxApi())}).then((t) => { t.register(); return import(${JSON.stringify(url.href)}); })`,
        { ...opts, eval: true },
      )
    : new Worker(url, opts);
  w.unref();
  return w;
}

export class Sandbox {
  private worker: Worker | undefined;
  private clock = new BigInt64Array(new SharedArrayBuffer(8 * CLOCK_SLOTS));
  private queue: Promise<unknown> = Promise.resolve();
  private nextId = 0;
  /** Workers started so far (a fault makes the next run start another). */
  started = 0;

  /** Runs one script; never rejects. Runs queue one after another. */
  run(code: string, opts: RunOptions): Promise<RunResult> {
    const next = this.queue.then(() => this.runNow(code, opts));
    this.queue = next.catch(() => {});
    return next;
  }

  /** Ends the worker (an idle one never keeps the process alive anyway). */
  async close(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    await w?.terminate();
  }

  private drop(w: Worker): void {
    if (this.worker === w) this.worker = undefined;
    void w.terminate();
  }

  private runNow(code: string, opts: RunOptions): Promise<RunResult> {
    const limits: SandboxLimits = { ...DEFAULT_LIMITS, ...opts.limits };
    const started = performance.now();
    const end = (r: Omit<RunResult, "durationMs" | "logs"> & { logs?: string[] }): RunResult => ({
      logs: [],
      ...r,
      durationMs: performance.now() - started,
    });
    if (code.length > limits.maxCodeBytes)
      return Promise.resolve(
        end({
          ok: false,
          error: {
            rule: "code-too-large",
            message: `the script is ${code.length} characters, over the limit of ${limits.maxCodeBytes}`,
          },
        }),
      );
    if (opts.signal?.aborted)
      return Promise.resolve(end({ ok: false, error: { rule: "cancelled", message: "cancelled before it ran" } }));
    let w: Worker;
    try {
      if (!this.worker) {
        this.clock = new BigInt64Array(new SharedArrayBuffer(8 * CLOCK_SLOTS));
        this.started++;
        this.worker = spawnWorker(this.clock.buffer as SharedArrayBuffer);
      }
      w = this.worker;
    } catch (e) {
      return Promise.resolve(end({ ok: false, error: { rule: "sandbox-unavailable", message: (e as Error).message } }));
    }
    const id = ++this.nextId;
    const calls = new AbortController();
    let inputBytes = 0;
    const clock = this.clock;
    // The worker is idle between runs: this run's CPU starts at zero.
    Atomics.store(clock, 0, 0n);
    Atomics.store(clock, 1, 0n);
    return new Promise<RunResult>((resolve) => {
      let settled = false;
      const finish = (r: RunResult, fault: boolean) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        clearInterval(watchdog);
        calls.abort();
        w.off("message", onMessage);
        w.off("error", onError);
        w.off("exit", onExit);
        opts.signal?.removeEventListener("abort", onAbort);
        if (fault) this.drop(w);
        resolve(fault ? { ...r, fault: true } : r);
      };
      const timer = setTimeout(
        () =>
          finish(
            end({ ok: false, error: { rule: "wall-time", message: `the script ran longer than ${limits.wallMs} ms` } }),
            true,
          ),
        limits.wallMs + 250,
      );
      const watchdog = setInterval(
        () => {
          const used = cpuUsedMs(clock);
          if (used > limits.cpuMs + cpuGrace(limits.cpuMs))
            finish(
              {
                ...end({
                  ok: false,
                  error: { rule: "cpu-time", message: `the script used more than ${limits.cpuMs} ms of CPU time` },
                }),
                cpuMs: Math.round(used),
              },
              true,
            );
        },
        Math.min(250, Math.max(10, limits.cpuMs / 8)),
      );
      const onAbort = () => finish(end({ ok: false, error: { rule: "cancelled", message: "cancelled" } }), true);
      const onError = (e: Error) =>
        finish(
          end({
            ok: false,
            error: { rule: "sandbox-fault", message: `the sandbox failed: ${e.message.slice(0, 300)}` },
          }),
          true,
        );
      const onExit = () =>
        finish(end({ ok: false, error: { rule: "sandbox-fault", message: "the sandbox's worker stopped" } }), true);
      const reply = (m: ToWorker) => {
        if (!settled) w.postMessage(m);
      };
      const onMessage = (m: FromWorker) => {
        if (m.t === "call") {
          if (m.runId !== id) return;
          void this.answer(m.tool, m.args, limits, opts.call, calls.signal).then((a) => {
            if (a.ok) {
              inputBytes += a.json.length;
              if (inputBytes > limits.maxInputBytes) {
                return reply({
                  t: "reply",
                  callId: m.callId,
                  ok: false,
                  error: {
                    server: "",
                    tool: m.tool,
                    rule: "input-too-large",
                    message: `the tool results of this run passed ${limits.maxInputBytes} characters of JSON`,
                  },
                });
              }
              return reply({ t: "reply", callId: m.callId, ok: true, json: a.json });
            }
            reply({ t: "reply", callId: m.callId, ok: false, error: a.error });
          });
          return;
        }
        if (m.id !== id) return;
        const r: RunResult = end({
          ok: m.ok,
          logs: m.logs,
          ...(m.logsCut ? { logsCut: m.logsCut } : {}),
          ...(m.cpuMs !== undefined ? { cpuMs: m.cpuMs } : {}),
          ...(m.wasmBytes !== undefined ? { wasmBytes: m.wasmBytes } : {}),
        });
        if (m.ok && m.value !== undefined) {
          r.valueJson = m.value;
          r.value = JSON.parse(m.value);
        }
        if (m.error) r.error = m.error;
        finish(r, m.fault === true);
      };
      w.on("message", onMessage);
      w.once("error", onError);
      w.once("exit", onExit);
      opts.signal?.addEventListener("abort", onAbort, { once: true });
      w.postMessage({ t: "run", id, code, tools: opts.tools, limits } satisfies ToWorker);
    });
  }

  /** One tool call of the script: bounded arguments in, the tool's value as JSON text out. */
  private async answer(
    tool: string,
    argsJson: string,
    limits: SandboxLimits,
    call: CallHandler,
    signal: AbortSignal,
  ): Promise<{ ok: true; json: string } | { ok: false; error: CallFailure }> {
    const fail = (rule: string, message: string) => ({
      ok: false as const,
      error: { server: "", tool, rule, message },
    });
    const bound = tool === DISPLAY ? limits.maxDisplayBytes : limits.maxArgsBytes;
    if (argsJson.length > bound)
      return fail(
        "arguments-too-large",
        `the arguments are ${argsJson.length} characters of JSON, over the limit of ${bound}`,
      );
    let args: unknown;
    try {
      args = JSON.parse(argsJson);
    } catch {
      return fail("invalid-arguments", "the arguments are not JSON");
    }
    if (args === null || typeof args !== "object" || Array.isArray(args))
      return fail("invalid-arguments", "the arguments must be an object");
    try {
      const a = await call(tool, args as Record<string, unknown>, signal);
      if (!a.ok) return a;
      const json = JSON.stringify(a.value ?? null);
      return { ok: true, json };
    } catch (e) {
      return fail("host-error", (e as Error)?.message?.slice(0, 300) ?? String(e));
    }
  }
}

/** The worker's time inside QuickJS this run, the running slice included (see sandbox-worker.ts). */
function cpuUsedMs(clock: BigInt64Array): number {
  const start = Atomics.load(clock, 1);
  const done = Number(Atomics.load(clock, 0)) / 1000;
  return start === 0n ? done : done + Math.max(0, nowUs() - Number(start)) / 1000;
}

/** Microseconds on a timeline both threads share (each thread's performance.now() has its own origin). */
function nowUs(): number {
  return Math.round((performance.timeOrigin + performance.now()) * 1000);
}
