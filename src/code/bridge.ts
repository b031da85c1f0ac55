// `tools.<name>(args)` inside a script, answered through the host's normal call path: Host.call
// (lookup, validation, routing), after the same approval a direct call gets (a tool not marked
// readOnlyHint asks, unless --yes). What the script gets depends on the tool's kind
// (script-kinds.ts): programmatic/structured, outputSchema-validated structuredContent, or
// {text, content}; an isError result or a refused call is a ToolError {server, tool, rule, message}.
import { CallGate } from "../host/call/gate.js";
import type { CallOptions, CallOutcome, ToolEntry } from "../host/types.js";
import { scriptKind, scriptTools, scriptValue, selectionFor } from "./script-kinds.js";
import { displayed, DISPLAY, SEARCH } from "./script-extras.js";
import { searchTools } from "./search.js";
import type { Routed } from "../host/types.js";
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
  /** An image the script handed to the user (`display`), routed to the user sink. */
  onDisplay?: (routed: Routed) => void;
}

export { scriptTools };

const REFUSING = new CallGate();

/** The one sandbox of a process, started on first use. */
let shared: Sandbox | undefined;
export function sharedSandbox(): Sandbox {
  return (shared ??= new Sandbox());
}

/** Runs a script against the host's tools; never rejects. */
export async function runScript(
  host: CodeHost,
  code: string,
  opts: ScriptOptions = {},
  sandbox: Sandbox = sharedSandbox(),
): Promise<ScriptRun> {
  const listed = scriptTools(host.modelTools()).filter((t) => t.qualifiedName !== SEARCH);
  const offered = new Map(listed.map((t) => [t.qualifiedName, t]));
  const calls: InnerCall[] = [];
  const call = async (name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallAnswer> => {
    if (name === SEARCH)
      return { ok: true, value: searchTools(listed, typeof args.query === "string" ? args.query : "") };
    if (name === DISPLAY) return displayed(args, opts.onDisplay);
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
    const kind = scriptKind(entry) ?? "text";
    const select = selectionFor(entry, kind);
    const outcome = await host.call(name, args, {
      ...(select ? { select } : {}),
      signal: both,
      target: { server: entry.server, tool: entry.name },
    });
    record.outcome = outcome;
    if (!outcome.ok) return fail(outcome.error.rule, outcome.error.message);
    const got = scriptValue(entry, kind, outcome);
    if (!got.ok) return fail(got.rule, got.message);
    record.bytes = JSON.stringify(got.value).length;
    opts.onCall?.(record);
    return { ok: true, value: got.value };
  };
  const result = await sandbox.run(code, {
    tools: [...offered.keys(), SEARCH],
    call,
    limits: opts.limits,
    signal: opts.signal,
  });
  return { ...result, calls };
}
