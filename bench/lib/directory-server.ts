// The demo's customer directory as a server written BEFORE SEP-3279 would serve it, for the code
// mode bench's bulk task: one search_customers whose result is the page itself (items, total,
// nextCursor) as structuredContent, with its JSON text as content (the 2025-06-18 spec's SHOULD for
// structured results). Built with fromLegacyTool and `programmatic: true`, so the same tool and
// data serve every approach: a direct call in chat mode reads the page's JSON and its cursor, a
// legacy client profile reads content and structuredContent its own way, code mode's script reads
// programmatic/structured. In process (bench/lib/memory-host.ts).
import type { ServerConfig } from "../../src/host/config/config.js";
import type { TransportFactory } from "../../src/host/connection/transport-factory.js";
import { decodeCursor, encodeCursor, searchCustomers } from "../../src/demo/customers.js";
import { searchCustomersTool } from "../../src/demo/tools/search-customers.js";
import { fromLegacyTool, ToolkitServer } from "../../src/server/index.js";
import { memoryServer } from "./memory-host.js";

const REGIONS = ["NA", "EMEA", "APAC", "LATAM"];

const pageSchema = {
  type: "object",
  properties: {
    items: {
      type: "array",
      items: {
        type: "object",
        properties: {
          customerId: { type: "string" },
          displayName: { type: "string" },
          region: { enum: REGIONS },
          plan: { type: "string" },
          lastActivity: { type: "string" },
        },
        required: ["customerId", "displayName", "region", "plan", "lastActivity"],
      },
    },
    total: { type: "integer" },
    nextCursor: { type: "string" },
  },
  required: ["items", "total"],
};

const search = fromLegacyTool<{ query: string; cursor?: string; limit?: number }>({
  name: "search_customers",
  // The demo tool's own description and input schema: only the result shape differs.
  description: searchCustomersTool.description,
  inputSchema: searchCustomersTool.inputSchema,
  outputSchema: pageSchema,
  programmatic: true,
  annotations: { readOnlyHint: true },
  handler: ({ query, cursor, limit }) => {
    const offset = cursor === undefined ? 0 : decodeCursor(cursor);
    if (offset === undefined)
      return {
        isError: true,
        content: [{ type: "text", text: `The cursor ${JSON.stringify(cursor)} is not one this server issued.` }],
      };
    const page = searchCustomers(query, offset, limit ?? 25);
    const structured = {
      items: page.items.map((c) => ({
        customerId: c.customerId,
        displayName: c.displayName,
        region: c.region,
        plan: c.plan,
        lastActivity: c.lastActivity,
      })),
      total: page.total,
      ...(page.nextOffset !== undefined ? { nextCursor: encodeCursor(page.nextOffset) } : {}),
    };
    return { content: [{ type: "text", text: JSON.stringify(structured) }], structuredContent: structured };
  },
});

/** A config for the directory server in process, and the HostOptions.transport that connects it. */
export function directoryServer(): { config: ServerConfig; transport: TransportFactory } {
  return memoryServer(new ToolkitServer({ info: { name: "directory", version: "0.0.1" }, tools: [search] }));
}
