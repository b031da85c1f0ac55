// The sandbox's worker thread: QuickJS compiled to WebAssembly, one runtime and context per run,
// the module kept between runs until a fault. Inside the sandbox there is only the language, JSON,
// `tools` (each call a message to the parent thread, answered with JSON text) and `console`; no
// process, require, fetch, timers or host object ever crosses: values cross as strings.
// The WebAssembly.Memory is created here with a maximum, so the module cannot grow past it
// whatever the runtime's own allocator limit says; a fault (memory exhausted inside the module,
// an abort) is reported and the parent drops this worker, and the module with it.
import { parentPort, workerData } from "node:worker_threads";
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSContext,
  type QuickJSDeferredPromise,
  type QuickJSSyncVariant,
  type QuickJSWASMModule,
} from "quickjs-emscripten-core";
import releaseSync from "@jitl/quickjs-wasmfile-release-sync";
import type { FromWorker, RunRequest, ToWorker } from "./sandbox-protocol.js";
import { PRELUDE } from "./sandbox-prelude.js";

if (!parentPort) throw new Error("sandbox-worker runs only as a worker thread");
const port = parentPort;
/** Node's WebAssembly (its types are not in this project's lib). */
interface WasmMemory {
  buffer: ArrayBuffer;
}
const Wasm = (
  globalThis as unknown as { WebAssembly: { Memory: new (d: { initial: number; maximum: number }) => WasmMemory } }
).WebAssembly;
const variant = releaseSync as unknown as QuickJSSyncVariant;

const PAGE = 64 * 1024;
/** Emscripten's INITIAL_MEMORY for this build (16 MiB): the memory may not start smaller. */
const INITIAL_PAGES = 256;
/** Jobs run per pump before the CPU budget is checked again and the event loop gets a turn. */
const JOBS_PER_PUMP = 256;

let module: QuickJSWASMModule | undefined;
let moduleMemoryBytes = 0;
let memory: WasmMemory | undefined;

async function moduleFor(memoryBytes: number): Promise<QuickJSWASMModule> {
  if (module && moduleMemoryBytes === memoryBytes) return module;
  const maximum = Math.max(INITIAL_PAGES, Math.ceil(memoryBytes / PAGE));
  const wasmMemory = new Wasm.Memory({ initial: INITIAL_PAGES, maximum });
  module = await newQuickJSWASMModuleFromVariant(
    newVariant(variant, { wasmMemory: wasmMemory as never, ...wasmLocation() }),
  );
  memory = wasmMemory;
  moduleMemoryBytes = memoryBytes;
  return module;
}

/** Where the .wasm file is: found by the parent (the bundle copies it next to its chunks). */
/** Shared with the parent (runner.ts): [µs inside QuickJS this run, absolute µs the running slice began or 0]. */
const clockBuffer = (workerData as { clock?: unknown } | null)?.clock;
const clock = clockBuffer instanceof SharedArrayBuffer ? new BigInt64Array(clockBuffer) : undefined;

function wasmLocation(): { wasmLocation?: string } {
  const loc = (workerData as { wasm?: unknown } | null)?.wasm;
  return typeof loc === "string" && loc ? { wasmLocation: loc } : {};
}

const pendingCalls = new Map<number, QuickJSDeferredPromise>();
let wake: (() => void) | undefined;

port.on("message", (m: ToWorker) => {
  if (m.t === "run") {
    void run(m).then(
      (done) => port.postMessage(done),
      (e) =>
        port.postMessage({
          t: "done",
          id: m.id,
          ok: false,
          logs: [],
          error: { rule: "sandbox-fault", message: faultText(e) },
          fault: true,
          wasmBytes: memory?.buffer.byteLength,
        } satisfies FromWorker),
    );
  } else if (m.t === "reply") {
    replies.push(m);
    wake?.();
  }
});

const replies: Extract<ToWorker, { t: "reply" }>[] = [];

function faultText(e: unknown): string {
  const s = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  return s.slice(0, 300);
}

