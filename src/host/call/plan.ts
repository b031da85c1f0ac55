// The one plan builder: every CallPlan (what a call is, for cards, errors and the transcript)
// is made here, from the tool's entry when it is known.
import type { CallPlan, Mode, ToolEntry } from "../types.js";

/** The plan of a call of a listed tool; `protocolVersion` is the connection's, when known. */
export function planOf(entry: ToolEntry, args: Record<string, unknown>, mode: Mode, protocolVersion = ""): CallPlan {
  return { server: entry.server, tool: entry.name, args, requested: undefined, era: entry.era, protocolVersion, mode };
}

/** The plan of a call whose tool is not (yet) known: `tool` is the name asked for. */
export function unknownPlan(qualifiedName: string, args: Record<string, unknown>, mode: Mode): CallPlan {
  return { server: "", tool: qualifiedName, args, requested: undefined, era: "legacy", protocolVersion: "", mode };
}

/** The plan for a call that may name a listed tool or not. */
export function planFor(
  entry: ToolEntry | undefined,
  name: string,
  args: Record<string, unknown>,
  mode: Mode,
): CallPlan {
  return entry ? planOf(entry, args, mode) : unknownPlan(name, args, mode);
}
