// The hostile fixture server (test/fixtures/hostile-server.ts) over stdio and HTTP, its canary and
// escape-named tool, and the fault table every hostile test runs through.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ts from "typescript";
import type { ServerConfig } from "../../src/host/config/config.js";
import type { CallOptions } from "../../src/host/types.js";
import { ROOT } from "./host-fixtures.js";
import { waitForListeningUrl } from "./listening.js";

/** Placed in every bad result's payload: it must never show up in any outcome or output. */
export const CANARY = "HOSTILE-CANARY-7f3a";
/** A tool name carrying CSI and OSC sequences. */
export const ESC_NAME = "esc\u001b[31m_red\u001b]0;pwned\u0007";
export const HOSTILE = join(ROOT, "test", "fixtures", "hostile-server.ts");
export const SERVER = "hx";

const source = readFileSync(HOSTILE, "utf8");
if (
  !source.includes(`const CANARY = ${JSON.stringify(CANARY)}`) ||
  !source.includes('const ESC_NAME = "esc\\u001b[31m_red\\u001b]0;pwned\\u0007"')
) {
  throw new Error("test/helpers/hostile.ts: CANARY / ESC_NAME differ from the fixture's");
}

/**
 * The fixture as plain JS (transpiled once per source change): tsx costs ~1 s per process start,
 * and the hostile tests start many processes.
 */
export const HOSTILE_JS: string = (() => {
  const dir = join(tmpdir(), "mcp-prism-hostile");
  const out = join(dir, `hostile-server-${statSync(HOSTILE).mtimeMs}.mjs`);
  if (!existsSync(out)) {
    mkdirSync(dir, { recursive: true });
    const js = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    writeFileSync(`${out}.${process.pid}`, js);
    renameSync(`${out}.${process.pid}`, out); // atomic: test files run in parallel
  }
  return out;
})();

export function hostileStdio(env: Record<string, string> = {}): ServerConfig {
  return { kind: "stdio", command: process.execPath, args: [HOSTILE_JS], env, cwd: ROOT };
}

export async function startHostileHttp(
  env: Record<string, string> = {},
): Promise<{ url: string; close(): Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, [HOSTILE_JS, "--http", "0"], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  const { url } = await waitForListeningUrl(child, "hostile server", 15_000);
  const close = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    await exited;
  };
  return { url, close };
}

export type Transport = "stdio" | "http";

export interface Fault {
  /** The fault, in words (for test names and docs/reliability.md). */
  fault: string;
  tool: string;
  args?: Record<string, unknown>;
  opts?: CallOptions;
  /** --select values for the CLI, matching opts.select. */
  select?: string[];
  rule: string;
  /** The call timeout this fault is tested with (default DEFAULT_TIMEOUT_MS; short for timeout faults). */
  timeoutMs?: number;
  /** What the one line says after "server hx, tool TOOL: ". */
  detail: RegExp;
  transports: Transport[];
}

const BOTH: Transport[] = ["stdio", "http"];
const PROG = [
  { audience: "assistant", format: "content" },
  { audience: "programmatic", format: "structured" },
] as const;

/** Generous, so a loaded machine does not turn slow faults into timeouts. */
export const DEFAULT_TIMEOUT_MS = 20_000;
export const SHORT_TIMEOUT_MS = 2_000;

/** Faults that must be rejected whole. */
export const FAULTS: Fault[] = [
  {
    fault: "an unrequested output",
    tool: "unrequested_output",
    rule: "unrequested-output",
    detail: /programmatic\/structured, which was not requested/,
    transports: BOTH,
  },
  {
    fault: "a missing output",
    tool: "missing_output",
    rule: "missing-output",
    detail: /no output for requested user\/content/,
    transports: BOTH,
  },
  {
    fault: "the same selector twice",
    tool: "duplicate_output",
    rule: "duplicate-output",
    detail: /assistant\/content appears more than once/,
    transports: BOTH,
  },
  {
    fault: "an output with an unknown audience",
    tool: "wrong_audience",
    rule: "malformed-output",
    detail: /outputs\[0\]: audience: audience must be/,
    transports: BOTH,
  },
  {
    fault: "an output in the wrong format (structured for content)",
    tool: "wrong_format",
    rule: "unrequested-output",
    detail: /assistant\/structured, which was not requested/,
    transports: BOTH,
  },
  {
    fault: "structured output violating its schema",
    tool: "schema_violation",
    opts: { select: [...PROG] },
    select: ["assistant/content", "programmatic/structured"],
    rule: "schema-violation",
    detail: /programmatic\/structured: \/items must be array/,
    transports: BOTH,
  },
  {
    fault: "content that is not a block array",
    tool: "content_not_array",
    rule: "malformed-output",
    detail: /outputs\[0\]: content: /,
    transports: BOTH,
  },
  {
    fault: "invalid base64 image data",
    tool: "bad_base64",
    rule: "malformed-output",
    detail: /content\.1\.data: data is not valid base64/,
    transports: BOTH,
  },
  {
    fault: "a PNG header claiming 50,000 × 50,000 pixels",
    tool: "huge_image",
    rule: "image-too-large",
    detail: /user\/content\) content\[0\]: PNG header claims 50000×50000 pixels \(2500\.0 MP; limit 40\.0 MP\)/,
    transports: BOTH,
  },
  {
    fault: "a 20 MB output",
    tool: "huge_output",
    rule: "result-too-large",
    detail: /^result (exceeds|is \d+ bytes, over) the 8388608-byte limit; the read stopped there$/,
    transports: BOTH,
  },
  {
    fault: "a reply that never comes",
    tool: "never_replies",
    rule: "timeout",
    timeoutMs: SHORT_TIMEOUT_MS,
    detail: /no result within 2 s \(request cancelled\)/,
    transports: BOTH,
  },
  {
    fault: "the process exits (stdio) / the connection drops (HTTP) mid-call",
    tool: "exit_mid_call",
    rule: "connection-closed",
    detail: /the server closed the connection during the call|the HTTP connection broke off before the reply ended/,
    transports: BOTH,
  },
  {
    fault: "a reply dripping slower than the timeout",
    tool: "drip",
    args: { msPerByte: 40 },
    rule: "timeout",
    timeoutMs: SHORT_TIMEOUT_MS,
    detail: /no result within 2 s/,
    transports: BOTH,
  },
];
