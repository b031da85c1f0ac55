// A tool's selection in a mode — the mode policy's requestedOutputs, or the caller's — with its
// local check and the requested extensions that were negotiated. The mode's own selection is
// computed once per (tool listing entry, mode) while the negotiated Set is the same object.
import { checkSelection, effectiveSelection, type ToolResultOutputSelector } from "../protocol/index.js";
import { policyFor, selectOutputs } from "./policy/index.js";
import type { Mode, ToolEntry } from "./types.js";
import { requestedExtensions } from "./validate.js";

export interface Selection {
  requested: ToolResultOutputSelector[] | undefined;
  /** What the result must answer: `requested`, or the fallback when none is sent. */
  effective: ToolResultOutputSelector[];
  issue: ReturnType<typeof checkSelection>;
  extensions: string[];
}

/** A selection (the caller's or the mode's), its local check and its negotiated extensions. */
export function selectionOf(requested: ToolResultOutputSelector[] | undefined, entry: ToolEntry, negotiated: ReadonlySet<string>): Selection {
  const effective = effectiveSelection(requested);
  return { requested, effective, issue: checkSelection(requested, entry.variants, negotiated), extensions: requestedExtensions(effective).filter((x) => negotiated.has(x)) };
}

export class SelectionCache {
  private readonly byEntry = new WeakMap<ToolEntry, Map<Mode, { negotiated: ReadonlySet<string>; selection: Selection }>>();

  /** The mode's own selection for a tool and its local check. */
  forMode(entry: ToolEntry, mode: Mode, negotiated: ReadonlySet<string>): Selection {
    let byMode = this.byEntry.get(entry);
    if (!byMode) this.byEntry.set(entry, (byMode = new Map()));
    // The connection hands out the same negotiated Set while nothing changed (a reconnect makes
    // a new one), so the cache holds while the Set is the same object.
    const hit = byMode.get(mode);
    if (hit?.negotiated === negotiated) return hit.selection;
    const selection = selectionOf(selectOutputs(policyFor(mode), entry.variants, negotiated, entry.declined), entry, negotiated);
    byMode.set(mode, { negotiated, selection });
    return selection;
  }
}
