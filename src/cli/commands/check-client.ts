// mcp-prism check-client -- COMMAND…: SEP-3279 client conformance of any host. The command runs
// once per scenario and transport against a 2026-12-01 scenario server and a scripted model API
// on 127.0.0.1 (src/conformance/client/); the checks read what the server saw and which output
// canaries reached the model.
import { bundledCliPath } from "../../host/config/config.js";
import { tally } from "../../conformance/index.js";
import { CLIENT_CHECKS, judge, type ScenarioRun, type Transport } from "../../conformance/client/checks.js";
import { runScenario } from "../../conformance/client/run.js";
import { CLIENT_SCENARIOS, scenarioNamed, type ClientScenario } from "../../conformance/client/scenarios.js";
import { formatLine, formatSummary, sanitize } from "../../conformance/report.js";
import { UsageError, parseOptions } from "../args.js";
import { out, err } from "../output/terminal.js";

export const CHECK_CLIENT_USAGE = `Usage: mcp-prism check-client [options] -- COMMAND [ARGS...]

Runs COMMAND once per scenario and transport. Each run has its own 2026-12-01 scenario server and
a scripted model API on 127.0.0.1 (OpenAI Chat Completions at /v1/chat/completions, Anthropic
Messages at /v1/messages) that calls the scenario's tool once, then answers. The client finds them
as the official conformance suite's clients do: the server URL as the last argument (HTTP), and
MCP_CONFORMANCE_SCENARIO, MCP_CONFORMANCE_CONTEXT (JSON), MCP_CONFORMANCE_SERVER_URL or
MCP_CONFORMANCE_SERVER_COMMAND (a JSON argv), MCP_CONFORMANCE_MODEL_URL, OPENAI_BASE_URL and
ANTHROPIC_BASE_URL (model keys are replaced by a dummy one). The checks read what the server saw
(requestedOutputs, versions) and which outputs' canaries reached a model request.

Each check prints PASS, FAIL (a MUST broken), WARN (a proposed rule), NOT-TESTED (the client never
got that far) or N/A. Exit 1 on any FAIL, and on NOT-TESTED unless --allow-untested.

Options:
  --scenario NAME      run only this scenario (repeatable): ${CLIENT_SCENARIOS.map((s) => s.name).join(", ")}
  --transport T        stdio or http (repeatable; default both)
  --timeout SECONDS    how long one run may take (default 60)
  --allow-untested     exit 0 when nothing failed although some requirement went untested
  --json               one JSON document: {runs, checks, passed, failed, warned, notTested, notApplicable, outcome}

mcp-prism itself: mcp-prism check-client -- mcp-prism conformance-client [--mode MODE]
`;

const OPTIONS = {
  scenario: { type: "string", multiple: true },
  transport: { type: "string", multiple: true },
  timeout: { type: "string" },
  "allow-untested": { type: "boolean" },
  json: { type: "boolean" },
} as const;

export interface CheckClientArgs {
  command: string[];
  scenarios: ClientScenario[];
  transports: Transport[];
  timeoutMs: number;
  allowUntested: boolean;
  json: boolean;
}

export function parseCheckClientArgs(argv: string[]): CheckClientArgs {
  const dash = argv.indexOf("--");
  const command = dash === -1 ? [] : argv.slice(dash + 1);
  const { values } = parseOptions(dash === -1 ? argv : argv.slice(0, dash), OPTIONS, false);
  if (command.length === 0) throw new UsageError("give the client to check: -- COMMAND [ARGS...]");
  const scenarios = ((values.scenario ?? []) as string[]).map((n) => {
    const s = scenarioNamed(n);
    if (!s)
      throw new UsageError(
        `--scenario: no scenario ${JSON.stringify(n)} (${CLIENT_SCENARIOS.map((x) => x.name).join(", ")})`,
      );
    return s;
  });
  const transports = ((values.transport ?? []) as string[]).map((t) => {
    if (t !== "stdio" && t !== "http")
      throw new UsageError(`--transport takes stdio or http, got ${JSON.stringify(t)}`);
    return t as Transport;
  });
  let timeoutMs = 60_000;
  if (values.timeout !== undefined) {
    const s = Number(values.timeout);
    if (!Number.isFinite(s) || s <= 0 || s > 3600)
      throw new UsageError("--timeout takes a number of seconds between 0 and 3600");
    timeoutMs = Math.round(s * 1000);
  }
  return {
    command,
    scenarios: scenarios.length ? [...new Set(scenarios)] : CLIENT_SCENARIOS,
    transports: transports.length ? [...new Set(transports)] : ["stdio", "http"],
    timeoutMs,
    allowUntested: values["allow-untested"] === true,
    json: values.json === true,
  };
}

