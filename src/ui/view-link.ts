// The chat app's App View host: started by /view (or a View-worthy call once it runs), one per app.
// A call in app mode of a tool with an App then also gets its View; what a View keeps for the model
// (ui/update-model-context) rides on the next user turn as an attachment; the View's notes go to
// the App pane. Loaded only when /view is used (src/view is not on the first frame's path).
import { openBrowser } from "../host/browser.js";
import type { ToolEntry, CallOutcome } from "../host/types.js";
import type { UserAttachment } from "../model/conversation.js";
import type { ViewHost, ViewSession } from "../view/session.js";
import type { CommandContext } from "./commands/types.js";
import { callsOf } from "./calls.js";

let active: ViewSession | undefined;

/** The running View host, started on first use with the app's host and store. */
export async function viewSession(
  host: ViewHost,
  ctx: Pick<CommandContext, "store" | "askView" | "viewTurn" | "calls" | "autoApprove">,
): Promise<ViewSession> {
  if (active) return active;
  const { ViewSession } = await import("../view/session.js");
  const { store } = ctx;
  const s = new ViewSession(host, {
    // ui/message and ui/open-link: the App's own question, in its own dialog (no dialog: declined).
    confirm: async (q) => (await ctx.askView?.(q)) ?? false,
    onUserTurn: (text) => ctx.viewTurn?.(text),
    // A View's tools/call goes through the app's gate with its real arguments ("always" shared).
    calls: callsOf(ctx),
    openLink: (url) => void openBrowser(url),
    onNote: (n) => store.appNote(`view ${n.view} · ${n.kind}: ${n.text}`),
  });
  await s.start();
  active = s;
  store.appNote(`App View host: ${s.url}`);
  return s;
}

/** After an app-mode call: its View, when the View host runs and the tool has an App. */
export async function showInView(
  entry: ToolEntry | undefined,
  args: Record<string, unknown>,
  outcome: CallOutcome,
): Promise<void> {
  if (!active || !entry || outcome.plan.mode !== "app") return;
  const opened = await active.open(entry, args);
  if (opened.ok) active.deliver(opened.id, outcome);
}

/** What the Views asked the model to know, as attachments of the next user turn (taken once). */
export function viewAttachments(): UserAttachment[] {
  return (active?.takeModelContext() ?? []).map((c) => ({
    server: c.server,
    uri: `ui-context:${c.tool}`,
    mimeType: "text/plain",
    text: c.text,
  }));
}

export async function closeViews(): Promise<void> {
  const s = active;
  active = undefined;
  await s?.close();
}
