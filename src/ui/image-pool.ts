// Decoding off the main thread, bounded in time: one worker (./image-worker.ts) decodes one image
// at a time; a decode past its deadline terminates the worker (a synchronous decoder cannot be
// interrupted any other way) and the next image gets a fresh one. The worker is unref'd: an idle
// one never keeps the process alive. Its V8 heap is capped too, so a runaway decode fails alone.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import type { DecodeRequest } from "./image-decoders.js";
import type { Bitmap } from "./image-sample.js";

/** The worker's file next to this module: the bundle's image-worker.cjs, tsc's .js, or the source .ts (under tsx). */
function workerUrl(): URL {
  for (const name of ["./image-worker.cjs", "./image-worker.js", "./image-worker.ts"]) {
    const u = new URL(name, import.meta.url);
    if (existsSync(fileURLToPath(u))) return u;
  }
  throw new Error("the image decoding worker is missing from this build");
}

type Reply =
  | { id: number; ok: true; width: number; height: number; rgba?: Uint8Array; encoded?: string | Uint8Array }
  | { id: number; ok: false; message: string };

let worker: Worker | undefined;
let queue: Promise<unknown> = Promise.resolve();
let nextId = 0;

/** tsx's ES module API (its "import" export: the CommonJS one cannot register from a worker). */
function tsxApi(): string {
  const req = createRequire(import.meta.url);
  const pkgPath = req.resolve("tsx/package.json");
  const pkg = req(pkgPath) as { exports: Record<string, { import: { default: string } }> };
  return new URL(pkg.exports["./esm/api"].import.default, pathToFileURL(pkgPath)).href;
}

function spawn(): Worker {
  const url = workerUrl();
  const opts = { resourceLimits: { maxOldGenerationSizeMb: 256 }, stdout: true, stderr: true };
  // The source (tests and bench, under tsx): a worker gets no loader hooks of its own, so an
  // evaluated one-liner registers tsx's before importing it. Builds run their .cjs/.js directly.
  const w = url.pathname.endsWith(".ts")
    ? new Worker(
        `import(${JSON.stringify(tsxApi())}).then((t) => { t.register(); return import(${JSON.stringify(url.href)}); })`,
        { ...opts, eval: true },
      )
    : new Worker(url, opts);
  w.unref();
  // A worker that stops between decodes is replaced by the next one, not waited on.
  w.once("exit", () => {
    if (worker === w) worker = undefined;
  });
  return w;
}

export class DecodeTimeout extends Error {}

/** What the worker made: the bitmap, or with `encode` its encoding (and then no pixels). */
export type Decoded = Bitmap & { encoded?: string | Uint8Array };

function run(req: DecodeRequest, deadlineMs: number): Promise<Decoded> {
  return new Promise<Decoded>((resolve, reject) => {
    const w = (worker ??= spawn());
    const id = ++nextId;
    const done = () => {
      clearTimeout(timer);
      w.off("message", onMessage);
      w.off("error", onError);
      w.off("exit", onExit);
    };
    const drop = () => {
      if (worker === w) worker = undefined;
      void w.terminate();
    };
    const onMessage = (m: Reply) => {
      if (m.id !== id) return;
      done();
      if (m.ok) resolve({ width: m.width, height: m.height, rgba: m.rgba ?? new Uint8Array(0), encoded: m.encoded });
      else reject(new Error(m.message));
    };
    const onError = (e: Error) => {
      done();
      drop();
      reject(e);
    };
    const onExit = (code: number) => {
      done();
      if (worker === w) worker = undefined;
      reject(new Error(`the decoding worker stopped (exit code ${code})`));
    };
    const timer = setTimeout(() => {
      done();
      drop();
      reject(
        new DecodeTimeout(
          `decoding took longer than ${deadlineMs < 1000 ? `${deadlineMs} ms` : `${(deadlineMs / 1000).toFixed(1)} s`}`,
        ),
      );
    }, deadlineMs);
    w.on("message", onMessage);
    w.on("error", onError);
    w.on("exit", onExit);
    // A copy moved to the worker: the caller's bytes (a Buffer may be a view of a shared pool,
    // and Buffer#slice makes no copy) stay usable.
    const bytes = new Uint8Array(req.bytes.byteLength);
    bytes.set(req.bytes);
    w.postMessage({ ...req, bytes, id }, [bytes.buffer]);
  });
}

/** Decodes `req` in the worker, one at a time; rejects at `deadlineMs` (the worker is then stopped). */
export function decodeOffThread(req: DecodeRequest, deadlineMs: number): Promise<Decoded> {
  // The deadline counts from the start of this decode, not from when it was queued.
  const p = queue.then(() => run(req, deadlineMs));
  queue = p.catch(() => undefined);
  return p;
}
