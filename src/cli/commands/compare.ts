// mcp-prism compare TOOL [--server NAME] [--args JSON] [--json]: the same call under each mode
// (2026-12-01) and, on a second connection forced to 2026-07-28, each legacy client profile.
import { PROFILE_CLIENTS } from "../../host/legacy/index.js";
import type { Host } from "../../host/host.js";
import { LEGACY_PROFILES, MODES } from "../../host/types.js";
import { parseCli, parseToolArgs, withUsage } from "../args.js";
import { compareRow, renderCompare, type CompareDocument } from "../output/compare.js";
import { resolveTool, startHost, StartError } from "./call.js";

export async function run(argv: string[]): Promise<number> {
  return withUsage("compare", async () => {
    const cli = parseCli(argv, { args: { type: "string" } }, { positionals: [1, 1] });
    const tool = cli.positionals[0];
    const args = parseToolArgs(cli.values.args as string | undefined);
    let modern: Host;
    try {
      modern = await startHost(cli.common);
    } catch (e) {
      if (!(e instanceof StartError)) throw e;
      if (cli.common.json) {
        process.stdout.write(JSON.stringify({ server: cli.common.server ?? null, tool, modes: [], legacy: [], error: { rule: e.rule, message: e.message } }) + "\n");
      } else process.stderr.write(`mcp-prism compare: ${e.message}\n`);
      return 1;
    }
    const doc: CompareDocument = { server: null, tool, modes: [], legacy: [] };
    try {
      for (const mode of MODES) {
        const outcome = await modern.call(await resolveTool(modern, tool, cli.common.server, mode), args, { mode });
        doc.server ??= outcome.plan.server || null;
        doc.modes.push(compareRow("mode", mode, outcome));
      }
    } finally {
      await modern.close();
    }
    let legacy: Host | undefined;
    try {
      legacy = await startHost({ ...cli.common, protocol: "2026-07-28" });
      const outcomes = await legacy.callWithProfiles(await resolveTool(legacy, tool, cli.common.server), args, LEGACY_PROFILES);
      for (const p of LEGACY_PROFILES) doc.legacy.push(compareRow("profile", p, outcomes[p]!, PROFILE_CLIENTS[p]));
    } catch (e) {
      if (!(e instanceof StartError)) throw e;
      doc.legacyError = { rule: e.rule, message: e.message };
    } finally {
      await legacy?.close();
    }
    process.stdout.write(cli.common.json ? JSON.stringify(doc) + "\n" : renderCompare(doc, process.stdout.columns ?? 120));
    return [...doc.modes, ...doc.legacy].some((r) => r.ok) ? 0 : 1;
  });
}
