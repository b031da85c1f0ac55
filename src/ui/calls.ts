// The app's side of the call lifecycle (host/call): how it asks (the approval dialog, in the
// store's one queue of dialogs) and the cards it draws from the lifecycle's events.
import { CallGate } from "../host/call/gate.js";
import { CallLifecycle, type CallPath } from "../host/call/lifecycle.js";
import type { SessionStore } from "./state.js";
import type { CommandContext } from "./commands/types.js";

/** The app's lifecycle: one gate ("always" remembered for every caller) and a card per call. */
export function appCalls(
  store: SessionStore,
  yes: boolean | (() => boolean | undefined) | undefined,
  path?: CallPath,
): CallLifecycle {
  const gate = new CallGate({ yes, ask: (r) => store.askApproval(r.server, r.tool, r.args) });
  const calls = new CallLifecycle(gate, path);
  const cards = new Map<number, string>();
  calls.observe({
    started: (e) => cards.set(e.id, store.toolStart(e.server, e.tool, e.args)),
    progress: (id, p) => {
      const card = cards.get(id);
      if (card !== undefined) store.toolProgress(card, p);
    },
    ended: (id, outcome) => {
      const card = cards.get(id);
      cards.delete(id);
      if (card !== undefined) store.toolEnd(card, outcome);
    },
  });
  return calls;
}

/** The app's call lifecycle, or (a context built without one) a lifecycle of this command's own. */
export function callsOf(ctx: Pick<CommandContext, "store" | "calls" | "autoApprove">): CallLifecycle {
  return (ctx.calls ??= appCalls(ctx.store, () => ctx.autoApprove));
}
