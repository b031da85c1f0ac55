// Which wire calls a comparison needs. Modes whose requests are identical (same requestedOutputs,
// same advertised extensions) share one call; a legacy-shaped era reads the legacy client
// profiles from that same call; a 2026-12-01 tool needs one more call on a connection forced to
// 2026-07-28. The count is known before anything runs, so a tool that is not read-only can be
// approved for exactly that many calls.
import { needsApproval } from "../host/call/gate.js";
import type { PlannedRequest } from "../host/host.js";
import { MODES, type CallOptions, type CallOutcome, type Mode, type ToolEntry } from "../host/types.js";

/** What compare needs from a host: the Host satisfies it, and so does the app's command host. */
export interface CompareHost {
  tools(mode: Mode): Promise<ToolEntry[]>;
  requestFor(entry: ToolEntry, mode: Mode): PlannedRequest;
  call(qualifiedName: string, args: Record<string, unknown>, opts?: CallOptions): Promise<CallOutcome>;
}

/** One wire call and the modes it answers (the first is the one it is made in). */
export interface PlannedCall {
  modes: Mode[];
  entry: ToolEntry;
  request: PlannedRequest;
}

export interface ComparePlan {
  server: string;
  tool: string;
  calls: PlannedCall[];
  /** Modes whose listing has no such tool (their rows say so; nothing is sent for them). */
  missing: Mode[];
  /** Where the legacy client profiles come from: the first call's own legacy result, or one more call at 2026-07-28. */
  legacy: "same-call" | "second-connection";
  /** Wire calls in all (the tool runs this many times). */
  callCount: number;
  /** The tool is not marked readOnlyHint: running it needs the user's approval. */
  needsApproval: boolean;
}

/** `find` picks the tool in a mode's listing. No call at all (`calls` empty) means no mode lists it. */
export async function planCompare(
  host: CompareHost,
  find: (tools: ToolEntry[], mode: Mode) => ToolEntry | undefined,
): Promise<ComparePlan> {
  const calls: PlannedCall[] = [];
  const missing: Mode[] = [];
  const byKey = new Map<string, PlannedCall>();
  for (const mode of MODES) {
    const entry = find(await host.tools(mode), mode);
    if (!entry) {
      missing.push(mode);
      continue;
    }
    const request = host.requestFor(entry, mode);
    const key = JSON.stringify([entry.server, entry.name, request.requested ?? null, [...request.advertised].sort()]);
    const same = byKey.get(key);
    if (same) same.modes.push(mode);
    else {
      const planned: PlannedCall = { modes: [mode], entry, request };
      byKey.set(key, planned);
      calls.push(planned);
    }
  }
  const first = calls[0]?.entry;
  const legacy = first?.era === "2026-12-01" ? "second-connection" : "same-call";
  return {
    server: first?.server ?? "",
    tool: first?.name ?? "",
    calls,
    missing,
    legacy,
    callCount: calls.length + (legacy === "second-connection" && first ? 1 : 0),
    needsApproval: calls.some((c) => needsApproval(c.entry)),
  };
}

/** "runs it 3 times: chat, structured (one call), code, … and once at 2026-07-28 for the legacy client profiles". */
export function describePlan(plan: ComparePlan): string {
  const groups = plan.calls.map((c) => c.modes.join("+")).join(", ");
  const legacy =
    plan.legacy === "second-connection"
      ? ", and once more at 2026-07-28 for the legacy client profiles"
      : " (the legacy client profiles read the first result)";
  return `${plan.callCount} call${plan.callCount === 1 ? "" : "s"}: ${groups}${legacy}`;
}
