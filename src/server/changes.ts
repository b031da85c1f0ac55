// Change notifications the toolkit pushes: list changes (tools, prompts, resources) and resource
// updates. 2026-07-28+: to each open `subscriptions/listen` stream that opted in, tagged with
// its subscriptionId; the initialize era: to each session that can be pushed to (stdio) —
// list changes always, resource updates for the URIs it subscribed with resources/subscribe.
import { META } from "../protocol/index.js";
import { isObject } from "../protocol/is-object.js";
import type { Notification } from "./engine.js";

export type ListKind = "tools" | "prompts" | "resources";

/** What one listen stream opted in to (the SubscriptionFilter), as the server agreed to it. */
export interface ListenFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
}

const FLAG: Record<ListKind, keyof ListenFilter> = {
  tools: "toolsListChanged",
  prompts: "promptsListChanged",
  resources: "resourcesListChanged",
};
/** URIs one stream or session may subscribe to. */
export const MAX_SUBSCRIPTIONS = 256;

interface Listener {
  /** Modern: the listen request's id (tags every notification). Legacy: none. */
  id?: string | number;
  filter: ListenFilter;
  send: (n: Notification) => void;
}

export class ChangeFeed {
  private readonly listeners = new Set<Listener>();

  /** The filter a client asked for, as far as this server serves it (the acknowledgement's `notifications`). */
  static agreed(requested: unknown, lists: ReadonlySet<ListKind>, subscribe: boolean): ListenFilter {
    const r = isObject(requested) ? requested : {};
    const out: ListenFilter = {};
    for (const kind of lists) if (r[FLAG[kind]] === true) (out as Record<string, unknown>)[FLAG[kind]] = true;
    const uris = r.resourceSubscriptions;
    if (subscribe && Array.isArray(uris))
      out.resourceSubscriptions = uris.filter((u): u is string => typeof u === "string").slice(0, MAX_SUBSCRIPTIONS);
    return out;
  }

  /** Adds a listener; returns its removal. */
  listen(l: Listener): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  listChanged(kind: ListKind): void {
    for (const l of this.listeners)
      if (l.filter[FLAG[kind]]) l.send(tagged(l, { method: `notifications/${kind}/list_changed` }));
  }

  resourceUpdated(uri: string): void {
    for (const l of this.listeners)
      if (l.filter.resourceSubscriptions?.includes(uri))
        l.send(tagged(l, { method: "notifications/resources/updated", params: { uri } }));
  }
}

function tagged(l: Listener, n: Notification): Notification {
  if (l.id === undefined) return n;
  return { ...n, params: { ...n.params, _meta: { [META.subscriptionId]: l.id } } };
}
