// `tools.<name>(args)` inside a script, answered through the host's normal call path: Host.call
// with requestedOutputs [programmatic/structured] (lookup, validation, routing), after the same
// approval a direct call gets (a tool not marked readOnlyHint asks, unless --yes). The script gets
// that output's structuredContent; an isError result or a refused call is a ToolError
// {server, tool, rule, message}. Tools without a programmatic/structured variant are left out.
import { CallGate } from "../host/call/gate.js";
import { P_STRUCTURED } from "../host/policy/types.js";
import type { CallOptions, CallOutcome, ToolEntry } from "../host/types.js";
import { isObject } from "../protocol/is-object.js";
import { Sandbox, type CallAnswer, type CallFailure, type RunResult, type SandboxLimits } from "./runner.js";

/** What a script may call: the host (or anything with its call path). */
export interface CodeHost {
  modelTools(): ToolEntry[];
  call(qualifiedName: string, args: Record<string, unknown>, opts?: CallOptions): Promise<CallOutcome>;
}

/** One call a script made: what it asked, the host's outcome, and the size handed to the script. */
export interface InnerCall {
  tool: string;
  server: string;
  args: Record<string, unknown>;
  outcome?: CallOutcome;
  /** Characters of JSON the script received (0 on a failure). */
  bytes: number;
  error?: CallFailure;
}

export interface ScriptRun extends RunResult {
  calls: InnerCall[];
}

export interface ScriptOptions {
  /** The call gate (host/call): a tool not marked read-only is asked or refused there. None: refused. */
  gate?: Pick<CallGate, "approve">;
  signal?: AbortSignal;
  limits?: Partial<SandboxLimits>;
  /** Each inner call as it ends (the app draws it and logs its programmatic output). */
  onCall?: (c: InnerCall) => void;
}

const isProgrammaticStructured = (v: { audience: string; format: string }) => v.audience === P_STRUCTURED.audience && v.format === P_STRUCTURED.format;

/** The tools a script can call: those whose declared variants include programmatic/structured. */
export function scriptTools(tools: readonly ToolEntry[]): ToolEntry[] {
  return tools.filter((t) => t.era === "2026-12-01" && t.unavailable === undefined && t.variants.some(isProgrammaticStructured));
}

const REFUSING = new CallGate();

/** The one sandbox of a process, started on first use. */
let shared: Sandbox | undefined;
export function sharedSandbox(): Sandbox {
  return (shared ??= new Sandbox());
}

/** Runs a script against the host's tools; never rejects. */
export async function runScript(host: CodeHost, code: string, opts: ScriptOptions = {}, sandbox: Sandbox = sharedSandbox()): Promise<ScriptRun> {
  const offered = new Map(scriptTools(host.modelTools()).map((t) => [t.qualifiedName, t]));
  const calls: InnerCall[] = [];
  const call = async (name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallAnswer> => {
    const entry = offered.get(name) as ToolEntry;
    const record: InnerCall = { tool: entry.name, server: entry.server, args, bytes: 0 };
    calls.push(record);
    const fail = (rule: string, message: string): CallAnswer => {
      record.error = { server: entry.server, tool: entry.name, rule, message };
      opts.onCall?.(record);
      return { ok: false, error: record.error };
    };
    const approval = await (opts.gate ?? REFUSING).approve(entry, { name, args, source: "script" }, opts.signal);
    if (!approval.ok) {
      return fail("declined", `${entry.name} is not marked read-only and was not approved`);
    }
    const both = opts.signal ? AbortSignal.any([signal, opts.signal]) : signal;
    const outcome = await host.call(name, args, { select: [P_STRUCTURED], signal: both, target: { server: entry.server, tool: entry.name } });
    record.outcome = outcome;
    if (!outcome.ok) return fail(outcome.error.rule, outcome.error.message);
    const out = outcome.routed.programmatic.find((o) => o.format === "structured");
    const value = out && "structuredContent" in out ? out.structuredContent : undefined;
    if (outcome.isError) return fail("tool-error", errorMessage(value) ?? `${entry.name} reported an error`);
    if (value === undefined) return fail("no-programmatic-output", `${entry.name} returned no programmatic/structured output`);
    record.bytes = JSON.stringify(value).length;
    opts.onCall?.(record);
    return { ok: true, value };
  };
  const result = await sandbox.run(code, { tools: [...offered.keys()], call, limits: opts.limits, signal: opts.signal });
  return { ...result, calls };
}

/** A tool error's own message, when its programmatic output carries one as `error.message` or `message`. */
function errorMessage(v: unknown): string | undefined {
  if (!isObject(v)) return undefined;
  const inner = isObject(v.error) ? v.error.message : v.message;
  return typeof inner === "string" ? inner.slice(0, 500) : undefined;
}
