// /run <code> (or a pasted ```js fenced block): runs a script in the code-mode sandbox against the
// servers' tools, for you: the script's card, each inner call's card (approval as for /call,
// programmatic outputs in the Programmatic pane), then its value and console output. The model
// does not see it.
import { fencedScript } from "../../model/offline.js";
import { runToolWithCard } from "./run-tool.js";
import { callsOf } from "../calls.js";
import { CommandError, type SlashCommand } from "./types.js";

export const run: SlashCommand = {
  name: "run",
  usage: "/run <code> | /run ```js … ```",
  description:
    "run a script: await tools.NAME(args) gives a tool's programmatic output; shows its value and logs (the model does not see it)",
  async run(args, ctx) {
    const code = fencedScript(args) ?? args.trim();
    if (!code) throw new CommandError("usage: /run <code> (the body of an async function; return the result)");
    const [{ runScript }, { reportOf }] = await Promise.all([
      import("../../code/bridge.js"),
      import("../../code/run-code.js"),
    ]);
    const tools = await ctx.host.tools("code");
    ctx.store.codeStart(code);
    const result = await runScript(
      {
        modelTools: () => tools,
        call: async (_name, callArgs, opts) => {
          const entry = tools.find((t) => t.server === opts?.target?.server && t.name === opts?.target?.tool);
          if (!entry) throw new Error("no such tool");
          return runToolWithCard(ctx, entry, callArgs, { select: opts?.select });
        },
      },
      code,
      {
        signal: ctx.signal,
        // The app's gate: asked in the one dialog queue, "always" shared with chat turns and Views.
        gate: callsOf(ctx).gate,
      },
    );
    const report = reportOf(result);
    const logs = report.logs.length ? `\n${report.logs.join("\n")}` : "";
    const text = report.error
      ? `${report.error.rule}: ${report.error.message}${logs}`
      : `${JSON.stringify(report.value, null, 2)}${logs}`;
    ctx.store.codeEnd({ text, isError: !!report.error, forModel: false });
  },
};
