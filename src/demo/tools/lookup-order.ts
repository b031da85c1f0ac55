// lookup_order: succeeds for known orders, fails (isError) with audience-specific error outputs.
// Its user/structured variant has no error representation, so a call selecting only that
// variant for an unknown order gets a protocol-level error (the SEP's "cannot produce any").
import { defineTool, ToolError } from "../../server/index.js";
import { loadDataset } from "../customers.js";

interface Order {
  orderId: string;
  customerId: string;
  customerName: string;
  status: "placed" | "shipped" | "delivered";
  totalUsd: number;
  placedAt: string;
}

const STATUSES: Order["status"][] = ["placed", "shipped", "delivered"];

/** 40 orders derived deterministically from the dataset: ord_5001 … ord_5040. */
function demoOrders(): Order[] {
  const cs = loadDataset().customers;
  return Array.from({ length: 40 }, (_, i) => {
    const c = cs[(i * 17) % cs.length];
    return {
      orderId: `ord_${5001 + i}`,
      customerId: c.customerId,
      customerName: c.displayName,
      status: STATUSES[i % 3],
      totalUsd: 100 + ((i * 7919) % 4900),
      placedAt: c.lastActivity,
    };
  });
}

let ordersById: Map<string, Order> | undefined;

/** The demo orders by id, derived once (the dataset they come from is loaded once too). */
function findOrder(orderId: string): Order | undefined {
  ordersById ??= new Map(demoOrders().map((o) => [o.orderId, Object.freeze(o)]));
  return ordersById.get(orderId);
}

const orderSchema = {
  type: "object",
  properties: {
    order: {
      type: "object",
      properties: {
        orderId: { type: "string" },
        customerId: { type: "string" },
        status: { enum: STATUSES },
        totalUsd: { type: "number" },
        placedAt: { type: "string" },
      },
      required: ["orderId", "customerId", "status", "totalUsd", "placedAt"],
      additionalProperties: false,
    },
  },
  required: ["order"],
  additionalProperties: false,
};

export const lookupOrderTool = defineTool<{ orderId: string }, Order>({
  name: "lookup_order",
  title: "Look up an order",
  description: "Looks up an order by id (ord_5001 … ord_5040). Unknown ids fail with an error result.",
  inputSchema: {
    type: "object",
    properties: { orderId: { type: "string", minLength: 1 } },
    required: ["orderId"],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true },
  outputVariants: [
    {
      audience: "assistant",
      format: "content",
      project: (o) => [
        {
          type: "text",
          text: `Order ${o.orderId} for ${o.customerName} is ${o.status} ($${o.totalUsd}, placed ${o.placedAt}).`,
        },
      ],
    },
    {
      audience: "programmatic",
      format: "structured",
      schema: orderSchema,
      project: (o) => ({
        order: {
          orderId: o.orderId,
          customerId: o.customerId,
          status: o.status,
          totalUsd: o.totalUsd,
          placedAt: o.placedAt,
        },
      }),
    },
    {
      audience: "user",
      format: "content",
      project: (o) => [{ type: "text", text: `Order ${o.orderId}: ${o.status}, $${o.totalUsd}` }],
    },
    {
      audience: "user",
      format: "structured",
      schema: {
        type: "object",
        properties: { orderId: { type: "string" }, status: { type: "string" } },
        required: ["orderId", "status"],
      },
      project: (o) => ({ orderId: o.orderId, status: o.status }),
    },
  ],
  run({ orderId }) {
    const order = findOrder(orderId);
    if (order) return order;
    return new ToolError(`order ${orderId} not found`, {
      "assistant/content": [
        {
          type: "text",
          text: `There is no order with id ${orderId}. Known ids look like ord_5001; ask the user to check the id.`,
        },
      ],
      "programmatic/structured": { error: { code: "order_not_found", message: `no order with id ${orderId}` } },
      "user/content": [{ type: "text", text: `Order ${orderId} was not found.` }],
    });
  },
});
