// mcp-prism read URI [--server NAME] [--json] [--out FILE]: reads one resource. Text is printed;
// a blob is one line unless --out FILE saves it (whole or not at all, mode 0600). --json prints
// {"server","uri","contents":[…]}. Exit 1 when the read failed, 2 on usage errors.
import { resolve } from "node:path";
import { formatBytes } from "../../host/result/measure.js";
import { writePrivateFile } from "../../ui/commands/save-file.js";
import { parseCli, UsageError, withUsage } from "../args.js";
import { contentBytes, renderContents } from "../output/resources.js";
import { ANSWER_OPTION, withAnsweringHost } from "../oneshot-input.js";
import { out, err, outJson } from "../output/terminal.js";

export async function run(argv: string[]): Promise<number> {
  return withUsage("read", async () => {
    const cli = parseCli(argv, { out: { type: "string" }, ...ANSWER_OPTION }, { positionals: [0, 1] });
    const uri = cli.positionals[0];
    if (uri === undefined) throw new UsageError("missing the resource URI");
    const file = typeof cli.values.out === "string" ? resolve(cli.values.out) : undefined;
    const fail = (e: { rule: string; message: string; server?: string }) => {
      if (cli.common.json)
        outJson({ server: e.server ?? cli.common.server ?? "", uri, error: { rule: e.rule, message: e.message } });
      else err(`mcp-prism read: ${e.message}\n`);
      return 1;
    };
    return withAnsweringHost(cli, fail, async (host) => {
      const read = await host.readResource(uri, cli.common.server);
      if (!read.ok) return fail(read.error);
      if (file !== undefined) {
        const [first] = read.contents;
        if (!first)
          return fail({
            rule: "empty-resource",
            message: `server ${read.server}, resource ${uri}: no contents; nothing was saved`,
          });
        const bytes = contentBytes(first);
        try {
          await writePrivateFile(file, bytes);
        } catch (e) {
          return fail({
            rule: "write-failed",
            message: `cannot write ${file}: ${(e as Error).message}; nothing was saved`,
          });
        }
        const more = read.contents.length > 1 ? ` (the first of ${read.contents.length} contents)` : "";
        err(`mcp-prism read: saved ${formatBytes(bytes.length)}${more} to ${file}\n`);
      }
      if (cli.common.json) outJson({ server: read.server, uri, contents: read.contents });
      else if (file === undefined) out(renderContents(read.contents));
      return 0;
    });
  });
}
