// Which tools the model never sees, without the tools/list machinery (protocol schemas, Ajv):
// the UI and the turn loop need only this, and they load before the app's first frame.
import type { ToolEntry } from "../types.js";

/** App-only tools (`_meta.ui.visibility: ["app"]`) are never exposed to the model. */
export function isAppOnly(t: ToolEntry): boolean {
  const vis = (t._meta?.ui as { visibility?: unknown } | undefined)?.visibility;
  return Array.isArray(vis) && vis.length > 0 && !vis.includes("model");
}

/** Tools offered to the model: not App-only, and not unavailable (e.g. one that runs only as a task). */
export function offeredToModel(t: ToolEntry): boolean {
  return t.unavailable === undefined && !isAppOnly(t);
}

/**
 * The tool's MCP Apps View resource (`_meta.ui.resourceUri`, or the older flat
 * `_meta["ui/resourceUri"]`), when it is a `ui://` URI of bounded length.
 */
export function appResourceUri(t: Pick<ToolEntry, "_meta">): string | undefined {
  const ui = t._meta?.ui as { resourceUri?: unknown } | undefined;
  const uri = ui?.resourceUri ?? t._meta?.["ui/resourceUri"];
  return typeof uri === "string" && uri.startsWith("ui://") && uri.length <= 4096 ? uri : undefined;
}

/** May a View call this tool back? Its `_meta.ui.visibility` includes "app" (absent: model and app, per the spec). */
export function callableFromApp(t: Pick<ToolEntry, "_meta">): boolean {
  const vis = (t._meta?.ui as { visibility?: unknown } | undefined)?.visibility;
  return vis === undefined || (Array.isArray(vis) && vis.includes("app"));
}