async function run(req: RunRequest): Promise<FromWorker> {
  const lim = req.limits;
  const mod = await moduleFor(lim.memoryBytes);
  const rt = mod.newRuntime();
  const logs: string[] = [];
  let logBytes = 0;
  let logsCut = 0;
  let cpuUsed = 0;
  let sliceStart = 0;
  let inSlice = false;
  const started = performance.now();
  let limitHit: { rule: string; message: string } | undefined;
  const overCpu = () => cpuUsed + (inSlice ? performance.now() - sliceStart : 0) > lim.cpuMs;
  const overWall = () => performance.now() - started > lim.wallMs;
  rt.setMemoryLimit(lim.allocatorBytes ?? Math.floor(lim.memoryBytes * 0.75));
  rt.setMaxStackSize(lim.stackBytes);
  rt.setInterruptHandler(() => {
    if (overCpu()) limitHit ??= { rule: "cpu-time", message: `the script used more than ${lim.cpuMs} ms of CPU time` };
    else if (overWall()) limitHit ??= { rule: "wall-time", message: `the script ran longer than ${lim.wallMs} ms` };
    return limitHit !== undefined;
  });
  /** A synchronous stretch inside QuickJS, timed against the CPU budget, here and for the parent's watchdog. */
  const slice = <T>(f: () => T): T => {
    sliceStart = performance.now();
    inSlice = true;
    if (clock) Atomics.store(clock, 1, BigInt(Math.round((performance.timeOrigin + sliceStart) * 1000)));
    try {
      return f();
    } finally {
      inSlice = false;
      cpuUsed += performance.now() - sliceStart;
      if (clock) {
        Atomics.store(clock, 0, BigInt(Math.round(cpuUsed * 1000)));
        Atomics.store(clock, 1, 0n);
      }
    }
  };
  const ctx = rt.newContext();
  let outcome: { ok: true; value: string } | { ok: false; error: { rule: string; message: string } } | undefined;
  let nextCall = 0;
  let calls = 0;
  try {
    defineNatives(ctx, {
      call: (tool, args) => {
        if (++calls > lim.maxCalls)
          throw { rule: "too-many-calls", message: `the script made more than ${lim.maxCalls} tool calls` };
        const id = ++nextCall;
        const d = ctx.newPromise();
        pendingCalls.set(id, d);
        port.postMessage({ t: "call", runId: req.id, callId: id, tool, args } satisfies FromWorker);
        return d;
      },
      log: (text) => {
        if (logBytes + text.length > lim.maxLogBytes) {
          logsCut++;
          return;
        }
        logBytes += text.length;
        logs.push(text);
      },
      done: (ok, text, rule) => {
        outcome = ok ? { ok: true, value: text } : { ok: false, error: { rule, message: text.slice(0, 2000) } };
      },
    });
    ctx.setProp(ctx.global, "__prismTools", ctx.newString(JSON.stringify(req.tools)));
    ctx.setProp(ctx.global, "__prismCode", ctx.newString(req.code));
    ctx.setProp(ctx.global, "__prismMaxValue", ctx.newNumber(lim.maxValueBytes));
    const evaluated = slice(() => ctx.evalCode(PRELUDE, "prelude.js"));
    if (evaluated.error) {
      const err = ctx.dump(evaluated.error);
      evaluated.error.dispose();
      outcome = { ok: false, error: limitHit ?? errorOf(err) };
    } else evaluated.value.dispose();
    // Pump: jobs in bounded slices, the CPU and wall budgets checked after each; wait for tool replies.
    while (!outcome && !limitHit) {
      const jobs = slice(() => rt.executePendingJobs(JOBS_PER_PUMP));
      if (jobs.error) {
        const err = ctx.dump(jobs.error);
        jobs.error.dispose();
        if (!limitHit) outcome = { ok: false, error: errorOf(err) };
        break;
      }
      if (overCpu())
        limitHit ??= { rule: "cpu-time", message: `the script used more than ${lim.cpuMs} ms of CPU time` };
      if (overWall()) limitHit ??= { rule: "wall-time", message: `the script ran longer than ${lim.wallMs} ms` };
      if (outcome || limitHit) break;
      if (jobs.value > 0) {
        await new Promise<void>((r) => setImmediate(r));
      } else if (!rt.hasPendingJob()) {
        if (pendingCalls.size === 0 && replies.length === 0) {
          outcome = {
            ok: false,
            error: {
              rule: "script-error",
              message: "the script's promise never settles (it awaits nothing that can finish)",
            },
          };
          break;
        }
        if (replies.length === 0) await new Promise<void>((r) => (wake = r));
        wake = undefined;
      }
      for (const r of replies.splice(0)) {
        const d = pendingCalls.get(r.callId);
        if (!d) continue;
        pendingCalls.delete(r.callId);
        const h = ctx.newString(r.ok ? r.json : JSON.stringify(r.error));
        slice(() => (r.ok ? d.resolve(h) : d.reject(h)));
        h.dispose();
        d.dispose();
      }
    }
  } finally {
    for (const d of pendingCalls.values()) d.dispose();
    pendingCalls.clear();
    replies.length = 0;
  }
  const error = limitHit ?? (outcome && !outcome.ok ? outcome.error : undefined);
  const result: FromWorker = {
    t: "done",
    id: req.id,
    ok: !error,
    logs,
    ...(logsCut ? { logsCut } : {}),
    ...(error ? { error } : { value: (outcome as { value: string }).value }),
    cpuMs: Math.round(cpuUsed),
    wasmBytes: memory?.buffer.byteLength,
  };
  try {
    ctx.dispose();
    rt.dispose();
  } catch {
    // A runtime left with live objects after an interrupt: the next run gets a fresh module.
    module = undefined;
  }
  return result;
}

