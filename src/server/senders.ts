// What a request may send back while it runs: progress for its token, and logs at or above its
// level (the modern request's `_meta` logLevel, or the legacy session's logging/setLevel).
import { META } from "../protocol/index.js";
import { isObject } from "../protocol/is-object.js";
import type { CallEnvironment } from "./call.js";
import type { RequestContext } from "./engine.js";
import { LOG_LEVELS, type LogLevel } from "./tool.js";

type Params = Record<string, unknown>;

/** notifications/progress for the request's progressToken, strictly increasing; no token → no-op. */
export function progressSender(p: Params, ctx: RequestContext): CallEnvironment["progress"] {
  const meta = isObject(p._meta) ? p._meta : {};
  const token = meta.progressToken;
  let last = -Infinity;
  return async (progress, total, message) => {
    if ((typeof token !== "string" && typeof token !== "number") || progress <= last || ctx.signal.aborted) return;
    last = progress;
    const params: Record<string, unknown> = { progressToken: token, progress };
    if (total !== undefined) params.total = total;
    if (message !== undefined) params.message = message;
    await ctx.notify({ method: "notifications/progress", params });
  };
}

/** The request's minimum log level (modern `_meta` logLevel); undefined = send no logs. */
export function requestedLogLevel(params: unknown): LogLevel | undefined {
  const meta = isObject(params) && isObject(params._meta) ? params._meta : undefined;
  const level = meta?.[META.logLevel];
  return (LOG_LEVELS as readonly unknown[]).includes(level) ? (level as LogLevel) : undefined;
}

/**
 * notifications/message at or above `min`: the modern request's `_meta` logLevel, or the legacy
 * session's logging/setLevel. No level → no-op (for a modern request, a MUST NOT).
 */
export function logSender(min: LogLevel | undefined, ctx: RequestContext): CallEnvironment["log"] {
  return async (level, data, logger) => {
    if (min === undefined || LOG_LEVELS.indexOf(level) < LOG_LEVELS.indexOf(min) || ctx.signal.aborted) return;
    const params: Record<string, unknown> = { level, data };
    if (logger !== undefined) params.logger = logger;
    await ctx.notify({ method: "notifications/message", params });
  };
}
