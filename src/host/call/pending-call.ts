// One call's state between the steps of Host.call (lookup → check → request → finish), and the
// plans it starts from.
import type { ToolResultOutputSelector } from "../../protocol/index.js";
import type { Connection } from "../connection/connection.js";
import type { CallOptions, CallPlan, Mode, ToolEntry } from "../types.js";
import { planOf, unknownPlan } from "./plan.js";

export interface PendingCall {
  started: number;
  plan: CallPlan;
  opts: CallOptions;
  entry: ToolEntry;
  conn: Connection;
  /** What the result must answer (2026-12-01): the requested selectors, or the fallback. */
  effective: ToolResultOutputSelector[];
  /** Extensions negotiated and requested: their outputs and `_meta` may reach the App sink. */
  appExtensions: string[];
  /** The server's tools were listed again after a HeaderMismatch (once per call). */
  relisted: boolean;
}

export function connectedPlan(entry: ToolEntry, conn: Connection, args: Record<string, unknown>, mode: Mode): CallPlan {
  return planOf(entry, args, mode, conn.protocolVersion ?? "");
}

export { unknownPlan };
