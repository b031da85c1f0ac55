// The demo's resources: every customer as customers://{id} (JSON, listed and templated, with
// completion over ids and names) and a drawn badge per customer as customers://{id}/badge.png
// (a blob). The dashboard's ui:// resource lives with its tool (tools/dashboard.ts).
import { defineResourceTemplate } from "../server/index.js";
import { loadDataset, type Customer } from "./customers.js";
import { renderImage } from "./images.js";

export function customerById(id: string): Customer | undefined {
  return loadDataset().customers.find((c) => c.customerId === id);
}

/** Notes added with add_note, per customer (this process only), shown in customers://{id}. */
const notes = new Map<string, string[]>();
const MAX_NOTES = 50;

/** Adds a note (the oldest goes past MAX_NOTES); returns how many the customer has. */
export function addNote(id: string, note: string): number {
  const list = notes.get(id) ?? [];
  list.push(note);
  if (list.length > MAX_NOTES) list.shift();
  notes.set(id, list);
  return list.length;
}

/** Customer ids whose id or a name word starts with `value` (case-insensitive), ids in dataset order. */
export function completeCustomerIds(value: string): string[] {
  const v = value.trim().toLowerCase();
  return loadDataset()
    .customers.filter(
      (c) =>
        c.customerId.startsWith(v) ||
        c.displayName
          .toLowerCase()
          .split(/\s+/)
          .some((w) => w.startsWith(v)),
    )
    .map((c) => c.customerId);
}

export const customerTemplate = defineResourceTemplate({
  uriTemplate: "customers://{id}",
  name: "customer",
  title: "Customer record",
  description: "One customer of the demo CRM as JSON (id like cust_1005).",
  mimeType: "application/json",
  list: () =>
    loadDataset().customers.map((c) => ({
      uri: `customers://${c.customerId}`,
      name: c.displayName,
      description: `${c.region} · ${c.plan}`,
    })),
  read: ({ id }) => {
    const c = customerById(id);
    const added = notes.get(id);
    return c && JSON.stringify(added ? { ...c, notes: added } : c, null, 2);
  },
  complete: { id: completeCustomerIds },
});

export const badgeTemplate = defineResourceTemplate({
  uriTemplate: "customers://{id}/badge.png",
  name: "customer-badge",
  title: "Customer badge",
  description: "A small drawn PNG badge for one customer (a binary resource).",
  mimeType: "image/png",
  read: ({ id }) => {
    const c = customerById(id);
    return c && { blob: renderImage(c.displayName, 0, 48, 48).data };
  },
  complete: { id: completeCustomerIds },
});
