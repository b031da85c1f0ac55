// The two "everything" tools (./tools.ts, unchanged) on an SDK 1.x McpServer, with SEP-3279
// variants added by withOutputVariants: the lines marked "+ variants" are the whole diff.
// Usage: server.ts            stdio
//        server.ts --http 0   Streamable HTTP on 127.0.0.1 (prints "listening on URL" on stderr)
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { z } from "zod";
import {
  contentVariant,
  serveHttp,
  serveStdio,
  structuredVariant,
  withOutputVariants,
} from "../../src/server/index.js"; // + variants ("mcp-prism/server" when installed)
import { GetStructuredContentOutputSchema, registerGetStructuredContentTool, registerGetSumTool } from "./tools.js";

const server = new McpServer({ name: "everything-with-variants", version: "1.0.0" });
registerGetSumTool(server);
registerGetStructuredContentTool(server);

// + variants: prose for the model (older clients keep the JSON text), the same data for code,
// and a one-line reading for the person.
type Weather = z.infer<typeof GetStructuredContentOutputSchema>;
const reading = (w: Weather) => `${w.conditions}, ${w.temperature} °C, humidity ${w.humidity} %`;
const variants = withOutputVariants(server).declare("get-structured-content", [
  contentVariant("assistant", (r, args) => [
    { type: "text", text: `Weather in ${args.location}: ${reading(r.structuredContent as Weather)}.` },
  ]),
  structuredVariant("programmatic", GetStructuredContentOutputSchema, (r) => r.structuredContent as Weather),
  contentVariant("user", (r) => [{ type: "text", text: reading(r.structuredContent as Weather) }]),
]);

const httpAt = process.argv.indexOf("--http");
if (httpAt === -1)
  await serveStdio(await variants.toolkit()); // + variants (was: server.connect(new StdioServerTransport()))
else {
  const handle = await serveHttp(await variants.toolkit(), { port: Number(process.argv[httpAt + 1] ?? 0) });
  process.stderr.write(`listening on ${handle.url}\n`);
}