/** One line per run: how the client ended and what it did. */
function runLine(r: ScenarioRun): string {
  const ended = r.exit.timedOut
    ? "timed out"
    : r.exit.signal
      ? `killed by ${r.exit.signal}`
      : r.exit.code === null
        ? "did not start"
        : `exit ${r.exit.code}`;
  const called = r.observations.filter((o) => o.kind === "request" && o.method === "tools/call").length;
  return `  ${`${r.scenario.name}/${r.transport}`.padEnd(30)} ${ended}, ${r.model.length} model request(s), ${called} tools/call`;
}

export async function run(argv: string[]): Promise<number> {
  const own = argv.includes("--") ? argv.slice(0, argv.indexOf("--")) : argv;
  if (own.includes("--help") || own.includes("-h")) {
    out(CHECK_CLIENT_USAGE);
    return 0;
  }
  let args: CheckClientArgs;
  try {
    args = parseCheckClientArgs(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    err(`mcp-prism check-client: ${e.message}\n${CHECK_CLIENT_USAGE}`);
    return 2;
  }
  const cli = bundledCliPath();
  const runs: ScenarioRun[] = [];
  for (const scenario of args.scenarios)
    for (const transport of args.transports) {
      const r = await runScenario(scenario, transport, {
        command: args.command,
        timeoutMs: args.timeoutMs,
        stdioServer: (name, seed, log) => [
          process.execPath,
          cli,
          "scenario-server",
          name,
          "--seed",
          seed,
          "--log",
          log,
        ],
      });
      runs.push(r);
      if (!args.json) out(`${runLine(r)}\n`);
      if (!args.json && r.exit.code === null && !r.exit.timedOut && !r.exit.signal)
        err(`mcp-prism check-client: ${sanitize(r.exit.output.trim() || "the command did not start")}\n`);
    }
  const results = judge(runs, CLIENT_CHECKS);
  const t = tally(results);
  const outcome = t.failed > 0 ? "fail" : t.notTested > 0 ? "untested" : "pass";
  if (args.json) {
    out(
      `${JSON.stringify({
        runs: runs.map((r) => ({
          scenario: r.scenario.name,
          transport: r.transport,
          exitCode: r.exit.code,
          timedOut: r.exit.timedOut,
          modelRequests: r.model.length,
          toolCalls: r.observations.filter((o) => o.kind === "request" && o.method === "tools/call").length,
        })),
        checks: results.map((r) => ({
          id: r.id,
          status: r.status,
          level: r.level,
          ...(r.proposed ? { proposed: true } : {}),
          detail: sanitize(r.detail),
        })),
        ...t,
        outcome,
      })}\n`,
    );
  } else {
    for (const r of results) out(`${formatLine(r)}\n`);
    out(`${formatSummary(t)}\n`);
    const stuck = runs.filter((r) => r.exit.timedOut || (r.exit.code !== 0 && r.model.length === 0));
    for (const r of stuck.slice(0, 3)) {
      const tail = r.exit.output.trim().split("\n").slice(-3).join(" ⏎ ");
      if (tail) out(`  ${r.scenario.name}/${r.transport} said: ${sanitize(tail)}\n`);
    }
    if (outcome === "untested")
      out(
        args.allowUntested
          ? "some requirements went untested (--allow-untested: exit 0)\n"
          : "some requirements went untested: exit 1 (--allow-untested to accept)\n",
      );
  }
  return outcome === "fail" || (outcome === "untested" && !args.allowUntested) ? 1 : 0;
}
