// mcp-prism demo-server [--http PORT]: the bundled demo server on stdio (default) or HTTP.
import { createDemoServer } from "../../demo/server.js";
import { logRequests, serveHttp, serveStdio } from "../../server/index.js";
import { UsageError, parseOptions } from "../args.js";
import { out, err } from "../output/terminal.js";

const USAGE =
  "Usage: mcp-prism demo-server [--http PORT] [--log-requests FILE] [--conformance-fixtures] [--error-schemas]\n" +
  "  stdio by default; --http 0 picks a free port; --log-requests appends every request and answer as JSON Lines;\n" +
  "  --conformance-fixtures also serves the official conformance suite's named test tools, resources and prompts;\n" +
  "  --error-schemas declares draft_email's programmatic error shape as errorSchema (SEP-3279 open question 2, a prototype)\n";

const OPTIONS = {
  http: { type: "string" },
  "log-requests": { type: "string" },
  "conformance-fixtures": { type: "boolean" },
  "error-schemas": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/** The port of `--http PORT` (undefined: stdio) and the `--log-requests` file; UsageError with one line. */
export function parseDemoServerArgs(argv: string[]): {
  port?: number;
  requestLog?: string;
  conformanceFixtures: boolean;
  errorSchemas: boolean;
} {
  const { values } = parseOptions(argv, OPTIONS, false);
  const conformanceFixtures = values["conformance-fixtures"] === true;
  const errorSchemas = values["error-schemas"] === true;
  const http = values.http as string | undefined;
  const requestLog = values["log-requests"] as string | undefined;
  if (requestLog === "") throw new UsageError("--log-requests needs a file path");
  if (http === undefined) return { requestLog, conformanceFixtures, errorSchemas };
  const port = Number(http);
  if (!/^\d+$/.test(http) || port > 65535)
    throw new UsageError(`--http needs a port number 0..65535, got ${JSON.stringify(http)}`);
  return { port, requestLog, conformanceFixtures, errorSchemas };
}

export async function run(argv: string[]): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    out(USAGE);
    return 0;
  }
  let port: number | undefined;
  let requestLog: string | undefined;
  let conformanceFixtures = false;
  let errorSchemas = false;
  try {
    ({ port, requestLog, conformanceFixtures, errorSchemas } = parseDemoServerArgs(argv));
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    err(`mcp-prism demo-server: ${e.message}\n${USAGE}`);
    return 2;
  }
  const server = createDemoServer({ conformanceFixtures, errorSchemas });
  if (requestLog) logRequests(server, requestLog);
  if (port === undefined) {
    await serveStdio(server);
    return 0;
  }
  let handle;
  try {
    handle = await serveHttp(server, { port });
  } catch (e) {
    err(`mcp-prism demo-server: cannot listen on 127.0.0.1:${port}: ${(e as Error).message}\n`);
    return 1;
  }
  err(`listening on ${handle.url}\n`);
  await new Promise<void>((resolve) => {
    const stop = () => void handle.close().then(resolve);
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  return 0;
}
