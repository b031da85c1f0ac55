// The transcript's record format: what the app's store (ui/state.ts) and the recorder of the
// commands without the app (./recorder.ts) write, and a call's outcome as such a record (the
// host's CallOutcome, made plain JSON).
import type { CallOutcome } from "../types.js";

/**
 * One transcript event (a JSON Lines record): user turns and commands (`user`), tool requests
 * (`request`) and their routed outputs per sink or error (`tool`), model replies (`assistant`),
 * notices and errors (`notice`), mode changes (`mode`), `clear`, and `session` start/end.
 */
export interface TranscriptRecord {
  kind: string;
  at: string;
  turn?: number;
  [key: string]: unknown;
}

/**
 * A call's outcome as a transcript record: what was requested, and each sink's outputs or the
 * error; the host's warnings, and a legacy result's `_meta` (kept for the record, in no sink).
 */
export function outcomeRecord(o: CallOutcome): Record<string, unknown> {
  return {
    server: o.plan.server,
    tool: o.plan.tool,
    arguments: o.plan.args,
    mode: o.plan.mode,
    protocolVersion: o.plan.protocolVersion,
    requestedOutputs: o.plan.requested ?? null,
    ...(o.plan.legacyProfile ? { legacyProfile: o.plan.legacyProfile } : {}),
    durationMs: Math.round(o.durationMs),
    ...(o.ok
      ? {
          isError: o.isError,
          bytes: o.bytes,
          routed: o.routed,
          ...(o.receipt ? { receipt: o.receipt.text } : {}),
          ...(o.warnings ? { warnings: o.warnings } : {}),
          ...(o.resultMeta ? { resultMeta: o.resultMeta } : {}),
        }
      : { error: o.error }),
  };
}
