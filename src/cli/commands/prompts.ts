// mcp-prism prompts [--server NAME] [--json]: each server's prompts (prompts/list, every page)
// with their arguments, and the entries it could not use with their rule. Exit 1 only when no
// server could be reached.
import { parseCli, withUsage } from "../args.js";
import { renderPrompts, type PromptsDocument } from "../output/prompts.js";
import { startErrorFields } from "../start-host.js";
import { ANSWER_OPTION, withAnsweringHost } from "../oneshot-input.js";
import { out, err, outJson } from "../output/terminal.js";

export async function run(argv: string[]): Promise<number> {
  return withUsage("prompts", async () => {
    const cli = parseCli(argv, { ...ANSWER_OPTION }, { positionals: [0, 0] });
    return withAnsweringHost(
      cli,
      (e) => {
        if (cli.common.json) outJson({ servers: [], error: startErrorFields(e) });
        else err(`mcp-prism prompts: ${e.message}\n`);
      },
      async (host) => {
        const { prompts, errors } = await host.prompts.all(host.connectWaitMs);
        const doc: PromptsDocument = {
          servers: host.servers().map((s) => ({
            name: s.name,
            state: s.state,
            ...(s.error ? { error: s.error } : {}),
            prompts: prompts.filter((p) => p.server === s.name),
            rejected: errors.filter((e) => e.server === s.name),
          })),
        };
        if (cli.common.json) outJson(doc);
        else out(renderPrompts(doc));
        return 0;
      },
    );
  });
}
