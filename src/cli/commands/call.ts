// mcp-prism call TOOL [--server NAME] [--args JSON] [--select a/f]... [--rows N] [--mode M] [--protocol V]
//   [--config FILE] [--profile P] [--answer JSON] [--yes] [--model M] [--json]
// A server's elicitation is answered with --answer (else declined), sampling with --yes (oneshot-input.ts).
// Exit 0 on a routed result (even isError), 1 on protocol/validation/connection errors, 2 on usage errors.
import { exitCode } from "../../protocol/rules.js";
import type { Host } from "../../host/host.js";
import type { CallOutcome, ProgressUpdate, ToolEntry } from "../../host/types.js";
import { sanitizeInline, truncateChars } from "../../protocol/sanitize.js";
import { readAs } from "../../compare/profiles/index.js";
import { parseCli, parseProfile, parseSelectors, parseToolArgs, UsageError, withUsage } from "../args.js";
import { callDocument, errorDocument, renderCall } from "../output/call.js";
import { startHost, StartError } from "../start-host.js";
import { TranscriptRecorder } from "../../host/transcript/recorder.js";
import { out, err, errStatus, outJson } from "../output/terminal.js";
import { ANSWER_OPTION, cliInput } from "../oneshot-input.js";

/** The qualified name of TOOL, preferring the --server one; waits only until some server lists it. */
async function awaitToolName(host: Host, tool: string, server: string | undefined, mode = host.mode): Promise<string> {
  const pick = (tools: ToolEntry[]) =>
    tools.find((t) => t.qualifiedName === tool) ??
    tools.find((t) => t.name === tool && (server === undefined || t.server === server));
  return pick(await host.toolsWhen((tools) => pick(tools) !== undefined, mode))?.qualifiedName ?? tool;
}

/** The server's progress as one stderr line (a terminal only: a pipe gets none). */
function progressLine(p: ProgressUpdate): string {
  const done = p.total !== undefined ? `${p.progress}/${p.total}` : String(p.progress);
  return `progress ${truncateChars(`${done}${p.message ? ` ${sanitizeInline(p.message)}` : ""}`, Math.max(20, (process.stderr.columns ?? 80) - 10))}`;
}

/** --rows N: how many table rows a user/structured output prints (1..100000). */
function parseRows(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d{1,6}$/.test(text) || Number(text) < 1)
    throw new UsageError(`--rows: expected a number of rows 1..100000 (got ${JSON.stringify(text.slice(0, 20))})`);
  return Math.min(Number(text), 100_000);
}

export async function run(argv: string[]): Promise<number> {
  return withUsage("call", async () => {
    const cli = parseCli(
      argv,
      {
        args: { type: "string" },
        select: { type: "string", multiple: true },
        profile: { type: "string" },
        rows: { type: "string" },
        ...ANSWER_OPTION,
      },
      { positionals: [1, 1] },
    );
    const tool = cli.positionals[0];
    const args = parseToolArgs(cli.values.args as string | undefined);
    const select = parseSelectors(cli.values.select);
    const profile = parseProfile(cli.values.profile);
    const rows = parseRows(cli.values.rows as string | undefined);
    const write = (outcome: CallOutcome) =>
      cli.common.json ? outJson(callDocument(outcome)) : out(renderCall(outcome, process.stdout.columns ?? 100, rows));

    let host: Host;
    try {
      // The model answers sampling, made only when a server asks (its config errors are then one line).
      host = await startHost(cli.common, { input: cliInput(cli, () => host) });
    } catch (e) {
      if (!(e instanceof StartError)) throw e;
      if (cli.common.json) outJson(errorDocument(tool, e, cli.common.server));
      else err(`mcp-prism call: ${e.message}\n`);
      return exitCode(e.rule);
    }
    // The call in a session transcript of its own, as the app would record it.
    const recorder = TranscriptRecorder.open((line) => err(`mcp-prism call: ${sanitizeInline(line)}\n`));
    recorder.start({ command: "call", mode: host.mode, servers: host.servers().map((s) => s.name) });
    try {
      const name = await awaitToolName(host, tool, cli.common.server);
      let shown = false;
      const onProgress = process.stderr.isTTY
        ? (p: ProgressUpdate) => void ((shown = true), errStatus(progressLine(p)))
        : undefined;
      recorder.record({ kind: "request", call: 1, source: "user", tool: name, arguments: args });
      const called = await host.call(name, args, { mode: cli.common.mode, select, onProgress });
      recorder.ended(1, called);
      if (shown) errStatus("");
      const reading = profile ?? host.opts.config.profile;
      const outcome = reading ? readAs(reading, called) : called;
      write(outcome);
      return outcome.ok ? 0 : exitCode(outcome.error.rule);
    } finally {
      recorder.end();
      await host.close();
    }
  });
}
