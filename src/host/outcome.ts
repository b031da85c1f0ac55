// A successful call's outcome. `bytes` (per-sink byte counts) serializes every output, so it is
// computed when first read (the app reads it when it draws the call; a script calling in a loop
// may never) and then kept. It is a getter on the prototype: an own accessor added per outcome
// (Object.defineProperty, or a getter in an object literal) cost ~1 µs a call in V8, measured;
// a class instance costs nothing extra. toJSON keeps `bytes` in the JSON of an outcome.
import { sinkBytes } from "./router.js";
import type { CallPlan, HostReceipt, HostWarning, Routed, SinkBytes } from "./types.js";

export class CallSuccess {
  readonly ok = true as const;
  /** Present when the model sink is empty: the host's receipt is what the model gets. */
  declare receipt?: HostReceipt;
  /** What the host did not pass on as it came, and why (e.g. a legacy structuredContent dropped). */
  declare warnings?: HostWarning[];
  /** A legacy result's `_meta`, kept for the record; routed to no sink. */
  declare resultMeta?: Record<string, unknown>;
  #bytes: SinkBytes | undefined;

  constructor(
    readonly plan: CallPlan,
    readonly isError: boolean,
    readonly routed: Routed,
    readonly durationMs: number,
  ) {}

  get bytes(): SinkBytes {
    return (this.#bytes ??= sinkBytes(this.routed));
  }

  toJSON(): Record<string, unknown> {
    const { ok, plan, isError, routed, bytes, receipt, warnings, resultMeta, durationMs } = this;
    const json: Record<string, unknown> = { ok, plan, isError, routed, bytes };
    if (receipt) json.receipt = receipt;
    if (warnings) json.warnings = warnings;
    if (resultMeta) json.resultMeta = resultMeta;
    json.durationMs = durationMs;
    return json;
  }
}
