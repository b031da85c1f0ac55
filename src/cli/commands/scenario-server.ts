// mcp-prism scenario-server NAME [--seed HEX] [--log FILE] [--http PORT]: one of check-client's
// scenario servers on stdio (how check-client hands it to a client as a command) or HTTP; --log
// appends what it sees as JSON Lines (check-client reads them back), --seed fixes its canaries.
import { appendFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { CLIENT_SCENARIOS, canaries, scenarioNamed } from "../../conformance/client/scenarios.js";
import { serveHttp, serveStdio } from "../../server/index.js";
import { UsageError, parseOptions } from "../args.js";
import { out, err } from "../output/terminal.js";

const USAGE = `Usage: mcp-prism scenario-server NAME [--seed HEX] [--log FILE] [--http PORT]
  Serves one check-client scenario (${CLIENT_SCENARIOS.map((s) => s.name).join(", ")}) on stdio, or on HTTP with --http (0: a free port).
`;

const OPTIONS = {
  seed: { type: "string" },
  log: { type: "string" },
  http: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

export async function run(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseOptions(argv, OPTIONS, true);
    if (parsed.values.help === true) {
      out(USAGE);
      return 0;
    }
    if (parsed.positionals.length !== 1) throw new UsageError("give one scenario name");
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    err(`mcp-prism scenario-server: ${e.message}\n${USAGE}`);
    return 2;
  }
  const scenario = scenarioNamed(parsed.positionals[0]);
  const http = parsed.values.http as string | undefined;
  const port = http === undefined ? undefined : Number(http);
  if (!scenario || (port !== undefined && (!/^\d+$/.test(http!) || port > 65535))) {
    err(
      `mcp-prism scenario-server: ${scenario ? `--http needs a port number, got ${JSON.stringify(http)}` : `no scenario ${JSON.stringify(parsed.positionals[0])}`}\n${USAGE}`,
    );
    return 2;
  }
  const log = parsed.values.log as string | undefined;
  const seed = (parsed.values.seed as string | undefined) ?? randomBytes(16).toString("hex");
  const server = scenario.server(canaries(seed), (o) => {
    if (log) appendFileSync(log, `${JSON.stringify(o)}\n`);
  });
  if (port === undefined) {
    await serveStdio(server);
    return 0;
  }
  const handle = await serveHttp(server, { port });
  out(`${scenario.name}: ${handle.url}\n`);
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await handle.close();
  return 0;
}
