// The demo's prompts: account_review (arguments with completion, the customer record embedded as
// a resource) and weekly_digest (no arguments).
import { ErrorCode } from "../protocol/index.js";
import { RpcError, definePrompt } from "../server/index.js";
import { loadDataset } from "./customers.js";
import { completeCustomerIds, customerById } from "./resources.js";

const FOCUS = ["renewal", "expansion", "risk"];

export const accountReviewPrompt = definePrompt({
  name: "account_review",
  title: "Account review",
  description: "Review one customer account: its record is attached; focus on renewal, expansion or risk.",
  arguments: [
    {
      name: "customerId",
      title: "Customer",
      description: "A customer id like cust_1005 (completion offers ids by id or name)",
      required: true,
    },
    { name: "focus", title: "Focus", description: "renewal, expansion or risk (default renewal)" },
  ],
  complete: {
    customerId: completeCustomerIds,
    focus: (value) => FOCUS.filter((f) => f.startsWith(value.toLowerCase())),
  },
  get({ customerId, focus }) {
    const c = customerById(customerId);
    if (!c)
      throw new RpcError(
        ErrorCode.InvalidParams,
        `No customer ${customerId}: use an id like cust_1005 (completion lists them)`,
      );
    const f = FOCUS.includes(focus ?? "") ? focus! : "renewal";
    return {
      description: `Account review of ${c.displayName} (${f})`,
      messages: [
        {
          role: "user",
          content: {
            type: "resource",
            resource: {
              uri: `customers://${c.customerId}`,
              mimeType: "application/json",
              text: JSON.stringify(c, null, 2),
            },
          },
        },
        {
          role: "user",
          content: {
            type: "text",
            text: `Review the account ${c.displayName} (${c.customerId}) above with a focus on ${f}: three findings and one next step.`,
          },
        },
      ],
    };
  },
});

export const weeklyDigestPrompt = definePrompt({
  name: "weekly_digest",
  title: "Weekly digest",
  description: "Ask for a short digest of the CRM: accounts per region and the most recently active ones.",
  get() {
    const d = loadDataset();
    const recent = [...d.customers].sort((a, b) => b.lastActivity.localeCompare(a.lastActivity)).slice(0, 5);
    return {
      messages: [
        {
          role: "user",
          content: {
            type: "text",
            text: `Write a weekly digest of the demo CRM (dataset ${d.datasetVersion}, ${d.customers.length} accounts). Most recently active: ${recent.map((c) => c.displayName).join(", ")}. Use search_customers for details.`,
          },
        },
      ],
    };
  },
});
