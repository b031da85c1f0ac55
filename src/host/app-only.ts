// Which tools the model never sees, without the tools/list machinery (protocol schemas, Ajv):
// the UI and the turn loop need only this, and they load before the app's first frame.
import type { ToolEntry } from "./types.js";

/** App-only tools (`_meta.ui.visibility: ["app"]`) are never exposed to the model. */
export function isAppOnly(t: ToolEntry): boolean {
  const vis = (t._meta?.ui as { visibility?: unknown } | undefined)?.visibility;
  return Array.isArray(vis) && vis.length > 0 && !vis.includes("model");
}

/** Tools offered to the model: not App-only, and not unavailable (e.g. one that runs only as a task). */
export function offeredToModel(t: ToolEntry): boolean {
  return t.unavailable === undefined && !isAppOnly(t);
}
