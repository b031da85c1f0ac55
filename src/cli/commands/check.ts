// mcp-prism check: tests any MCP server's implementation of SEP-3279 (and the 2026-07-28
// versioning it builds on) over stdio (`-- COMMAND ARGS…`) or Streamable HTTP (`--url URL`).
import { CheckContext, TransportError, runChecks, tally, type Target } from "../../conformance/index.js";
import { coverage } from "../../conformance/coverage.js";
import { formatCoverage, formatLine, formatSummary, outcomeOf, sanitize, toJson } from "../../conformance/report.js";
import { UsageError, parseOptions } from "../args.js";
import { out, err } from "../output/terminal.js";

export const CHECK_USAGE = `Usage: mcp-prism check (-- COMMAND [ARGS...] | --url URL) [options]

Each check prints PASS, FAIL (a MUST broken), WARN (a SHOULD or a proposed rule), NOT-TESTED
(it applied but could not be exercised) or N/A, then the tally and which tools and variants were
actually called. Exit 1 on any FAIL, and when a requirement or a listed tool went untested.

Options:
  --json               one JSON document: {checks:[{id,status,level,detail}], passed, failed, warned,
                       notTested, notApplicable, coverage, outcome}
  --call TOOL          call TOOL even if it is not marked readOnlyHint (repeatable); follow it with
                       --args JSON to give its arguments
  --allow-writes       call every tool, also those not marked readOnlyHint (with made-up arguments)
  --args TOOL=JSON     arguments for TOOL instead of ones generated from its inputSchema (repeatable)
  --allow-untested     exit 0 although requirements or tools went untested (no FAIL)
  --timeout SECONDS    how long to wait for each answer (default 10)
`;

export interface CheckArgs {
  target: Target;
  json: boolean;
  timeoutMs: number;
  argOverrides: Record<string, Record<string, unknown>>;
  allowWrites: boolean;
  allowUntested: boolean;
  calls: string[];
}

const CHECK_OPTIONS = {
  json: { type: "boolean" },
  "allow-writes": { type: "boolean" },
  "allow-untested": { type: "boolean" },
  call: { type: "string", multiple: true },
  url: { type: "string" },
  timeout: { type: "string" },
  args: { type: "string", multiple: true },
} as const;

/** `check`'s own options come before `--`; everything after it is the server's command line. */
export function parseCheckArgs(argv: string[]): CheckArgs {
  const dash = argv.indexOf("--");
  const command = dash === -1 ? [] : argv.slice(dash + 1);
  const own = pairCallArgs(dash === -1 ? argv : argv.slice(0, dash));
  const { values } = parseOptions(own, CHECK_OPTIONS, false);
  const url = values.url as string | undefined;
  let timeoutMs = 10_000;
  if (values.timeout !== undefined) {
    const s = Number(values.timeout);
    if (!Number.isFinite(s) || s <= 0 || s > 3600)
      throw new UsageError("--timeout takes a number of seconds between 0 and 3600");
    timeoutMs = Math.round(s * 1000);
  }
  const argOverrides: Record<string, Record<string, unknown>> = {};
  for (const v of (values.args ?? []) as string[]) {
    const eq = v.indexOf("=");
    if (eq <= 0) throw new UsageError(`--args takes TOOL=JSON, got ${JSON.stringify(v)}`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(v.slice(eq + 1));
    } catch {
      throw new UsageError(`--args ${v.slice(0, eq)}: the value is not JSON`);
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
      throw new UsageError(`--args ${v.slice(0, eq)}: the value must be a JSON object`);
    argOverrides[v.slice(0, eq)] = parsed as Record<string, unknown>;
  }
  if (url !== undefined && command.length > 0) throw new UsageError("give either -- COMMAND or --url, not both");
  if (url === undefined && command.length === 0)
    throw new UsageError("give the server to check: -- COMMAND [ARGS...] or --url URL");
  let target: Target;
  if (url !== undefined) {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      throw new UsageError(`--url ${JSON.stringify(url)} is not a URL`);
    }
    if (u.protocol !== "http:" && u.protocol !== "https:")
      throw new UsageError(`--url must be http or https, got ${u.protocol}`);
    target = { kind: "http", url };
  } else target = { kind: "stdio", command: command[0], args: command.slice(1) };
  const calls = (values.call ?? []) as string[];
  for (const c of calls)
    if (c === "" || c.startsWith("-")) throw new UsageError(`--call takes a tool name, got ${JSON.stringify(c)}`);
  return {
    target,
    json: values.json === true,
    timeoutMs,
    argOverrides,
    allowWrites: values["allow-writes"] === true,
    allowUntested: values["allow-untested"] === true,
    calls,
  };
}

/** `--call TOOL --args {…}`: the JSON object right after a --call belongs to that tool (`--args TOOL={…}`). */
function pairCallArgs(own: string[]): string[] {
  const out = [...own];
  for (let i = 0; i + 3 < out.length; i++) {
    if (out[i] === "--call" && out[i + 2] === "--args" && out[i + 3].trimStart().startsWith("{"))
      out[i + 3] = `${out[i + 1]}=${out[i + 3]}`;
  }
  return out;
}

export async function run(argv: string[]): Promise<number> {
  const own = argv.includes("--") ? argv.slice(0, argv.indexOf("--")) : argv;
  if (own.includes("--help") || own.includes("-h")) {
    out(CHECK_USAGE);
    return 0;
  }
  let args: CheckArgs;
  try {
    args = parseCheckArgs(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    err(`mcp-prism check: ${e.message}\n${CHECK_USAGE}`);
    return 2;
  }
  const ctx = new CheckContext({
    target: args.target,
    timeoutMs: args.timeoutMs,
    argOverrides: args.argOverrides,
    allowWrites: args.allowWrites,
    calls: args.calls,
  });
  try {
    // Fail fast, in one line, when the server cannot be started or reached at all.
    try {
      await ctx.connection();
    } catch (e) {
      err(`mcp-prism check: ${sanitize((e as Error).message)}\n`);
      return 1;
    }
    const first = await ctx.discover();
    if (first.failure instanceof TransportError) {
      err(`mcp-prism check: ${sanitize(first.failure.message)}\n`);
      return 1;
    }
    const results = await runChecks(ctx, args.json ? undefined : (r) => out(`${formatLine(r)}\n`));
    const t = tally(results);
    const covered = await coverage(ctx);
    const outcome = outcomeOf(t, covered);
    if (args.json) out(`${toJson(results, t, covered, outcome)}\n`);
    else {
      out(`${formatCoverage(covered)}\n`);
      if (outcome === "untested")
        out(
          `untested: not a pass (${args.allowUntested ? "accepted with --allow-untested" : "--call TOOL --args JSON exercises a tool; --allow-untested accepts it"})\n`,
        );
      out(`${formatSummary(t)}\n`);
    }
    return outcome === "fail" || (outcome === "untested" && !args.allowUntested) ? 1 : 0;
  } finally {
    await ctx.close();
  }
}
