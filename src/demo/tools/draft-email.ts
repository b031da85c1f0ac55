// draft_email: asks the user (elicitation, form mode) for a subject and a tone, then drafts an
// email to one customer. 2026-07-28+: an input_required round; the initialize era: a real
// elicitation/create request. Nothing is sent anywhere: the draft is only shown.
import { defineTool, ToolError } from "../../server/index.js";
import { customerIdSchema, findCustomer, unsupported } from "./client-input.js";

const TONES = ["friendly", "formal", "brief"] as const;

interface Draft {
  customerId: string;
  action: "accept" | "decline" | "cancel";
  subject?: string;
  tone?: (typeof TONES)[number];
  body?: string;
}

export const draftEmailSchema = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties: {
    customerId: { type: "string" },
    action: { enum: ["accept", "decline", "cancel"] },
    subject: { type: "string" },
    tone: { enum: [...TONES] },
    body: { type: "string" },
  },
  required: ["customerId", "action"],
  additionalProperties: false,
};

function compose(name: string, owner: string, subject: string, tone: Draft["tone"]): string {
  const greeting = tone === "formal" ? `Dear ${name} team,` : tone === "brief" ? `Hi ${name},` : `Hello ${name} team!`;
  const middle =
    tone === "brief"
      ? `Quick note: ${subject}.`
      : `I am writing about ${subject.toLowerCase()}. Let me know a good time to talk this week.`;
  const closing = tone === "formal" ? `Kind regards,\n${owner}` : `Best,\n${owner}`;
  return `Subject: ${subject}\n\n${greeting}\n\n${middle}\n\n${closing}`;
}

/** The assistant's summary says where the draft went on this call only: routing is the host's. */
function summary(d: Draft, toUser: boolean): string {
  if (d.action !== "accept") return `The user chose ${d.action}; nothing was drafted.`;
  const where = toUser ? "Its text was returned in this call's user output" : "Its text was not returned by this call";
  return `Drafted an email to ${d.customerId}: "${d.subject}" (${d.tone}). ${where}; nothing was sent.`;
}

export const draftEmailTool = defineTool<{ customerId: string }, Draft>({
  name: "draft_email",
  title: "Draft email",
  description: "Drafts an email to one account, asking you for its subject and tone (elicitation). Nothing is sent.",
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
      project: (d, ctx) => [
        {
          type: "text",
          text: summary(
            d,
            ctx.selection.some((s) => s.audience === "user" && s.format === "content"),
          ),
        },
      ],
    },
    { audience: "user", format: "content", project: (d) => [{ type: "text", text: d.body ?? summary(d, true) }] },
    { audience: "programmatic", format: "structured", schema: draftEmailSchema, project: (d) => ({ ...d }) },
  ],
  async run({ customerId }, ctx) {
    const c = findCustomer(customerId);
    if (c instanceof ToolError) return c;
    const params = {
      mode: "form",
      message: `Draft an email to ${c.displayName}: what subject and tone?`,
      requestedSchema: {
        type: "object",
        properties: {
          subject: { type: "string", title: "Subject", minLength: 1, maxLength: 120 },
          tone: { type: "string", title: "Tone", enum: [...TONES], default: "friendly" },
        },
        required: ["subject"],
      },
    };
    const refused = unsupported(
      "draft_email",
      { method: "elicitation/create", params },
      ctx,
      "ask you for the subject and tone",
    );
    if (refused) return refused;
    const answer = await ctx.elicit("email", params);
    if (answer.action !== "accept") return { customerId, action: answer.action };
    // The answer comes from outside: check it against what was asked.
    const subject = answer.content?.subject;
    const tone = answer.content?.tone ?? "friendly";
    if (
      typeof subject !== "string" ||
      subject.trim() === "" ||
      subject.length > 120 ||
      !TONES.includes(tone as Draft["tone"] & string)
    ) {
      const message =
        "The answer did not match the form (a subject of 1 to 120 characters and a tone of friendly, formal or brief); nothing was drafted.";
      return new ToolError(message, {
        "assistant/content": [{ type: "text", text: message }],
        "programmatic/structured": { error: { code: "invalid_answer", message } },
      });
    }
    const t = tone as Draft["tone"];
    return {
      customerId,
      action: "accept",
      subject: subject.trim(),
      tone: t,
      body: compose(c.displayName, c.accountOwner, subject.trim(), t),
    };
  },
});
