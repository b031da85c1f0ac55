// search_customers: one search, five audience-specific projections with their OWN schemas.
import { UI_EXTENSION } from "../../protocol/index.js";
import { DASHBOARD_URI } from "./dashboard.js";
import { defineTool, ToolError } from "../../server/index.js";
import {
  decodeCursor,
  encodeCursor,
  loadDataset,
  searchCustomers,
  type Customer,
  type SearchPage,
} from "../customers.js";

const DRAFT = "https://json-schema.org/draft/2020-12/schema";
const REGIONS = ["NA", "EMEA", "APAC", "LATAM"];
const iso = { type: "string", pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z$" };

export const assistantSummarySchema = {
  $schema: DRAFT,
  type: "object",
  description: "A small summary for the model: totals and the three most recently active accounts.",
  properties: {
    query: { type: "string" },
    total: { type: "integer", minimum: 0 },
    mostRecent: {
      type: "array",
      maxItems: 3,
      items: {
        type: "object",
        properties: { name: { type: "string" }, region: { enum: REGIONS }, lastActivity: iso },
        required: ["name", "region", "lastActivity"],
        additionalProperties: false,
      },
    },
    byRegion: { type: "object", additionalProperties: { type: "integer" } },
  },
  required: ["query", "total", "mostRecent", "byRegion"],
  additionalProperties: false,
};

export const programmaticSchema = {
  $schema: DRAFT,
  type: "object",
  description: "Stable ids, pagination and provenance for program logic.",
  properties: {
    items: {
      type: "array",
      items: {
        type: "object",
        properties: {
          customerId: { type: "string", pattern: "^cust_\\d+$" },
          displayName: { type: "string" },
          region: { enum: REGIONS },
          plan: { type: "string" },
          lastActivity: iso,
        },
        required: ["customerId", "displayName", "region", "plan", "lastActivity"],
        additionalProperties: false,
      },
    },
    total: { type: "integer", minimum: 0 },
    nextCursor: { type: "string" },
    provenance: {
      type: "object",
      properties: { source: { type: "string" }, datasetVersion: { type: "string" }, query: { type: "string" } },
      required: ["source", "datasetVersion", "query"],
      additionalProperties: false,
    },
  },
  required: ["items", "total", "provenance"],
  additionalProperties: false,
};

export const userRowsSchema = {
  $schema: DRAFT,
  type: "object",
  description: "Rows for a host-rendered table: this page's rows, the total matching, and the cursor of the next page.",
  properties: {
    items: {
      type: "array",
      items: {
        type: "object",
        properties: {
          displayName: { type: "string" },
          region: { enum: REGIONS },
          plan: { type: "string" },
          lastActivity: iso,
        },
        required: ["displayName", "region", "lastActivity"],
        additionalProperties: false,
      },
    },
    total: { type: "integer", minimum: 0 },
    nextCursor: { type: "string" },
  },
  required: ["items", "total"],
  additionalProperties: false,
};

export const uiViewSchema = {
  $schema: DRAFT,
  type: "object",
  description: "Data for the App View: columns, rows and facets.",
  properties: {
    columns: { type: "array", items: { type: "string" }, minItems: 1 },
    rows: {
      type: "array",
      items: {
        type: "object",
        properties: {
          customerId: { type: "string" },
          displayName: { type: "string" },
          region: { enum: REGIONS },
          lastActivity: iso,
          plan: { type: "string" },
          seats: { type: "integer" },
        },
        required: ["customerId", "displayName", "region", "lastActivity"],
      },
    },
    facets: {
      type: "object",
      properties: {
        region: { type: "array", items: { enum: REGIONS } },
        plan: { type: "array", items: { type: "string" } },
      },
      required: ["region"],
    },
    total: { type: "integer" },
  },
  required: ["columns", "rows", "facets"],
};

interface SearchResult {
  page: SearchPage;
  datasetVersion: string;
}

function listNames(names: string[]): string {
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")}${names.length > 2 ? "," : ""} and ${names[names.length - 1]}`;
}

const NUMBER_WORDS = ["no", "one", "two", "three"];

/** The SEP's prose: "I found 37 Globex customer records. The three most recently active accounts are …". */
export function describe(page: SearchPage, inTable: boolean): string {
  const q = page.query.trim();
  if (page.total === 0) return `I found no customer records matching "${q}".`;
  const records = `${page.total} ${q} customer record${page.total === 1 ? "" : "s"}`;
  if (inTable) return `I found ${records} and displayed them in an interactive table.`;
  const top = page.all.slice(0, 3).map((c) => c.displayName);
  if (page.total === 1) return `I found ${records}: ${top[0]}.`;
  return `I found ${records}. The ${NUMBER_WORDS[top.length]} most recently active accounts are ${listNames(top)}.`;
}

function byRegion(cs: Customer[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of cs) out[c.region] = (out[c.region] ?? 0) + 1;
  return out;
}

export const searchCustomersTool = defineTool<{ query: string; cursor?: string; limit?: number }, SearchResult>({
  name: "search_customers",
  // Its ui/structured rows and facets are drawn by the dashboard App (src/demo/app).
  _meta: { ui: { resourceUri: DASHBOARD_URI } },
  title: "Search customers",
  description:
    "Search the customer directory by name word prefix, region (NA, EMEA, APAC, LATAM), country code or plan. Results are most recently active first; page with cursor and limit.",
  inputSchema: {
    type: "object",
    properties: {
      query: { type: "string", minLength: 1, description: "e.g. Globex, NA, enterprise" },
      cursor: { type: "string", description: "nextCursor from a previous page" },
      limit: { type: "integer", minimum: 1, maximum: 500, default: 25 },
    },
    required: ["query"],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
  outputVariants: [
    {
      audience: "assistant",
      format: "content",
      project: (r, ctx) => [
        {
          type: "text",
          text: describe(
            r.page,
            ctx.selection.some((s) => s.audience === UI_EXTENSION),
          ),
        },
      ],
    },
    {
      audience: "assistant",
      format: "structured",
      schema: assistantSummarySchema,
      project: (r) => ({
        query: r.page.query,
        total: r.page.total,
        mostRecent: r.page.all
          .slice(0, 3)
          .map((c) => ({ name: c.displayName, region: c.region, lastActivity: c.lastActivity })),
        byRegion: byRegion(r.page.all),
      }),
    },
    {
      audience: "programmatic",
      format: "structured",
      schema: programmaticSchema,
      project: (r) => ({
        items: r.page.items.map((c) => ({
          customerId: c.customerId,
          displayName: c.displayName,
          region: c.region,
          plan: c.plan,
          lastActivity: c.lastActivity,
        })),
        total: r.page.total,
        ...(r.page.nextOffset !== undefined ? { nextCursor: encodeCursor(r.page.nextOffset) } : {}),
        provenance: { source: "mcp-prism demo CRM", datasetVersion: r.datasetVersion, query: r.page.query },
      }),
    },
    {
      audience: "user",
      format: "structured",
      schema: userRowsSchema,
      project: (r) => ({
        items: r.page.items.map((c) => ({
          displayName: c.displayName,
          region: c.region,
          plan: c.plan,
          lastActivity: c.lastActivity,
        })),
        total: r.page.total,
        ...(r.page.nextOffset !== undefined ? { nextCursor: encodeCursor(r.page.nextOffset) } : {}),
      }),
    },
    {
      audience: UI_EXTENSION,
      format: "structured",
      schema: uiViewSchema,
      project: (r) => ({
        columns: ["displayName", "region", "lastActivity", "plan"],
        rows: r.page.items.map((c) => ({
          customerId: c.customerId,
          displayName: c.displayName,
          region: c.region,
          lastActivity: c.lastActivity,
          plan: c.plan,
          seats: c.seats,
        })),
        facets: {
          region: REGIONS.filter((g) => r.page.all.some((c) => c.region === g)),
          plan: [...new Set(r.page.all.map((c) => c.plan))].sort(),
        },
        total: r.page.total,
      }),
      resultMeta: (r) => ({
        [UI_EXTENSION]: {
          datasetVersion: r.datasetVersion,
          continuationToken: `view_${encodeCursor(r.page.nextOffset ?? r.page.total)}`,
        },
      }),
    },
  ],
  async run({ query, cursor, limit }, ctx) {
    const offset = cursor === undefined ? 0 : decodeCursor(cursor);
    if (offset === undefined) {
      const message = `The cursor ${JSON.stringify(cursor)} is not one this server issued; start again without a cursor.`;
      await ctx.log("warning", message, "search");
      return new ToolError(message, {
        "assistant/content": [{ type: "text", text: message }],
        "programmatic/structured": { error: { code: "invalid_cursor", message } },
      });
    }
    // Logs go only to a client that asked for them (a modern logLevel, or logging/setLevel).
    await ctx.log("debug", { query, offset, limit: limit ?? 25 }, "search");
    const page = searchCustomers(query, offset, limit ?? 25);
    await ctx.log(
      "info",
      `search ${JSON.stringify(query)}: ${page.total} match${page.total === 1 ? "" : "es"}, ${page.items.length} on this page`,
      "search",
    );
    return { page, datasetVersion: loadDataset().datasetVersion };
  },
});
