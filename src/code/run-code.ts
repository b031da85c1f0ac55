// run_code: the one host tool code mode gives the model. Its description carries the typed
// declarations of `tools`; its result is the script's return value (JSON), its console output and
// the list of calls it made (tool and size), bounded, with a notice when cut. The programmatic
// outputs the script read and did not return never reach the model: they stay in the script run
// (and in the user's Programmatic pane).
import type { ToolEntry } from "../host/types.js";
import { runScript, scriptTools, type CodeHost, type ScriptOptions, type ScriptRun } from "./bridge.js";
import { declarationsFor } from "./declarations.js";

export const RUN_CODE = "run_code";
/** What the model receives from one run, in characters. */
export const MAX_MODEL_CHARS = 16_000;
const MAX_LOG_CHARS = 4_000;
const MAX_CALLS_LISTED = 50;

/** What the model reads about a run (also `mcp-prism run --json`'s shape, whole there). */
export interface RunReport {
  value: unknown;
  logs: string[];
  calls: { tool: string; bytes: number; error?: string }[];
  error?: { rule: string; message: string };
}

export function reportOf(run: ScriptRun): RunReport {
  const report: RunReport = {
    value: run.ok ? (run.value ?? null) : null,
    logs: run.logs,
    calls: run.calls.map((c) => ({ tool: c.tool, bytes: c.bytes, ...(c.error ? { error: c.error.rule } : {}) })),
  };
  if (run.error) report.error = run.error;
  return report;
}

/** The model's text: the report as JSON, each part cut to its bound with a notice saying so. */
export function modelText(run: ScriptRun): string {
  const report = reportOf(run);
  const notices: string[] = [];
  if (run.logsCut) notices.push(`${run.logsCut} console line(s) were dropped in the sandbox`);
  let logs = report.logs;
  const logChars = logs.reduce((n, l) => n + l.length, 0);
  if (logChars > MAX_LOG_CHARS) {
    const kept: string[] = [];
    let n = 0;
    for (const l of logs) {
      if (n + l.length > MAX_LOG_CHARS) break;
      kept.push(l);
      n += l.length;
    }
    notices.push(`console output cut: ${kept.length} of ${logs.length} lines (${n} of ${logChars} characters) shown`);
    logs = kept;
  }
  let calls = report.calls;
  if (calls.length > MAX_CALLS_LISTED) {
    notices.push(`calls cut: the first ${MAX_CALLS_LISTED} of ${calls.length} listed`);
    calls = calls.slice(0, MAX_CALLS_LISTED);
  }
  // No console output: no `logs` key (the model reads every character of this on every request).
  const out: Record<string, unknown> = { value: report.value, ...(logs.length || run.logsCut ? { logs } : {}), calls };
  if (report.error) out.error = report.error;
  let text = JSON.stringify(out);
  if (text.length > MAX_MODEL_CHARS) {
    const valueJson = run.valueJson ?? JSON.stringify(report.value);
    const room = Math.max(0, MAX_MODEL_CHARS - (text.length - valueJson.length) - 200);
    // The cut JSON is itself a string in the report: escaping (quotes) makes it longer, so shrink to fit.
    let cut = valueJson.slice(0, room);
    for (
      let quoted = JSON.stringify(cut).length;
      quoted > room && cut.length > 0;
      quoted = JSON.stringify(cut).length
    ) {
      cut = cut.slice(0, Math.max(0, Math.floor((cut.length * room) / quoted) - 1));
    }
    out.value = null;
    out.valueCut = cut;
    notices.push(
      `value cut: the first ${cut.length} of ${valueJson.length} characters of its JSON shown (return less, e.g. counts or the top rows)`,
    );
  }
  if (notices.length) out.notice = notices.join("; ");
  text = JSON.stringify(out);
  return text;
}

// Short: the model reads it on every request (docs/benchmarks.md, "Code mode").
const DESCRIPTION_LEAD =
  "Runs JavaScript (an async function body) in a sandbox: no network, files or timers. `await tools.NAME(args)` gives the tool's data (types below) or throws ToolError {server, tool, rule, message}. You get back only the return value (JSON), console.log lines and the calls made: page, filter and aggregate in the script.";

/** run_code for this host; its description is built when first read per tool list. */
export function runCodeTool(host: CodeHost, opts: Omit<ScriptOptions, "signal"> = {}) {
  let cached: { tools: ToolEntry[]; text: string } | undefined;
  return {
    name: RUN_CODE,
    get description(): string {
      const tools = host.modelTools();
      if (!cached || cached.tools.length !== tools.length || cached.tools.some((t, i) => t !== tools[i])) {
        cached = { tools, text: `${DESCRIPTION_LEAD}\n\n\`\`\`ts\n${declarationsFor(tools)}\n\`\`\`` };
      }
      return cached.text;
    },
    /** The tools the declarations type: listed to the model once, here (a direct call still gets its receipt). */
    covers(tool: { server: string; name: string }): boolean {
      return scriptTools(host.modelTools()).some((t) => t.server === tool.server && t.name === tool.name);
    },
    inputSchema: {
      type: "object" as const,
      properties: { code: { type: "string", description: "Async function body; `return` the result." } },
      required: ["code"],
      additionalProperties: false,
    },
    async run(args: Record<string, unknown>, ctx: { signal?: AbortSignal }) {
      const code = args.code;
      if (typeof code !== "string")
        return {
          isError: true,
          text: JSON.stringify({ error: { rule: "invalid-arguments", message: 'run_code takes {"code": string}' } }),
        };
      const run = await runScript(host, code, { ...opts, signal: ctx.signal });
      return { isError: !run.ok, text: modelText(run), detail: { code, run } };
    },
  };
}
