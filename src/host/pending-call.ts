// One call's state between the steps of Host.call (lookup → check → request → finish), and the
// plans it starts from.
import type { ToolResultOutputSelector } from "../protocol/index.js";
import type { Connection } from "./connection.js";
import type { CallOptions, CallPlan, Mode, ToolEntry } from "./types.js";

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

export function planOf(entry: ToolEntry, conn: Connection, args: Record<string, unknown>, mode: Mode): CallPlan {
  return { server: entry.server, tool: entry.name, args, requested: undefined, era: entry.era, protocolVersion: conn.protocolVersion ?? "", mode };
}

/** The plan of a call whose tool is not (yet) known: `tool` is the name asked for. */
export function unknownPlan(qualifiedName: string, args: Record<string, unknown>, mode: Mode): CallPlan {
  return { server: "", tool: qualifiedName, args, requested: undefined, era: "legacy", protocolVersion: "", mode };
}
