// mcp-prism resources [--server NAME] [--json]: each server's resources and resource templates,
// and what was wrong with a listing. Exit 1 when a server's listing failed.
import { parseCli, withUsage } from "../args.js";
import { renderResources } from "../output/resources.js";
import { startErrorFields } from "../start-host.js";
import { ANSWER_OPTION, withAnsweringHost } from "../oneshot-input.js";
import { out, err, outJson } from "../output/terminal.js";

export async function run(argv: string[]): Promise<number> {
  return withUsage("resources", async () => {
    const cli = parseCli(argv, { ...ANSWER_OPTION }, { positionals: [0, 0] });
    return withAnsweringHost(
      cli,
      (e) => {
        if (cli.common.json) outJson({ servers: [], error: startErrorFields(e) });
        else err(`mcp-prism resources: ${e.message}\n`);
      },
      async (host) => {
        const listings = await host.resources(cli.common.server);
        if (cli.common.json) outJson({ servers: listings });
        else out(renderResources(listings));
        return listings.some((l) => l.errors.some((e) => e.rule !== "malformed-resource")) ? 1 : 0;
      },
    );
  });
}
