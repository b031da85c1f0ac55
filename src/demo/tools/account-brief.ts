// account_brief: asks the client's model (sampling) for a two-sentence brief of one customer.
// 2026-07-28+: an input_required round; the initialize era: a real sampling/createMessage.
// The sampled text is the client's answer to this server: it is checked and bounded here.
import { defineTool, ToolError } from "../../server/index.js";
import { customerIdSchema, findCustomer, unsupported } from "./client-input.js";

const MAX_BRIEF = 2000;

interface Brief {
  customerId: string;
  displayName: string;
  brief: string;
  model: string;
}

export const accountBriefSchema = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties: {
    customerId: { type: "string" },
    displayName: { type: "string" },
    brief: { type: "string" },
    model: { type: "string" },
  },
  required: ["customerId", "displayName", "brief", "model"],
  additionalProperties: false,
};

/** The text of a CreateMessageResult's content (one block or an array of them). */
function sampledText(content: unknown): string {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks
    .map((b) =>
      typeof b === "object" && b !== null && (b as { type?: unknown }).type === "text"
        ? String((b as { text?: unknown }).text ?? "")
        : "",
    )
    .join(" ")
    .trim();
}

export const accountBriefTool = defineTool<{ customerId: string }, Brief>({
  name: "account_brief",
  title: "Account brief",
  description: "Writes a two-sentence brief of one account with the client's own model (sampling).",
  inputSchema: {
    type: "object",
    properties: { customerId: customerIdSchema },
    required: ["customerId"],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
  outputVariants: [
    {
      audience: "assistant",
      format: "content",
      project: (b) => [{ type: "text", text: `Brief of ${b.displayName} (by ${b.model}): ${b.brief}` }],
    },
    { audience: "assistant", format: "structured", schema: accountBriefSchema, project: (b) => ({ ...b }) },
  ],
  async run({ customerId }, ctx) {
    const c = findCustomer(customerId);
    if (c instanceof ToolError) return c;
    const record = `${c.displayName} (${c.customerId}): ${c.region}, ${c.country}, plan ${c.plan}, ${c.seats} seats, ${c.mrrUsd} USD MRR, owner ${c.accountOwner}, last active ${c.lastActivity}.`;
    const params = {
      messages: [
        {
          role: "user",
          content: { type: "text", text: `Write a two-sentence account brief for this customer.\n${record}` },
        },
      ],
      systemPrompt: "You are a concise account manager. Answer with the brief only.",
      includeContext: "none",
      maxTokens: 200,
    };
    const refused = unsupported("account_brief", { method: "sampling/createMessage", params }, ctx, "sample its model");
    if (refused) return refused;
    const answer = await ctx.sample("brief", params);
    const text = sampledText(answer.content);
    if (text === "") {
      const message = "The client's model returned no text; no brief was written.";
      return new ToolError(message, { "assistant/content": [{ type: "text", text: message }] });
    }
    const brief = text.length > MAX_BRIEF ? `${text.slice(0, MAX_BRIEF)}…` : text;
    return { customerId, displayName: c.displayName, brief, model: String(answer.model).slice(0, 100) };
  },
});
