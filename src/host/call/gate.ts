// The one approval gate. Every caller (a chat turn, /call, /run and code mode's `tools.*`, a View,
// /compare, -p, `run`, `view`) decides here: a tool marked readOnlyHint runs; otherwise `--yes`
// allows, an "always" said earlier for that server's tool allows, and else the front end's asker
// is asked (one question at a time) or, with nobody to ask, the call is refused.
import type { ToolEntry } from "../types.js";
import { AskQueue } from "./queue.js";

export type ApprovalAnswer = "yes" | "no" | "always";

/** Who wants the call: named in the question and the refusal. */
export type CallSource = "model" | "user" | "script" | "view" | "compare";

export interface ApprovalRequest {
  server: string;
  tool: string;
  /** The arguments the call will carry, exactly (what the person approves is what runs). */
  args: Record<string, unknown>;
  source: CallSource;
  /** What else to say (e.g. how many calls a comparison makes). */
  detail?: string;
}

/** How a front end asks its person; a gate without one refuses what needs asking. */
export type Asker = (req: ApprovalRequest) => Promise<ApprovalAnswer>;

export type Decision = "allow" | "ask" | "deny";

export type Approval = { ok: true } | { ok: false; rule: "not-approved"; detail: string };

/** A tool may run unasked only if it says it is read-only. */
export function needsApproval(tool: Pick<ToolEntry, "annotations">): boolean {
  return tool.annotations?.readOnlyHint !== true;
}

/** The gate of a caller whose call path already passes every call through a CallGate (the app's run_code executor). */
export const GATED_DOWNSTREAM: Pick<CallGate, "approve"> = { approve: async () => ({ ok: true }) };

export interface GateOptions {
  /** `--yes`: everything runs unasked (a function: read at each decision). */
  yes?: boolean | (() => boolean | undefined);
  ask?: Asker;
  /** The queue the asks wait in; share it with the front end's other dialogs. */
  queue?: AskQueue;
}

export class CallGate {
  private readonly always = new Set<string>();
  readonly queue: AskQueue;

  constructor(private readonly opts: GateOptions = {}) {
    this.queue = opts.queue ?? new AskQueue();
  }

  /** "Always" is remembered for the tool that runs (server + name), never a qualified name. */
  private key(server: string, tool: string): string {
    return `${server}\0${tool}`;
  }

  decide(server: string, tool: string, readOnly: boolean): Decision {
    const yes = typeof this.opts.yes === "function" ? this.opts.yes() : this.opts.yes;
    if (readOnly || yes || this.always.has(this.key(server, tool))) return "allow";
    return this.opts.ask ? "ask" : "deny";
  }

  /** Approves a call of a listed tool (or of one not listed: it always needs asking). */
  approve(
    entry: ToolEntry | undefined,
    req: Omit<ApprovalRequest, "server" | "tool"> & { name: string },
    signal?: AbortSignal,
  ): Promise<Approval> {
    const { name, ...rest } = req;
    return this.approveCall(
      { ...rest, server: entry?.server ?? "?", tool: entry?.name ?? name },
      entry ? !needsApproval(entry) : false,
      signal,
    );
  }

  async approveCall(req: ApprovalRequest, readOnly: boolean, signal?: AbortSignal): Promise<Approval> {
    // A call the person typed (/call, /table, /view) is their own approval.
    const first = req.source === "user" ? "allow" : this.decide(req.server, req.tool, readOnly);
    if (first === "allow") return { ok: true };
    if (first === "deny")
      return {
        ok: false,
        rule: "not-approved",
        detail: "not marked read-only; the user did not approve it (pass --yes to allow)",
      };
    const answer = await this.queue.run(async () => {
      // Decided again in turn: an "always" given while this ask waited applies, an aborted call is not asked.
      if (signal?.aborted) return "no" as const;
      if (this.decide(req.server, req.tool, readOnly) === "allow") return "yes" as const;
      return (this.opts.ask as Asker)(req);
    });
    if (answer === "always") this.always.add(this.key(req.server, req.tool));
    return answer === "no" ? { ok: false, rule: "not-approved", detail: "the user declined this call" } : { ok: true };
  }
}
