// The bundled demo server: the SEP's example tools on the toolkit, for every era, plus
// resources, prompts, completion, elicitation, sampling, roots and logs.
import { UI_EXTENSION } from "../protocol/index.js";
import { ToolkitServer, defineTool } from "../server/index.js";
import { conformanceFixtures } from "./conformance-fixtures.js";
import { accountReviewPrompt, weeklyDigestPrompt } from "./prompts.js";
import { badgeTemplate, customerTemplate } from "./resources.js";
import { accountBriefTool } from "./tools/account-brief.js";
import { dashboardResource, refreshDashboardTool } from "./tools/dashboard.js";
import { demoErrorSchema } from "./tools/client-input.js";
import { draftEmailTool } from "./tools/draft-email.js";
import { generateImagesTool } from "./tools/generate-images.js";
import { legacyWeatherTool } from "./tools/legacy-weather.js";
import { listRootsTool } from "./tools/list-roots.js";
import { lookupOrderTool } from "./tools/lookup-order.js";
import { searchCustomersTool } from "./tools/search-customers.js";
import { waitTool } from "./tools/wait.js";
import { changeTools } from "./tools/changes.js";

export const DEMO_SERVER_INFO = { name: "mcp-prism-demo", title: "mcp-prism demo server", version: "0.1.0" };

export const DEMO_INSTRUCTIONS = `Demo CRM and media server for SEP-3279 (tool result variants).
- search_customers {query, cursor?, limit?}: customer directory search (name word prefix, region NA/EMEA/APAC/LATAM, country, plan). Variants: assistant/content (prose), assistant/structured (summary), programmatic/structured (ids, nextCursor, provenance), user/structured (table rows), io.modelcontextprotocol/ui/structured (columns, rows, facets) when the Apps extension is negotiated.
- generate_images {prompt, count?, size?}: draws images; user/content has the pixels, assistant/content only a description.
- refresh_dashboard {}: App-only dashboard refresh (ui://dashboard/index.html).
- lookup_order {orderId}: order lookup (ord_5001..ord_5040); unknown ids return an error result.
- legacy_weather {city}: a legacy tool (content + outputSchema) migrated to variants.
- wait {ms}: waits, reporting progress; use it to test cancellation.
- draft_email {customerId}: asks the user for a subject and tone (elicitation), then drafts; nothing is sent.
- account_brief {customerId}: a two-sentence brief written by the client's model (sampling).
- list_roots {}: the client's roots.
- add_note {customerId, note}: adds a note to customers://{id} (subscribers are told it changed).
- toggle_extras {}: adds or removes the extra_echo tool, the extra_prompt prompt and notes://extras (the lists change).
Resources: customers://{id} (JSON), customers://{id}/badge.png, ui://dashboard/index.html. Prompts: account_review {customerId, focus?}, weekly_digest.`;

export interface DemoOptions {
  /** Also serve the official conformance suite's named fixtures (demo-server --conformance-fixtures). */
  conformanceFixtures?: boolean;
  /**
   * Declare draft_email's programmatic error shape as `errorSchema` (demo-server --error-schemas):
   * the opt-in prototype of SEP-3279 open question 2, not part of the SEP.
   */
  errorSchemas?: boolean;
}

/** draft_email with `errorSchema` on its programmatic/structured variant (the server then checks its error outputs against it). */
function withErrorSchema(tool: typeof draftEmailTool): typeof draftEmailTool {
  return defineTool({
    ...tool,
    outputVariants: tool.outputVariants.map((v) =>
      v.audience === "programmatic" && v.format === "structured" ? { ...v, errorSchema: demoErrorSchema } : v,
    ),
  });
}

export function createDemoServer(opts: DemoOptions = {}): ToolkitServer {
  const fixtures = opts.conformanceFixtures
    ? conformanceFixtures()
    : { tools: [], resources: [], resourceTemplates: [], prompts: [] };
  const server: ToolkitServer = new ToolkitServer({
    info: DEMO_SERVER_INFO,
    instructions: DEMO_INSTRUCTIONS,
    extensions: { [UI_EXTENSION]: {} },
    tools: [
      searchCustomersTool,
      generateImagesTool,
      refreshDashboardTool,
      lookupOrderTool,
      legacyWeatherTool,
      waitTool,
      opts.errorSchemas ? withErrorSchema(draftEmailTool) : draftEmailTool,
      accountBriefTool,
      listRootsTool,
      ...changeTools(() => server),
      ...fixtures.tools,
    ],
    resources: [dashboardResource, ...fixtures.resources],
    resourceTemplates: [customerTemplate, badgeTemplate, ...fixtures.resourceTemplates],
    prompts: [accountReviewPrompt, weeklyDigestPrompt, ...fixtures.prompts],
  });
  return server;
}
