// The ONLY writer of sinks: turns validated, audience-tagged outputs into a Routed value.
// Routing follows the output-level audience alone (never block annotations, never the format).
import { isExtensionAudience, type ToolResultOutput } from "../protocol/index.js";
import { jsonBytes } from "./measure.js";
import type { AppSinkEntry, ModelSinkEntry, ProgrammaticSinkEntry, Routed, SinkBytes, SinkName, UserSinkEntry } from "./types.js";

export class RoutingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RoutingError";
  }
}

export interface RouteContext {
  /** Extensions negotiated for this request AND requested: only their outputs and `_meta` reach the App sink. */
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

/** Every empty sink of every routed result: nothing writes to a Routed value after route(). */
const NO_ENTRIES: readonly never[] = Object.freeze([]);
const NO_META: Readonly<Record<string, unknown>> = Object.freeze({});

/** An array to be filled with exactly `length` entries, in order. */
function sized<T>(length: number): T[] {
  return length === 0 ? (NO_ENTRIES as unknown as T[]) : new Array<T>(length);
}

/**
 * Routes every output to the sink of its audience. An output whose audience has no sink here
 * (e.g. an extension that was not negotiated) is an error: validation should have rejected it,
 * and nothing may be dropped or substituted silently.
 */
export function route(outputs: readonly ToolResultOutput[], ctx: RouteContext): Routed {
  // Every call routes. Counting first lets each sink array be made with its final length (a first
  // push would give it room for 17 entries), and an empty sink is the shared frozen array.
  let models = 0;
  let users = 0;
  let programmatics = 0;
  let apps = 0;
  for (let i = 0; i < outputs.length; i++) {
    const sink = sinkOf(outputs[i], ctx);
    if (sink === "model") models++;
    else if (sink === "user") users++;
    else if (sink === "programmatic") programmatics++;
    else apps++;
  }
  const model = sized<ModelSinkEntry>(models);
  const user = sized<UserSinkEntry>(users);
  const programmatic = sized<ProgrammaticSinkEntry>(programmatics);
  const app = sized<AppSinkEntry>(apps);
  // Filled from the last output back, each at its sink's count less one: the order is kept.
  for (let i = outputs.length - 1; i >= 0; i--) {
    const out = outputs[i];
    const sink = sinkOf(out, ctx);
    if (sink === "model") model[--models] = out as ModelSinkEntry;
    else if (sink === "user") user[--users] = out as UserSinkEntry;
    else if (sink === "programmatic") programmatic[--programmatics] = out as ProgrammaticSinkEntry;
    else app[--apps] = out as AppSinkEntry;
  }
  let appMeta = NO_META;
  for (const ext of ctx.appExtensions) {
    const entry = ctx.meta?.[ext];
    if (entry === undefined) continue;
    if (appMeta === NO_META) appMeta = {};
    (appMeta as Record<string, unknown>)[ext] = entry;
  }
  return { model, user, programmatic, app, appMeta };
}

export function sinkBytes(routed: Routed): SinkBytes {
  const size = (xs: readonly unknown[]) => xs.reduce<number>((n, x) => n + jsonBytes(x), 0);
  return {
    model: size(routed.model),
    user: size(routed.user),
    programmatic: size(routed.programmatic),
    app: size(routed.app) + (Object.keys(routed.appMeta).length ? size([routed.appMeta]) : 0),
  };
}
