// mcp-prism -p PROMPT [--mode M] [--model offline|anthropic[:ID]] [--config FILE] [--server NAME]
//   [--protocol V] [--json] [--yes] [--answer JSON]
// A server's elicitation is answered with --answer (else declined), sampling with --yes.
// One model turn without the app: the answer on stdout (tool activity on stderr), or with --json
// one document {answer, toolCalls: [{server, tool, requestedOutputs, routed, ...}], modelRequests}.
// Exit 0 ok, 1 protocol/validation/connection/model error, 2 usage error.
import { exitCode } from "../../protocol/rules.js";
import type { CallOptions, CallOutcome, ToolEntry, ToolExecutor } from "../../host/types.js";
import { ModelError, type ModelAdapter } from "../../model/adapter.js";
import type { HostTool, HostToolRun } from "../../model/host-tool.js";
import { Conversation } from "../../model/conversation.js";
import { modelFor } from "../model-for.js";
import { runTurn, type TurnEvent, type TurnResult } from "../../model/turn.js";
import { isToolSearchRun, toolSearchLine } from "../../model/tool-search.js";
import { parseCli, parseToolArgs, UsageError, withUsage } from "../args.js";
import { oneShotInput } from "../oneshot-input.js";
import { callDocument, errorDocument, type CallDocument } from "../output/call.js";
import { previewOutput } from "../output/sinks.js";
import { selectorKey } from "../../protocol/index.js";
import { sanitizeInline, sanitizeText } from "../../protocol/sanitize.js";
import { commandConfig, startHost, StartError, stillConnecting } from "../start-host.js";
import type { HostConfig } from "../../host/config/config.js";
import { CallGate } from "../../host/call/gate.js";
import { CallLifecycle, type CallObserver } from "../../host/call/lifecycle.js";
import { TranscriptRecorder } from "../../host/transcript/recorder.js";
import { contextChangeRecord } from "../../model/context-record.js";
import { refusingAsker } from "../refuse-asker.js";
import { exitOnSignals } from "../../host/connection/process-group.js";
import { out, err, outJson } from "../output/terminal.js";
import { callError } from "../../host/host-error.js";

/** Refuses non-read-only tools unless --yes was given (one-shot mode has nobody to ask). */
export class ApprovingExecutor implements ToolExecutor {
  constructor(
    private readonly inner: ToolExecutor,
    yes: boolean,
  ) {
    this.calls = new CallLifecycle(new CallGate({ yes }), (n, a, o) => inner.call(n, a, o));
  }
  private readonly calls: CallLifecycle;
  /** Observes every call it runs (the transcript recorder). */
  observe(o: CallObserver): () => void {
    return this.calls.observe(o);
  }
  modelTools(): ToolEntry[] {
    return this.inner.modelTools();
  }
  instructions() {
    return this.inner.instructions();
  }
  async call(name: string, args: Record<string, unknown>, opts?: CallOptions): Promise<CallOutcome> {
    const want = opts?.target;
    const entry = this.inner
      .modelTools()
      .find((t) => (want ? t.server === want.server && t.name === want.tool : t.qualifiedName === name));
    // A name not listed is the host's to refuse (unknown-tool): nothing of it can run.
    if (!entry) return this.inner.call(name, args, opts);
    return this.calls.run({ source: "model", name, args, entry, opts: { mode: "chat", ...opts } });
  }
}

/** A run_code call in -p --json: the script, the report the model got, each inner call. */
interface HostRunDocument {
  server: null;
  tool: string;
  args: Record<string, unknown>;
  isError: boolean;
  /** The text the model received. */
  forModel: string;
  calls: CallDocument[];
}

interface OneShotDocument {
  answer: string;
  /** `modelNotes`: what the model did not get of that result as sent (a type it cannot take, a cut, a refusal). */
  toolCalls: ((CallDocument & { args: Record<string, unknown>; modelNotes?: string[] }) | HostRunDocument)[];
  modelRequests: number;
  model: string;
  /** Lines the turn had for the user (a bound cut, refused content replaced). */
  notices?: string[];
  /** Which rule, what, and its line; `server` when a server is named ("" otherwise). */
  error?: { rule: string; message: string; server?: string; detail?: string };
}

