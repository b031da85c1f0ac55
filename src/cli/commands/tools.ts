// mcp-prism tools [--server NAME] [--mode M] [--json]: tools per server with era, declared
// variants and schemas, and rejected tools, declined variants, warnings and unavailable tools
// with their rules. --mode app lists with the Apps extension advertised (so App variants appear).
// Exit 1 when a server lists tools and none of them is usable. The client capabilities are
// call's (elicitation, sampling), so a server lists here the tools `call` can call.
import { parseCli, withUsage } from "../args.js";
import { renderTools, serversWithoutUsableTools, toolsDocument } from "../output/tools.js";
import { sanitizeName } from "../../protocol/sanitize.js";
import { startErrorFields, withHost } from "../start-host.js";
import { out, err, outJson } from "../output/terminal.js";
import { oneShotInput } from "../oneshot-input.js";
import { createModel } from "../../model/select.js";

export async function run(argv: string[]): Promise<number> {
  return withUsage("tools", async () => {
    const cli = parseCli(argv, {}, { positionals: [0, 0] });
    return withHost(
      cli.common,
      (e) => {
        if (cli.common.json) outJson({ servers: [], error: startErrorFields(e) });
        else err(`mcp-prism tools: ${e.message}\n`);
      },
      async (host) => {
        const tools = await host.settledTools();
        await host.toolErrors();
        const doc = toolsDocument(host.servers(), tools);
        if (cli.common.json) outJson(doc);
        else out(renderTools(doc));
        const none = serversWithoutUsableTools(doc);
        if (none.length > 0 && !cli.common.json)
          err(`mcp-prism tools: no usable tool on ${none.map((n) => sanitizeName(n)).join(", ")}\n`);
        return none.length > 0 ? 1 : 0;
      },
      {
        input: oneShotInput({
          yes: false,
          model: () =>
            createModel({ flag: cli.common.model, baseURL: cli.common.baseUrl, apiKeyEnv: cli.common.apiKeyEnv }),
        }),
      },
    );
  });
}
