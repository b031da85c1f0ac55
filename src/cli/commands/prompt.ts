// mcp-prism prompt NAME [--server NAME] [--args JSON] [--json]: prompts/get with the arguments
// (strings, checked against the prompt's declaration before sending), printed as the user's turn
// would carry it. NAME may be SERVER:NAME. --json: {"server","name","description","messages"}.
import { parseCli, parseToolArgs, UsageError, withUsage } from "../args.js";
import { renderPrompt } from "../output/prompts.js";
import { startErrorFields } from "../start-host.js";
import { ANSWER_OPTION, withAnsweringHost } from "../oneshot-input.js";
import { out, err, outJson } from "../output/terminal.js";
import type { PromptError } from "../../host/catalog/prompts.js";

export async function run(argv: string[]): Promise<number> {
  return withUsage("prompt", async () => {
    const cli = parseCli(argv, { args: { type: "string" }, ...ANSWER_OPTION }, { positionals: [0, 1] });
    if (cli.positionals.length === 0) throw new UsageError("missing the prompt name");
    const args = parseToolArgs(cli.values.args as string | undefined);
    const fail = (e: Pick<PromptError, "server" | "prompt" | "rule" | "detail" | "message">) => {
      if (cli.common.json)
        outJson({ error: { server: e.server, prompt: e.prompt, rule: e.rule, detail: e.detail, message: e.message } });
      else err(`mcp-prism prompt: ${e.message}\n`);
      return 1;
    };
    return withAnsweringHost(
      cli,
      (e) => fail({ ...startErrorFields(e), prompt: cli.positionals[0] }),
      async (host) => {
        const found = await host.prompts.find(cli.positionals[0], cli.common.server, host.connectWaitMs);
        if (!found.ok) return fail(found.error);
        const got = await host.prompts.get(found.entry, args);
        if (!got.ok) return fail(got.error);
        if (cli.common.json) outJson(got.prompt);
        else out(renderPrompt(got.prompt));
        return 0;
      },
    );
  });
}
