// Where "the model / a user / a script / a View wants tool X" becomes an outcome: the gate, the
// plan, the call pinned to the tool that was approved, and the observer events (`started`,
// `progress`, `ended`) that the app draws cards from and a transcript recorder can write.
import type { CallOptions, CallOutcome, CallPlan, ProgressUpdate, ToolEntry } from "../types.js";
import { failedOutcome } from "../host-error.js";
import type { CallGate, CallSource } from "./gate.js";
import { planFor } from "./plan.js";

export interface CallStarted {
  id: number;
  source: CallSource;
  server: string;
  tool: string;
  args: Record<string, unknown>;
}

export interface CallObserver {
  started?(e: CallStarted): void;
  progress?(id: number, p: ProgressUpdate): void;
  ended?(id: number, outcome: CallOutcome): void;
}

/** What the lifecycle runs a call with: the host's call path (Host.call, or an executor's). */
export type CallPath = (
  qualifiedName: string,
  args: Record<string, unknown>,
  opts: CallOptions,
) => Promise<CallOutcome>;

export interface CallRequest {
  source: CallSource;
  /** The qualified name asked for. */
  name: string;
  args: Record<string, unknown>;
  /** The listed tool it names, when known: the call is pinned to it. */
  entry?: ToolEntry;
  opts?: CallOptions;
  /** The call path for this call, when not the lifecycle's own (a turn's executor). */
  via?: CallPath;
  /** What else the approval question says. */
  detail?: string;
}

/** A thrown call path as an ordinary failed outcome (the card ends, the caller gets data). */
export function thrownOutcome(plan: CallPlan, e: unknown): CallOutcome {
  const why = String((e as Error)?.message ?? e)
    .split("\n")[0]
    .slice(0, 200);
  return failedOutcome(plan, "host-error", `the host failed running the call (${why})`);
}

export class CallLifecycle {
  private readonly observers = new Set<CallObserver>();
  private next = 1;

  constructor(
    readonly gate: CallGate,
    private readonly path?: CallPath,
  ) {}

  /** Observes every call from now on; returns the unsubscribe. */
  observe(o: CallObserver): () => void {
    this.observers.add(o);
    return () => this.observers.delete(o);
  }

  private emit<K extends keyof CallObserver>(k: K, ...a: Parameters<NonNullable<CallObserver[K]>>): void {
    for (const o of this.observers) {
      try {
        (o[k] as ((...x: unknown[]) => void) | undefined)?.(...a);
      } catch {
        // an observer's failure never changes a call's outcome
      }
    }
  }

  async run(req: CallRequest): Promise<CallOutcome> {
    const { entry, args } = req;
    const opts = req.opts ?? {};
    const plan = planFor(entry, req.name, args, opts.mode ?? "chat");
    const approval = await this.gate.approve(
      entry,
      { name: req.name, args, source: req.source, detail: req.detail },
      opts.signal,
    );
    const id = this.next++;
    const server = entry?.server ?? "?";
    const tool = entry?.name ?? req.name;
    this.emit("started", { id, source: req.source, server, tool, args });
    let outcome: CallOutcome;
    if (!approval.ok) outcome = failedOutcome(plan, approval.rule, approval.detail);
    else {
      try {
        const path = req.via ?? this.path;
        if (!path) throw new Error("no call path");
        outcome = await path(req.name, args, {
          ...opts,
          // The host runs exactly the tool approved and drawn, or refuses (`tool-moved`).
          ...(entry ? { target: { server: entry.server, tool: entry.name } } : {}),
          onProgress: (p) => {
            opts.onProgress?.(p);
            this.emit("progress", id, p);
          },
        });
      } catch (e) {
        outcome = thrownOutcome(plan, e);
      }
    }
    this.emit("ended", id, outcome);
    return outcome;
  }
}
