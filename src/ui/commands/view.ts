// /view [open] | /view TOOL [JSON]: the App View host (MCP Apps in a local browser page). Bare:
// starts it and says where it is; `open` opens the page with $BROWSER/xdg-open; TOOL calls the tool
// in app mode and shows its View. Calls in app mode of tools with an App get a View once it runs.
import { sanitizeInline } from "../../protocol/sanitize.js";
import { openBrowserChecked } from "../../host/browser.js";
import { viewSession } from "../view-link.js";
import { runToolWithCard } from "./run-tool.js";
import { CommandError, type SlashCommand } from "./types.js";

export const view: SlashCommand = {
  name: "view",
  usage: "/view [open | TOOL [JSON]]",
  description: "show MCP Apps in a local browser page (the App View); open it, or call TOOL and show its View",
  async run(args, ctx) {
    const host = ctx.host;
    if (!host.readResource) throw new CommandError("this host cannot read resources: no App View");
    const viewHost = {
      tools: host.tools.bind(host),
      call: host.call.bind(host),
      readResource: host.readResource.bind(host),
    };
    const session = await viewSession(viewHost, ctx);
    const [first, ...rest] = args.trim().split(/\s+/);
    if (!first) {
      ctx.store.notice(`App View: ${session.url} (/view open opens it)`);
      return;
    }
    if (first === "open") {
      const failed = await openBrowserChecked(session.url);
      ctx.store.notice(
        failed === undefined
          ? `opened ${session.url} in the browser`
          : `no browser opened (${sanitizeInline(failed)}): open ${session.url} yourself`,
      );
      return;
    }
    let input: Record<string, unknown> = {};
    if (rest.length) {
      try {
        input = JSON.parse(rest.join(" ")) as Record<string, unknown>;
      } catch {
        throw new CommandError("usage: /view TOOL [JSON arguments]");
      }
    }
    const entry = (await host.tools("app", 5000)).find((t) => t.qualifiedName === first);
    if (!entry) throw new CommandError(`no tool named ${JSON.stringify(sanitizeInline(first).slice(0, 80))}`);
    const outcome = await runToolWithCard(ctx, entry, input, { mode: "app" });
    ctx.store.notice(
      outcome.ok ? `${entry.name}: shown in the App View (${session.url})` : `${entry.name}: ${outcome.error.message}`,
    );
  },
};
