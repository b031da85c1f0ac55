// mcp-prism tools [--server NAME] [--mode M] [--json]: tools per server with era, declared
// variants and schemas, and rejected tools with their reasons. --mode app lists with the Apps
// extension advertised (so App variants appear).
import { parseCli, withUsage } from "../args.js";
import { renderTools, toolsDocument } from "../output/tools.js";
import { startHost, StartError } from "./call.js";

export async function run(argv: string[]): Promise<number> {
  return withUsage("tools", async () => {
    const cli = parseCli(argv, {}, { positionals: [0, 0] });
    let host;
    try {
      host = await startHost(cli.common);
    } catch (e) {
      if (!(e instanceof StartError)) throw e;
      if (cli.common.json) process.stdout.write(JSON.stringify({ servers: [], error: { rule: e.rule, message: e.message } }) + "\n");
      else process.stderr.write(`mcp-prism tools: ${e.message}\n`);
      return 1;
    }
    try {
      const tools = await host.tools();
      await host.toolErrors();
      const doc = toolsDocument(host.servers(), tools);
      process.stdout.write(cli.common.json ? JSON.stringify(doc) + "\n" : renderTools(doc));
      return 0;
    } finally {
      await host.close();
    }
  });
}
