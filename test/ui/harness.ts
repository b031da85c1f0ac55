// Test helpers for the UI tests: an Ink harness with a configurable (and resizable) terminal width,
// fake sink data, real PNGs and the hostile-payload check.
import assert from "node:assert/strict";
import type { ReactElement } from "react";
import { render as inkRender } from "ink";
import { encodePng, PNG_SIGNATURE, pngChunk } from "../../src/protocol/png.js";
import { FakeStdin, FakeStdout } from "../helpers/fake-tty.js";
import type { CallOutcome, CallPlan, Routed } from "../../src/host/types.js";

delete process.env.CI;

export interface Harness {
  lastFrame(): string;
  stdin: FakeStdin;
  stdout: FakeStdout;
  rerender(tree: ReactElement): void;
  unmount(): void;
  resize(columns: number, rows?: number): void;
}

export function renderAt(tree: ReactElement, columns = 100, rows = 40): Harness {
  const stdout = new FakeStdout({ columns, rows });
  const stdin = new FakeStdin();
  const inst = inkRender(tree, {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: new FakeStdout({ columns }) as unknown as NodeJS.WriteStream,
    stdin: stdin as unknown as NodeJS.ReadStream,
    debug: true,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  return {
    lastFrame: stdout.lastFrame,
    stdin,
    stdout,
    rerender: inst.rerender,
    unmount: inst.unmount,
    resize: (c, r) => stdout.resize(c, r),
  };
}

export const tick = (ms = 20) => new Promise((r) => setTimeout(r, ms));

/** Polls until `pred` holds (bounded), for async rendering. */
export async function waitFor(pred: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await tick(15);
  }
}

// eslint-disable-next-line no-control-regex
export const stripAnsi = (s: string) => s.replace(/\x1b\[[0-9;:]*m/g, "");

/** Escape payloads a hostile server would send, and the bytes that must never follow a raw ESC. */
export const ESC = "\x1b";
export const HOSTILE = `${ESC}]0;pwned\x07${ESC}[2J${ESC}[6n\u009b31m\u202eevil`;
export const PAYLOADS = ["]0;pwned", "[2J", "[6n"];

/** The frame may hold Ink's own colour codes, but no hostile payload byte follows a raw ESC/C1. */
export function assertNeutralized(frame: string, opts: { visible?: boolean } = {}): void {
  for (const p of PAYLOADS) {
    assert.ok(!frame.includes(ESC + p), `raw ESC${JSON.stringify(p)} in frame`);
    if (opts.visible !== false) assert.ok(frame.includes("␛" + p), `expected visible ␛${p} in frame:\n${frame}`);
  }
  assert.ok(!frame.includes("\u009b"), "raw C1 CSI in frame");
  assert.ok(!frame.includes("\u202e"), "raw RLO in frame");
}

// ---------------------------------------------------------------------------
// Sink data

export function plan(p: Partial<CallPlan> = {}): CallPlan {
  return {
    server: "demo",
    tool: "search_customers",
    args: {},
    requested: [
      { audience: "assistant", format: "content" },
      { audience: "user", format: "structured" },
    ],
    era: "2026-12-01",
    protocolVersion: "2026-12-01",
    mode: "chat",
    ...p,
  };
}

type LooseRouted = {
  model?: unknown[];
  user?: unknown[];
  programmatic?: unknown[];
  app?: unknown[];
  appMeta?: Record<string, unknown>;
};

/** Routed sinks as the router would fill them (the brand cannot be minted outside the router). */
export function routed(r: LooseRouted): Routed {
  return { model: [], user: [], programmatic: [], app: [], appMeta: {}, ...r } as unknown as Routed;
}

export function okOutcome(
  r: LooseRouted,
  p: Partial<CallPlan> = {},
  extra: { isError?: boolean; bytes?: Partial<Record<keyof Routed, number>> } = {},
): CallOutcome {
  const rt = routed(r);
  const size = (v: readonly unknown[]) => (v.length ? Buffer.byteLength(JSON.stringify(v)) : 0);
  return {
    ok: true,
    plan: plan(p),
    isError: extra.isError ?? false,
    routed: rt,
    bytes: {
      model: size(rt.model),
      user: size(rt.user),
      programmatic: size(rt.programmatic),
      app: size(rt.app),
      ...extra.bytes,
    },
    durationMs: 42,
  };
}

// ---------------------------------------------------------------------------
// A real PNG (RGB, 8-bit) from the shared encoder (src/protocol/png.ts), so image decoding is exercised for real.

export function makePng(
  width: number,
  height: number,
  pixel: (x: number, y: number) => [number, number, number],
): Buffer {
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) rgba.set([...pixel(x, y), 255], (y * width + x) * 4);
  return encodePng(width, height, rgba);
}

/** Only the header of a PNG claiming huge dimensions (no pixel data at all). */
export function pngHeaderOnly(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  return Buffer.concat([PNG_SIGNATURE, pngChunk("IHDR", ihdr), pngChunk("IEND", Buffer.alloc(0))]);
}
