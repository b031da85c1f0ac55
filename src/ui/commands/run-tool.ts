// Runs one tool call with a live card: start, progress, outcome (the router's sinks filed by the store).
import type { CallOptions, CallOutcome, ToolEntry } from "../../host/types.js";
import type { CommandContext } from "./types.js";
import { showInView } from "../view-link.js";

export async function runToolWithCard(ctx: CommandContext, tool: ToolEntry, args: Record<string, unknown>, opts: CallOptions = {}): Promise<CallOutcome> {
  const id = ctx.store.toolStart(tool.server, tool.name, args);
  const outcome = await ctx.host.call(tool.qualifiedName, args, {
    mode: ctx.store.getState().mode,
    signal: ctx.signal,
    ...opts,
    // The card shows this entry's server and tool: the host runs exactly that one or refuses.
    target: { server: tool.server, tool: tool.name },
    onProgress: (p) => ctx.store.toolProgress(id, p),
  });
  ctx.store.toolEnd(id, outcome);
  // Once the App View host runs (/view), an app-mode call of a tool with an App gets its View.
  await showInView(tool, args, outcome).catch(() => {});
  return outcome;
}