export async function run(argv: string[]): Promise<number> {
  // SIGTERM/SIGHUP (and a ^C while no turn runs) stop the servers' process groups and exit.
  exitOnSignals();
  return withUsage("-p", async () => {
    const cli = parseCli(
      argv,
      { prompt: { type: "string", short: "p" }, answer: { type: "string" } },
      { positionals: [0, 0] },
    );
    const prompt = cli.values.prompt === "-" ? await readPromptFromStdin() : cli.values.prompt;
    if (typeof prompt !== "string" || !prompt.trim())
      throw new UsageError(cli.values.prompt === "-" ? "-p -: stdin held no prompt" : "-p needs a non-empty prompt");
    const { json } = cli.common;
    const answer = cli.values.answer === undefined ? undefined : parseToolArgs(cli.values.answer as string, "--answer");
    const fail = (error: NonNullable<OneShotDocument["error"]>, model = ""): number => {
      if (json) {
        const doc: OneShotDocument = { answer: "", toolCalls: [], modelRequests: 0, model, error };
        outJson(doc);
      } else err(`mcp-prism: ${sanitizeInline(error.message)}\n`);
      return exitCode(error.rule);
    };
    const startFailed = (e: StartError) => ({ server: e.server, rule: e.rule, detail: e.detail, message: e.message });

    // The config (trusted, or asked about, or refused), then the model: a missing key should not
    // cost a server start, and an untrusted config's endpoint never gets the key.
    let config: HostConfig;
    try {
      config = await commandConfig(cli.common);
    } catch (e) {
      if (e instanceof StartError) return fail(startFailed(e));
      throw e;
    }
    let adapter: ModelAdapter;
    try {
      adapter = modelFor(cli.common, config);
    } catch (e) {
      if (!(e instanceof ModelError)) throw e;
      return fail({ rule: "model-config", detail: e.message, message: e.message });
    }

    let host;
    try {
      // Sampling is its own request to the same model, never a turn of this conversation.
      host = await startHost(cli.common, {
        config,
        input: oneShotInput({ answer, yes: cli.common.yes, model: () => adapter }),
      });
    } catch (e) {
      if (e instanceof StartError) return fail(startFailed(e), adapter.id);
      throw e;
    }
    // A server that failed or is still connecting is one line; the prompt runs on the others.
    for (const s of host.servers()) if (s.state === "failed" && s.error) err(`mcp-prism: ${sanitizeInline(s.error)}\n`);
    for (const line of stillConnecting(host)) err(`mcp-prism: ${sanitizeInline(line)}\n`);
    const ac = new AbortController();
    const onSigint = () => ac.abort();
    process.once("SIGINT", onSigint);
    let result: TurnResult;
    const notices: string[] = [];
    /** Per tool call id: what the model did not get of that result as sent (the app's card lines). */
    const modelNotes = new Map<string, string[]>();
    // Code mode: the model gets run_code (loaded only here); inner calls ask approval like direct ones.
    // The session's transcript, as the app writes one: resumable with --continue (its context records).
    const recorder = TranscriptRecorder.open((line) => err(`mcp-prism: ${sanitizeInline(line)}\n`));
    recorder.start({
      command: "-p",
      mode: host.mode,
      model: adapter.id,
      servers: host.servers().map((s) => s.name),
    });
    recorder.record({ kind: "user", text: prompt });
    const conversation = new Conversation();
    conversation.observe((c) => recorder.record(contextChangeRecord(c)));
    const executor = new ApprovingExecutor(host, cli.common.yes);
    executor.observe(recorder);
    const hostTools = host.mode === "code" ? [await codeTool(host, cli.common.yes, json, recorder)] : [];
    try {
      result = await runTurn({
        hostTools,
        resultTokens: config.limits.modelResultTokens,
        toolSearch: config.toolSearch,
        pinnedTools: config.pinnedTools,
        adapter,
        executor,
        conversation,
        prompt,
        mode: host.mode,
        signal: ac.signal,
        events: json
          ? (e) => {
              if (e.type === "notice") notices.push(e.text);
              else if (e.type === "retry") notices.push(retryLine(e));
              else if (e.type === "call-note")
                (modelNotes.get(e.callId) ?? modelNotes.set(e.callId, []).get(e.callId)!).push(e.text);
            }
          : progressToStderr,
      });
    } finally {
      process.off("SIGINT", onSigint);
      await host.close();
    }
    if (result.answer) recorder.record({ kind: "assistant", text: result.answer });
    if (result.error) recorder.record({ kind: "notice", level: "error", text: result.error.message });
    recorder.end();

    const failedCall = result.toolCalls.some((c) => c.outcome && !c.outcome.ok);
    if (json) {
      const doc: OneShotDocument = {
        answer: result.answer,
        toolCalls: result.toolCalls.map((c) =>
          c.hostRun
            ? hostRunDocument(c.call.name, c.call.args, c.hostRun)
            : {
                ...(c.outcome
                  ? callDocument(c.outcome)
                  : errorDocument(
                      c.call.tool,
                      callError("", c.call.tool, "unknown-tool", `the model named no known tool (${c.call.name})`),
                    )),
                args: c.call.args,
                ...(modelNotes.has(c.call.id) ? { modelNotes: modelNotes.get(c.call.id) } : {}),
              },
        ),
        modelRequests: result.modelRequests,
        model: adapter.id,
      };
      if (notices.length) doc.notices = notices;
      if (result.error)
        doc.error = { rule: `model-${result.error.kind}`, detail: result.error.message, message: result.error.message };
      outJson(doc);
    } else {
      if (result.answer) out(sanitizeText(result.answer) + "\n");
      if (result.error) err(`mcp-prism: ${sanitizeInline(result.error.message)}\n`);
    }
    return result.error || failedCall ? 1 : 0;
  });
}

