// Runs one tool call with a live card: start, progress, outcome (the router's sinks filed by the store).
import type { CallOptions, CallOutcome, ToolEntry } from "../../host/types.js";
import type { CommandContext } from "./types.js";
import { showInView } from "../view-link.js";
import { callsOf } from "../calls.js";

/** A call the person typed (/call, /table, /view): their own approval; the card via the lifecycle. */
export async function runToolWithCard(
  ctx: CommandContext,
  tool: ToolEntry,
  args: Record<string, unknown>,
  opts: CallOptions = {},
): Promise<CallOutcome> {
  const outcome = await callsOf(ctx).run({
    source: "user",
    name: tool.qualifiedName,
    args,
    entry: tool,
    opts: { mode: ctx.store.getState().mode, signal: ctx.signal, ...opts },
    via: (n, a, o) => ctx.host.call(n, a, o),
  });
  // Once the App View host runs (/view), an app-mode call of a tool with an App gets its View.
  await showInView(tool, args, outcome).catch(() => {});
  return outcome;
}
