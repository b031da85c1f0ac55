// mcp-prism view TOOL [--server NAME] [--args JSON] [--open] [--view-projection result|output]
//   [--config FILE] [--protocol V] [--yes]
// Makes the call in app mode and shows the tool's MCP Apps View in a local page: `view: URL` is the
// first stdout line; serves until SIGINT/SIGTERM, then tears the View down and exits 0.
// A View's ui/message and ui/open-link are asked on the terminal (no terminal: declined); a View's
// tools/call of a tool not marked read-only is refused unless --yes (one line here, an error to the App).
// Exit 1 when the tool has no View or the servers do not start, 2 on usage errors.
import { exitCode } from "../../protocol/rules.js";
import type { Host } from "../../host/host.js";
import type { ViewProjection } from "../../host/types.js";
import { sanitizeInline } from "../../protocol/sanitize.js";
import { ViewSession, viewQuestionText } from "../../view/session.js";
import { openBrowser } from "../../host/browser.js";
import { CallGate } from "../../host/call/gate.js";
import { CallLifecycle } from "../../host/call/lifecycle.js";
import { parseCli, parseToolArgs, UsageError, withUsage } from "../args.js";
import { confirm } from "../confirm.js";
import { startHost, StartError } from "../start-host.js";
import { err, out } from "../output/terminal.js";

function projectionOf(v: unknown): ViewProjection {
  if (v === undefined || v === "result" || v === "output") return (v ?? "result") as ViewProjection;
  throw new UsageError(`--view-projection must be result or output, not ${JSON.stringify(v)}`);
}

export async function run(argv: string[]): Promise<number> {
  return withUsage("view", async () => {
    const cli = parseCli(
      argv,
      { args: { type: "string" }, open: { type: "boolean" }, "view-projection": { type: "string" } },
      { positionals: [1, 1] },
    );
    const tool = cli.positionals[0];
    const args = parseToolArgs(cli.values.args as string | undefined);
    const projection = projectionOf(cli.values["view-projection"]);
    let host: Host;
    try {
      host = await startHost({ ...cli.common, mode: "app" });
    } catch (e) {
      if (!(e instanceof StartError)) throw e;
      err(`mcp-prism view: ${e.message}\n`);
      return exitCode(e.rule);
    }
    const calls = new CallLifecycle(new CallGate({ yes: cli.common.yes }));
    calls.observe({
      ended: (_id, o) => {
        if (!o.ok && o.error.rule === "not-approved")
          err(
            `mcp-prism view: ${sanitizeInline(`${o.plan.server}/${o.plan.tool}`)} called by the View is not marked read-only; not run (pass --yes to allow)\n`,
          );
      },
    });
    const session = new ViewSession(host, {
      projection,
      calls,
      confirm: (q) =>
        confirm(
          viewQuestionText({
            ...q,
            server: sanitizeInline(q.server),
            tool: sanitizeInline(q.tool),
            text: sanitizeInline(q.text.slice(0, 2000)),
          }),
        ),
      openLink: (url) => void openBrowser(url),
      onUserTurn: (text) => err(`view: message from the View (no chat here): ${sanitizeInline(text.slice(0, 500))}\n`),
      onNote: (n) => err(`view ${n.view}: ${n.kind}: ${sanitizeInline(n.text)}\n`),
    });
    let stopping: (() => void) | undefined;
    const stopped = new Promise<void>((r) => (stopping = r));
    const onSignal = () => stopping?.();
    process.once("SIGINT", onSignal);
    process.once("SIGTERM", onSignal);
    try {
      await session.start();
      out(`view: ${session.url}\n`);
      const pick = await host.toolsWhen(
        (ts) =>
          ts.some(
            (t) =>
              t.qualifiedName === tool ||
              (t.name === tool && (cli.common.server === undefined || t.server === cli.common.server)),
          ),
        "app",
      );
      const entry =
        pick.find((t) => t.qualifiedName === tool) ??
        pick.find((t) => t.name === tool && (cli.common.server === undefined || t.server === cli.common.server));
      const { outcome, view } = await session.present(entry?.qualifiedName ?? tool, args);
      if (!view.ok) {
        err(`mcp-prism view: ${view.detail}\n`);
        return 1;
      }
      if (outcome && !outcome.ok) err(`mcp-prism view: the call failed: ${outcome.error.message}\n`);
      else err(`view: ${sanitizeInline(tool)} shown (Ctrl+C stops)\n`);
      if (cli.values.open && !openBrowser(session.url)) err("view: no $BROWSER or xdg-open: open the URL yourself\n");
      await stopped;
      return 0;
    } finally {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
      await session.close();
      await host.close();
    }
  });
}
