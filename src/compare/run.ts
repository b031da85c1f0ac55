// Runs a comparison plan: each planned call once, its outcome shown for every mode it answers,
// and the legacy client profiles read from one legacy-shaped result (the first call's own, or
// one more call over a 2026-07-28 connection). The CLI and the app only render what this returns.
import {
  LEGACY_PROFILES,
  MODES,
  type CallOptions,
  type CallOutcome,
  type LegacyProfile,
  type Mode,
  type ToolEntry,
} from "../host/types.js";
import type { CompareHost, ComparePlan } from "./plan.js";
import { failedOutcome } from "../host/host-error.js";
import { unknownPlan } from "../host/call/plan.js";
import { readAs } from "./profiles/index.js";

export interface ModeRow {
  mode: Mode;
  outcome: CallOutcome;
  /** The mode whose call this row reuses (identical request), when it is not its own. */
  sameCallAs?: Mode;
}

export interface ProfileRow {
  profile: LegacyProfile;
  outcome: CallOutcome;
}

export interface CompareRun {
  modes: ModeRow[];
  legacy: ProfileRow[];
  /** Why the legacy rows are missing (e.g. the 2026-07-28 connection could not be made). */
  legacyError?: { rule: string; message: string };
  /** Wire calls actually made. */
  calls: number;
}

export interface CompareOptions {
  /** For a 2026-12-01 tool: the same call over a connection forced to 2026-07-28 (LegacyConnections.call). Rejects with a one-line reason. */
  legacy?: (tool: ToolEntry, args: Record<string, unknown>, opts: CallOptions) => Promise<CallOutcome>;
  /** The host's own legacy profile (the mode rows of a legacy-shaped era read the result under it). */
  profile?: LegacyProfile;
  signal?: AbortSignal;
  /** Called as each call ends (the app shows progress). */
  onCall?: (modes: Mode[], outcome: CallOutcome) => void;
}

export async function runCompare(
  host: CompareHost,
  plan: ComparePlan,
  args: Record<string, unknown>,
  o: CompareOptions = {},
): Promise<CompareRun> {
  const run: CompareRun = { modes: [], legacy: [], calls: 0 };
  const profile = o.profile ?? "sep";
  for (const c of plan.calls) {
    if (o.signal?.aborted) break;
    // Bound to the entry the plan was made for: a name that moved meanwhile is refused, not run elsewhere.
    const opts: CallOptions = {
      mode: c.modes[0],
      signal: o.signal,
      target: { server: c.entry.server, tool: c.entry.name },
    };
    let outcome = await host.call(c.entry.qualifiedName, args, opts);
    if (plan.legacy === "same-call" && run.calls === 0) {
      // A legacy-shaped result: the mode rows (under the host's profile) and every client profile read the one reply.
      run.legacy = profileRows(outcome);
      outcome = readAs(profile, outcome);
    }
    run.calls++;
    o.onCall?.(c.modes, outcome);
    c.modes.forEach((mode, i) => run.modes.push({ mode, outcome, ...(i > 0 ? { sameCallAs: c.modes[0] } : {}) }));
  }
  for (const mode of plan.missing) {
    const plannedFor = { ...unknownPlan(plan.tool, args, mode), server: plan.server };
    run.modes.push({
      mode,
      outcome: failedOutcome(
        plannedFor,
        "unknown-tool",
        `no tool named ${JSON.stringify(plan.tool)} in the ${mode} mode's listing`,
      ),
    });
  }
  run.modes.sort((a, b) => MODES.indexOf(a.mode) - MODES.indexOf(b.mode));
  if (plan.legacy === "second-connection" && !o.signal?.aborted) {
    if (!o.legacy)
      run.legacyError = { rule: "legacy-unavailable", message: "legacy client profiles: not available here" };
    else {
      try {
        const outcome = await o.legacy(plan.calls[0].entry, args, { signal: o.signal });
        run.calls++;
        run.legacy = profileRows(outcome);
      } catch (e) {
        const err = e as { rule?: unknown; message?: unknown };
        run.legacyError = {
          rule: typeof err.rule === "string" ? err.rule : "legacy-unavailable",
          message: String(err.message ?? e),
        };
      }
    }
  }
  return run;
}

/** One legacy-shaped outcome read under every client profile (a failure is every profile's row). */
function profileRows(outcome: CallOutcome): ProfileRow[] {
  return LEGACY_PROFILES.map((profile) => ({ profile, outcome: readAs(profile, outcome) }));
}
