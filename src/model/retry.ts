// Retries of a model request, the same for every provider: ours, not the SDKs' (they get
// maxRetries 0), so each wait is an event the app shows in its status bar and -p on stderr.
// Only a request that has streamed nothing is retried: rate limits, overload and 5xx, request
// timeouts and conflicts, connection failures. A `retry-after` (or `retry-after-ms`) is honoured
// up to MAX_RETRY_WAIT_MS; one asking longer fails at once. Otherwise the wait doubles from 0.5 s
// up to 8 s.
import { ModelError, type ModelStreamEvent } from "./adapter.js";

/** The longest single wait a `retry-after` may ask for; a longer one fails at once. */
export const MAX_RETRY_WAIT_MS = 30_000;

export interface RetryOptions {
  maxRetries: number;
  signal?: AbortSignal;
  /** How a wait is taken (tests pass their own to observe the delays); default a timer Esc cuts short. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** The failure as one line; `retried`: how many retries were made before it (0: none). */
  explain: (e: unknown, retried: number) => ModelError;
  /**
   * A failure the adapter mends itself before any wait (the OpenAI adapter drops tools for a model
   * without them): the event to show, and the request goes again at once; undefined: not this one.
   */
  mend?: (err: ModelError) => ModelStreamEvent | undefined;
}

/** Runs `once` and retries it as above; every event of the attempt that succeeds is passed on. */
export async function* withRetries(
  once: () => AsyncIterable<ModelStreamEvent>,
  o: RetryOptions,
): AsyncIterable<ModelStreamEvent> {
  for (let attempt = 0; ; attempt++) {
    let streamed = false;
    try {
      for await (const ev of once()) {
        streamed = true;
        yield ev;
      }
      return;
    } catch (e) {
      const first = o.explain(e, attempt);
      const mended = streamed ? undefined : o.mend?.(first);
      if (mended) {
        yield mended;
        attempt--;
        continue;
      }
      const wait = streamed || o.signal?.aborted ? undefined : retryWait(e, first, attempt, o.maxRetries);
      if (wait === undefined) throw first;
      yield {
        type: "retry",
        text: first.message,
        reason: shortReason(e, first),
        waitMs: wait,
        attempt: attempt + 1,
        of: o.maxRetries,
      };
      await (o.sleep ?? sleep)(wait, o.signal);
      if (o.signal?.aborted) throw new ModelError("aborted", "cancelled");
    }
  }
}

/** How long to wait before retry `attempt + 1`, or undefined when this failure is not retried. */
export function retryWait(e: unknown, err: ModelError, attempt: number, maxRetries: number): number | undefined {
  if (attempt >= maxRetries) return undefined;
  const status = (e as { status?: unknown })?.status;
  const retryable =
    err.kind === "rate-limit" ||
    err.kind === "overloaded" ||
    err.kind === "network" ||
    status === 408 ||
    status === 409 ||
    (typeof status === "number" && status >= 500);
  if (!retryable) return undefined;
  const asked = retryAfterMs((e as { headers?: Headers })?.headers);
  if (asked !== undefined) return asked <= MAX_RETRY_WAIT_MS ? asked : undefined;
  return Math.min(500 * 2 ** attempt, 8_000);
}

/** A few words for the status bar: "rate-limited (429)", "overloaded (529)", "cannot connect". */
export function shortReason(e: unknown, err: ModelError): string {
  const status = (e as { status?: unknown })?.status;
  const words =
    err.kind === "rate-limit"
      ? "rate-limited"
      : err.kind === "overloaded"
        ? "overloaded"
        : err.kind === "network"
          ? "cannot connect"
          : "failed";
  return typeof status === "number" ? `${words} (${status})` : words;
}

/** `retry-after-ms`, `retry-after` (seconds or an HTTP date), in ms. */
export function retryAfterMs(headers: Headers | undefined, now = Date.now()): number | undefined {
  const ms = Number(headers?.get?.("retry-after-ms"));
  if (headers?.get?.("retry-after-ms") && Number.isFinite(ms) && ms >= 0) return ms;
  const v = headers?.get?.("retry-after");
  if (!v) return undefined;
  const s = Number(v);
  if (Number.isFinite(s) && s >= 0) return s * 1000;
  const at = Date.parse(v);
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}

/** " after 2 retries" once any were made, else "". */
export function afterRetries(retried: number): string {
  return retried > 0 ? ` after ${retried} retr${retried === 1 ? "y" : "ies"}` : "";
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}