/** A QuickJS error that escaped the prelude's handler, as a rule (its exact messages for the limits). */
function errorOf(err: unknown): { rule: string; message: string } {
  const e = (err && typeof err === "object" ? err : {}) as { name?: unknown; message?: unknown };
  const rule =
    e.name === "InternalError" && e.message === "out of memory"
      ? "memory"
      : e.name === "InternalError" && e.message === "stack overflow"
        ? "stack-size"
        : "script-error";
  return { rule, message: errorText(err) };
}

function errorText(err: unknown): string {
  if (err && typeof err === "object") {
    const e = err as { name?: unknown; message?: unknown };
    const name = typeof e.name === "string" ? e.name : "Error";
    const message = typeof e.message === "string" ? e.message : JSON.stringify(err);
    return `${name}: ${message}`.slice(0, 2000);
  }
  return String(err).slice(0, 2000);
}

interface Natives {
  call(tool: string, args: string): QuickJSDeferredPromise;
  log(text: string): void;
  done(ok: boolean, text: string, rule: string): void;
}

/** The three host functions the prelude captures and then deletes from the global object. */
function defineNatives(ctx: QuickJSContext, n: Natives): void {
  const call = ctx.newFunction("call", (tool, args) => {
    try {
      return n.call(ctx.getString(tool), ctx.getString(args)).handle;
    } catch (e) {
      const err = e as { rule?: string; message?: string };
      return {
        error: ctx.newString(
          JSON.stringify({
            server: "",
            tool: ctx.getString(tool),
            rule: err.rule ?? "sandbox",
            message: err.message ?? String(e),
          }),
        ),
      };
    }
  });
  const log = ctx.newFunction("log", (text) => {
    n.log(ctx.getString(text));
  });
  const done = ctx.newFunction("done", (ok, text, rule) => {
    const r = rule !== undefined && ctx.typeof(rule) === "string" ? ctx.getString(rule) : "script-error";
    n.done(ctx.dump(ok) === true, ctx.getString(text), r);
  });
  ctx.setProp(ctx.global, "__prismCall", call);
  ctx.setProp(ctx.global, "__prismLog", log);
  ctx.setProp(ctx.global, "__prismDone", done);
  call.dispose();
  log.dispose();
  done.dispose();
}
