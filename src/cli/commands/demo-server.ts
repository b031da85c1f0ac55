// mcp-prism demo-server [--http PORT]: the bundled demo server on stdio (default) or HTTP.
import { createDemoServer } from "../../demo/server.js";
import { logRequests, serveHttp, serveStdio } from "../../server/index.js";
import { out, err } from "../output/terminal.js";

const USAGE =
  "usage: mcp-prism demo-server [--http PORT] [--log-requests FILE] [--conformance-fixtures]\n" +
  "  stdio by default; --http 0 picks a free port; --log-requests appends every request and answer as JSON Lines;\n" +
  "  --conformance-fixtures also serves the official conformance suite's named test tools, resources and prompts\n";

export async function run(argv: string[]): Promise<number> {
  let port: number | undefined;
  let requestLog: string | undefined;
  let conformanceFixtures = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--help" || a === "-h") {
      out(USAGE);
      return 0;
    }
    if (a === "--conformance-fixtures") {
      conformanceFixtures = true;
      continue;
    }
    if (a === "--log-requests" || a.startsWith("--log-requests=")) {
      requestLog = a.startsWith("--log-requests=") ? a.slice(15) : argv[++i];
      if (!requestLog) {
        err("mcp-prism demo-server: --log-requests needs a file path\n");
        return 2;
      }
      continue;
    }
    if (a === "--http" || a.startsWith("--http=")) {
      const value = a.startsWith("--http=") ? a.slice(7) : argv[++i];
      port = Number(value);
      if (value === undefined || !/^\d+$/.test(value) || port > 65535) {
        err(`mcp-prism demo-server: --http needs a port number 0..65535, got ${JSON.stringify(value ?? "")}\n`);
        return 2;
      }
      continue;
    }
    err(`mcp-prism demo-server: unknown option ${JSON.stringify(a)}\n${USAGE}`);
    return 2;
  }
  const server = createDemoServer({ conformanceFixtures });
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
