// Shared by the demo tools that ask the client for something (elicitation, sampling, roots):
// the clear tool error when the client did not declare the capability (the host side may not
// have it yet), and the customerId argument they share.
import { missingCapability, ToolError, type InputRequest, type RunContext } from "../../server/index.js";
import { customerById } from "../resources.js";
import type { Customer } from "../customers.js";

export const customerIdSchema = { type: "string", pattern: "^cust_\\d+$", description: "A customer id like cust_1005" };

/** A ToolError when the client cannot take `req`; undefined when it can. */
export function unsupported(tool: string, req: InputRequest, ctx: RunContext, what: string): ToolError | undefined {
  const missing = missingCapability(req, ctx.clientCapabilities);
  if (!missing) return undefined;
  const cap = Object.keys(missing)[0];
  const message = `${tool} needs the client to ${what}, and this client did not declare the ${cap} capability; nothing was done.`;
  return new ToolError(message, {
    "assistant/content": [{ type: "text", text: message }],
    "programmatic/structured": { error: { code: "missing_client_capability", message, requiredCapabilities: missing } },
  });
}

/**
 * The shape of every programmatic error output of the demo's client-input tools. Declared as the
 * variant's `errorSchema` only with `demo-server --error-schemas`: the opt-in prototype of SEP-3279
 * open question 2 (docs/spec-proposal/open-questions.md).
 */
export const demoErrorSchema = {
  type: "object",
  properties: {
    error: {
      type: "object",
      properties: {
        // invalid_arguments: the toolkit's own error for arguments that fail the inputSchema.
        code: { enum: ["invalid_arguments", "unknown_customer", "missing_client_capability", "invalid_answer"] },
        message: { type: "string" },
        requiredCapabilities: { type: "object" },
      },
      required: ["code", "message"],
      additionalProperties: false,
    },
  },
  required: ["error"],
  additionalProperties: false,
};

export function unknownCustomer(id: string): ToolError {
  const message = `There is no customer ${id}; search_customers lists the ids.`;
  return new ToolError(message, {
    "assistant/content": [{ type: "text", text: message }],
    "programmatic/structured": { error: { code: "unknown_customer", message } },
  });
}

export function findCustomer(id: string): Customer | ToolError {
  return customerById(id) ?? unknownCustomer(id);
}
