// A tool's selection in a mode — the mode policy's requestedOutputs, or the caller's — with its
// local check and the requested extensions that were negotiated.
import { checkSelection, effectiveSelection, type ToolResultOutputSelector } from "../../protocol/index.js";
import { policyFor, selectOutputs } from "../policy/index.js";
import type { Mode, ToolEntry } from "../types.js";
import { requestedExtensions } from "../result/validate.js";

export interface Selection {
  requested: ToolResultOutputSelector[] | undefined;
  /** What the result must answer: `requested`, or the fallback when none is sent. */
  effective: ToolResultOutputSelector[];
  issue: ReturnType<typeof checkSelection>;
  extensions: string[];
}

/** A selection (the caller's or the mode's), its local check and its negotiated extensions. */
export function selectionOf(
  requested: ToolResultOutputSelector[] | undefined,
  entry: ToolEntry,
  negotiated: ReadonlySet<string>,
): Selection {
  const effective = effectiveSelection(requested);
  return {
    requested,
    effective,
    issue: checkSelection(requested, entry.variants, negotiated),
    extensions: requestedExtensions(effective).filter((x) => negotiated.has(x)),
  };
}

/** The mode's own selection for a tool and its local check. */
export function modeSelection(entry: ToolEntry, mode: Mode, negotiated: ReadonlySet<string>): Selection {
  return selectionOf(selectOutputs(policyFor(mode), entry.variants, negotiated, entry.declined), entry, negotiated);
}
