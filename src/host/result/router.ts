// The ONLY writer of sinks: turns validated, audience-tagged outputs into a Routed value.
// Routing follows the output-level audience alone (never block annotations, never the format).
// audience.js, not the index: the router also runs in the first-frame bundle (compare's readAs) without zod.
import { isExtensionAudience } from "../../protocol/audience.js";
import { extensionOfAudience } from "../../protocol/extension-audiences.js";
import type { ToolResultOutput } from "../../protocol/index.js";
import { measureSinks } from "./measure.js";
import type {
  AppSinkEntry,
  ModelSinkEntry,
  ProgrammaticSinkEntry,
  Routed,
  SinkBytes,
  SinkName,
  UserSinkEntry,
  ViewProjection,
  ViewSinkEntry,
} from "../types.js";

export class RoutingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RoutingError";
  }
}

export interface RouteContext {
  /** Extension audiences negotiated for this request AND requested: only their outputs and their extensions' `_meta` reach the App sink. */
  appExtensions: readonly string[];
  /** The result's `_meta` (only the negotiated extensions' namespaced entries are forwarded). */
  meta?: Record<string, unknown>;
}

/** The sink an output's audience routes it to; throws for an audience no sink takes here. */
function sinkOf(out: ToolResultOutput, ctx: RouteContext): SinkName {
  if (out.audience === "assistant") return "model";
  if (out.audience === "user") return "user";
  if (out.audience === "programmatic" && out.format === "structured") return "programmatic";
  if (isExtensionAudience(out.audience) && ctx.appExtensions.includes(out.audience)) return "app";
  throw new RoutingError(`no sink for ${out.audience}/${out.format}`);
}

/**
 * Routes every output to the sink of its audience. An output whose audience has no sink here
 * (e.g. an extension that was not negotiated) is an error: validation should have rejected it,
 * and nothing may be dropped or substituted silently.
 */
export function route(outputs: readonly ToolResultOutput[], ctx: RouteContext): Routed {
  const model: ModelSinkEntry[] = [];
  const user: UserSinkEntry[] = [];
  const programmatic: ProgrammaticSinkEntry[] = [];
  const app: AppSinkEntry[] = [];
  for (const out of outputs) {
    const sink = sinkOf(out, ctx);
    if (sink === "model") model.push(out as ModelSinkEntry);
    else if (sink === "user") user.push(out as UserSinkEntry);
    else if (sink === "programmatic") programmatic.push(out as ProgrammaticSinkEntry);
    else app.push(out as AppSinkEntry);
  }
  const appMeta: Record<string, unknown> = {};
  // An extension's namespaced `_meta` entry is keyed by its id, which an additional audience names through the registry.
  for (const ext of new Set(ctx.appExtensions.map(extensionOfAudience))) {
    const entry = ctx.meta?.[ext];
    if (entry !== undefined) appMeta[ext] = entry;
  }
  return { model, user, programmatic, app, appMeta };
}

/**
 * The model sink of an earlier run, read back from its session transcript (a resumed session):
 * assistant-audience outputs only, branded again as the router branded them then.
 */
export function restoreModelSink(outputs: readonly ToolResultOutput[]): ModelSinkEntry[] {
  return outputs.map((out) => {
    if (out.audience !== "assistant") throw new RoutingError(`no model sink for ${out.audience}/${out.format}`);
    return out as ModelSinkEntry;
  });
}

/** Each sink's size: the one measure (measure.ts), so card, `call`, `compare` and receipts agree. */
export function sinkBytes(routed: Routed): SinkBytes {
  const s = measureSinks(routed);
  return { model: s.model.bytes, user: s.user.bytes, programmatic: s.programmatic.bytes, app: s.app.bytes };
}

/**
 * The View sink: what crosses into an MCP Apps View for one call, built from the App sink of
 * `audience` alone (never the model, user or programmatic sinks, never other `_meta`). `result`:
 * a reduced CallToolResult, as App SDKs read one (structuredContent from the structured output,
 * content from the content output, else `content: []`; the extension's namespaced result `_meta`);
 * `output`: the first output object of the audience as it came.
 */
export function toView(routed: Routed, audience: string, projection: ViewProjection, isError = false): ViewSinkEntry {
  const mine = routed.app.filter((o) => o.audience === audience);
  const meta = routed.appMeta[audience];
  if (projection === "output") {
    const first = mine[0];
    return { projection, payload: first ? { ...first } : {} } as ViewSinkEntry;
  }
  const payload: Record<string, unknown> = { content: [] };
  for (const o of mine) {
    if (o.format === "structured" && payload.structuredContent === undefined)
      payload.structuredContent = o.structuredContent;
    else if (o.format === "content" && (payload.content as unknown[]).length === 0) payload.content = o.content;
  }
  if (isError) payload.isError = true;
  if (meta !== undefined) payload._meta = { [audience]: meta };
  return { projection, payload } as ViewSinkEntry;
}