async function codeTool(
  host: import("../../host/host.js").Host,
  yes: boolean,
  json: boolean,
  recorder: TranscriptRecorder,
): Promise<HostTool> {
  const { runCodeTool } = await import("../../code/run-code.js");
  return runCodeTool(host, {
    gate: new CallGate({ yes, ask: refusingAsker("mcp-prism") }),
    onCall: (c) => {
      recorder.scriptCall(c);
      if (!json)
        err(
          `  ↳ ${sanitizeInline(`${c.server}/${c.tool} ${JSON.stringify(c.args)}`)}: ${c.error ? sanitizeInline(`${c.error.rule}: ${c.error.message}`) : `${c.bytes} B to the script`}\n`,
        );
    },
  });
}

function hostRunDocument(tool: string, args: Record<string, unknown>, run: HostToolRun): HostRunDocument {
  const detail = run.detail as { run?: { calls?: { outcome?: CallOutcome }[] } } | undefined;
  const calls = (detail?.run?.calls ?? []).flatMap((c) => (c.outcome ? [callDocument(c.outcome)] : []));
  return { server: null, tool, args, isError: run.isError, forModel: run.text, calls };
}

/** The most of stdin `-p -` takes as a prompt (a pipe of a whole file is refused, not cut). */
const MAX_STDIN_PROMPT_BYTES = 1_000_000;

/** `-p -`: the prompt is all of stdin (UTF-8, at most 1 MB). */
async function readPromptFromStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_STDIN_PROMPT_BYTES)
      throw new UsageError(`-p -: the prompt on stdin is over ${MAX_STDIN_PROMPT_BYTES} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** "…(429: slow down); retry 1 of 2 in 3s" */
function retryLine(e: { text: string; waitMs: number; attempt: number; of: number }): string {
  return `${e.text}; retry ${e.attempt} of ${e.of} in ${Math.ceil(e.waitMs / 1000)}s`;
}

function progressToStderr(e: TurnEvent): void {
  if (e.type === "notice") err(`mcp-prism: ${sanitizeInline(e.text)}\n`);
  else if (e.type === "call-note") err(`  ⚠ for the model: ${sanitizeInline(e.text)}\n`);
  else if (e.type === "retry") err(`mcp-prism: ${sanitizeInline(retryLine(e))}\n`);
  else if (e.type === "tool-call")
    err(
      `→ ${sanitizeInline(`${e.call.server ? `${e.call.server}/` : ""}${e.call.tool} ${JSON.stringify(e.call.args)}`)}\n`,
    );
  else if (e.type === "tool-outcome" && isToolSearchRun(e))
    err(`← ${sanitizeInline(toolSearchLine(e.hostRun.detail))}\n`);
  else if (e.type === "tool-outcome" && e.hostRun)
    err(
      `← ${sanitizeInline(e.call.name)}${e.hostRun.isError ? " (error)" : ""}: model ${e.hostRun.text.length} characters\n`,
    );
  else if (e.type === "tool-outcome" && e.outcome) {
    const o = e.outcome;
    if (!o.ok) err(`← ${sanitizeInline(`${o.plan.tool} failed (${o.error.rule}): ${o.error.message}`)}\n`);
    else {
      const b = o.bytes;
      err(
        `← ${sanitizeInline(o.plan.tool)}${o.isError ? " (isError)" : ""}: model ${b.model} B, user ${b.user} B, programmatic ${b.programmatic} B, app ${b.app} B\n`,
      );
      // What the tool made for the person (a table, an image's description): here, never to the model.
      const width = Math.max(40, (process.stderr.columns ?? 100) - 6);
      for (const entry of o.routed.user) {
        err(`  for you, ${sanitizeInline(selectorKey(entry))}:\n`);
        for (const line of previewOutput(entry, { table: true, width })) err(`    ${line}\n`);
      }
    }
  }
}
