// mcp-prism check: tests any MCP server's implementation of SEP-3279 (and the 2026-07-28
// versioning it builds on) over stdio (`-- COMMAND ARGS…`) or Streamable HTTP (`--url URL`).
import { CheckContext, TransportError, runChecks, tally, type Target } from "../../host/conformance/index.js";
import { formatLine, formatSummary, sanitize, toJson } from "../../host/conformance/report.js";
import { UsageError } from "../args.js";
import { out, err } from "../output/terminal.js";

export const CHECK_USAGE = `Usage: mcp-prism check (-- COMMAND [ARGS...] | --url URL) [options]

Options:
  --json               one JSON document: {checks:[{id,status,level,detail}], passed, failed, skipped, notApplicable}
  --allow-writes       also call tools that are not marked readOnlyHint (with made-up arguments)
  --args TOOL=JSON     arguments for TOOL instead of ones generated from its inputSchema (repeatable)
  --timeout SECONDS    how long to wait for each answer (default 10)
`;

export interface CheckArgs {
  target: Target;
  json: boolean;
  timeoutMs: number;
  argOverrides: Record<string, Record<string, unknown>>;
  allowWrites: boolean;
}

export function parseCheckArgs(argv: string[]): CheckArgs {
  const dash = argv.indexOf("--");
  const opts = dash === -1 ? argv : argv.slice(0, dash);
  const command = dash === -1 ? [] : argv.slice(dash + 1);
  let url: string | undefined;
  let json = false;
  let allowWrites = false;
  let timeoutMs = 10_000;
  const argOverrides: Record<string, Record<string, unknown>> = {};
  for (let i = 0; i < opts.length; i++) {
    const a = opts[i];
    const value = () => {
      const v = opts[++i];
      if (v === undefined) throw new UsageError(`${a} needs a value`);
      return v;
    };
    if (a === "--json") json = true;
    else if (a === "--allow-writes") allowWrites = true;
    else if (a === "--url") url = value();
    else if (a === "--timeout") {
      const s = Number(value());
      if (!Number.isFinite(s) || s <= 0 || s > 3600) throw new UsageError("--timeout takes a number of seconds between 0 and 3600");
      timeoutMs = Math.round(s * 1000);
    } else if (a === "--args") {
      const v = value();
      const eq = v.indexOf("=");
      if (eq <= 0) throw new UsageError(`--args takes TOOL=JSON, got ${JSON.stringify(v)}`);
      let parsed: unknown;
      try {
        parsed = JSON.parse(v.slice(eq + 1));
      } catch {
        throw new UsageError(`--args ${v.slice(0, eq)}: the value is not JSON`);
      }
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new UsageError(`--args ${v.slice(0, eq)}: the value must be a JSON object`);
      argOverrides[v.slice(0, eq)] = parsed as Record<string, unknown>;
    } else throw new UsageError(`unknown option ${JSON.stringify(a)}`);
  }
  if (url !== undefined && command.length > 0) throw new UsageError("give either -- COMMAND or --url, not both");
  if (url === undefined && command.length === 0) throw new UsageError("give the server to check: -- COMMAND [ARGS...] or --url URL");
  let target: Target;
  if (url !== undefined) {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      throw new UsageError(`--url ${JSON.stringify(url)} is not a URL`);
    }
    if (u.protocol !== "http:" && u.protocol !== "https:") throw new UsageError(`--url must be http or https, got ${u.protocol}`);
    target = { kind: "http", url };
  } else target = { kind: "stdio", command: command[0], args: command.slice(1) };
  return { target, json, timeoutMs, argOverrides, allowWrites };
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
  const ctx = new CheckContext({ target: args.target, timeoutMs: args.timeoutMs, argOverrides: args.argOverrides, allowWrites: args.allowWrites });
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
    out(args.json ? `${toJson(results, t)}\n` : `${formatSummary(t)}\n`);
    return t.failed > 0 ? 1 : 0;
  } finally {
    await ctx.close();
  }
}
