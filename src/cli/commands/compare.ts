// mcp-prism compare TOOL [--server NAME] [--args JSON] [--yes] [--json]: the same call under each
// mode (2026-12-01) and each legacy client profile (2026-07-28), side by side. src/compare plans
// and runs it (one wire call per distinct request); this file only asks approval and renders.
import { exitCode } from "../../protocol/rules.js";
import { CallGate } from "../../host/call/gate.js";
import { describePlan, planCompare, type ComparePlan } from "../../compare/plan.js";
import { LegacyConnections } from "../../compare/legacy-connection.js";
import { PROFILE_CLIENTS } from "../../compare/profiles/index.js";
import { runCompare } from "../../compare/run.js";
import type { Host } from "../../host/host.js";
import type { ToolEntry } from "../../host/types.js";
import { sanitizeInline, sanitizeName } from "../../protocol/sanitize.js";
import { parseCli, parseToolArgs, withUsage } from "../args.js";
import { confirm } from "../confirm.js";
import { compareDocumentRow, renderCompare, type CompareDocument } from "../output/compare.js";
import { startHost, StartError } from "../start-host.js";
import { out, err, outJson } from "../output/terminal.js";

/** TOOL in a mode's listing (a qualified name, or the plain name on --server). */
function finder(tool: string, server: string | undefined) {
  return (tools: ToolEntry[]) =>
    tools.find((t) => t.qualifiedName === tool) ??
    tools.find((t) => t.name === tool && (server === undefined || t.server === server));
}

export async function run(argv: string[]): Promise<number> {
  return withUsage("compare", async () => {
    const cli = parseCli(argv, { args: { type: "string" } }, { positionals: [1, 1] });
    const tool = cli.positionals[0];
    const args = parseToolArgs(cli.values.args as string | undefined);
    const doc: CompareDocument = { server: cli.common.server ?? null, tool, modes: [], legacy: [], calls: 0 };
    const refuse = (rule: string, message: string): number => {
      if (cli.common.json) outJson({ ...doc, error: { rule, message } });
      else err(`mcp-prism compare: ${message}\n`);
      return exitCode(rule);
    };
    let host: Host;
    try {
      host = await startHost(cli.common);
    } catch (e) {
      if (!(e instanceof StartError)) throw e;
      return refuse(e.rule, e.message);
    }
    const legacy = new LegacyConnections((server, protocol) =>
      startHost({ ...cli.common, server, protocol }, { config: host.opts.config }),
    );
    try {
      const plan = await planCompare(host, finder(tool, cli.common.server));
      if (plan.calls.length === 0)
        return refuse(
          "unknown-tool",
          `no tool named ${JSON.stringify(sanitizeName(tool))}${cli.common.server ? ` on ${sanitizeName(cli.common.server)}` : ""}`,
        );
      doc.server = plan.server;
      const gate = new CallGate({ yes: cli.common.yes, ask: async () => ((await approved(plan)) ? "yes" : "no") });
      if (
        !(
          await gate.approveCall({ server: plan.server, tool: plan.tool, args, source: "compare" }, !plan.needsApproval)
        ).ok
      ) {
        return refuse(
          "not-approved",
          `${sanitizeName(plan.tool)} on ${sanitizeName(plan.server)} is not marked readOnlyHint; comparing would run it ${describePlan(plan)}. Pass --yes to run it.`,
        );
      }
      const result = await runCompare(host, plan, args, {
        profile: host.opts.config.profile,
        legacy: (entry, a, opts) => legacy.call(entry, a, opts),
      });
      for (const r of result.modes)
        doc.modes.push(compareDocumentRow("mode", r.mode, r.outcome, undefined, r.sameCallAs));
      for (const r of result.legacy)
        doc.legacy.push(compareDocumentRow("profile", r.profile, r.outcome, PROFILE_CLIENTS[r.profile]));
      if (result.legacyError) doc.legacyError = result.legacyError;
      doc.calls = result.calls;
    } finally {
      await host.close();
      await legacy.close();
    }
    if (cli.common.json) outJson(doc);
    else out(renderCompare(doc, process.stdout.columns ?? 120));
    return [...doc.modes, ...doc.legacy].some((r) => r.ok) ? 0 : 1;
  });
}

function approved(plan: ComparePlan): Promise<boolean> {
  return confirm(
    `mcp-prism compare: ${sanitizeName(plan.tool)} on ${sanitizeName(plan.server)} is not marked read-only; run it ${sanitizeInline(describePlan(plan))}?`,
  );
}
