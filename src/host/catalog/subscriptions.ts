// Resource subscriptions and change notifications, where the server offers them. The
// initialize era: resources/subscribe / resources/unsubscribe on the session (list changes come
// unasked). 2026-07-28+: one long-lived `subscriptions/listen` request per connection, opting in
// to the list changes the server's capabilities name and to the subscribed URIs; a change of the
// URIs opens a new stream (the old one is cancelled). After a reconnect (new capabilities object)
// the subscriptions are made again. The notifications themselves arrive through
// client-capabilities.ts; an update of a URI not subscribed here is ignored.
import type { Capabilities } from "../../protocol/index.js";
import { isObject } from "../../protocol/is-object.js";
import type { Connection } from "../connection/connection.js";

/** URIs one server may be subscribed to. */
export const MAX_SUBSCRIPTIONS = 64;
/** The listen request's timeout: as long as a timer can wait (it ends when the stream does). */
const LISTEN_TIMEOUT_MS = 2 ** 31 - 1;
/** Times a listen stream that ended is opened again on one connection, and the pause before. */
const MAX_RELISTENS = 5;
const RELISTEN_PAUSE_MS = 1000;

interface ConnState {
  caps: Capabilities;
  listen?: AbortController;
  relistens: number;
}

const flag = (v: unknown, key: string) => isObject(v) && v[key] === true;

/** True when the connected server lets resources be subscribed to. */
export function offersSubscribe(conn: Connection): boolean {
  return flag(conn.serverCapabilities.resources, "subscribe");
}

export class Subscriptions {
  private readonly uris = new Map<string, string[]>();
  private readonly state = new Map<string, ConnState>();

  constructor(
    private readonly conns: ReadonlyMap<string, Connection>,
    /** A subscribed resource changed on its server. */
    private readonly onUpdated: (server: string, uri: string) => void,
  ) {}

  /** Subscribes to a resource; false when the server does not offer subscriptions (or the bound is reached). */
  async subscribe(server: string, uri: string): Promise<boolean> {
    const conn = this.conns.get(server);
    if (
      !conn ||
      !(await conn.ensureConnected().then(
        () => true,
        () => false,
      )) ||
      !offersSubscribe(conn)
    )
      return false;
    this.ensure(conn);
    const list = this.uris.get(server) ?? [];
    if (list.includes(uri)) return true;
    if (list.length >= MAX_SUBSCRIPTIONS) return false;
    this.uris.set(server, [...list, uri]);
    if (conn.era !== "legacy") return (this.listen(conn), true);
    const ok = await conn.request("resources/subscribe", { uri }).then(
      () => true,
      () => false,
    );
    if (!ok)
      this.uris.set(
        server,
        (this.uris.get(server) ?? []).filter((u) => u !== uri),
      );
    return ok;
  }

  async unsubscribe(server: string, uri: string): Promise<void> {
    const conn = this.conns.get(server);
    const list = this.uris.get(server) ?? [];
    if (!conn || !list.includes(uri)) return;
    this.uris.set(
      server,
      list.filter((u) => u !== uri),
    );
    if (conn.era === "legacy") await conn.request("resources/unsubscribe", { uri }).catch(() => {});
    else this.listen(conn);
  }

  subscribed(server: string): readonly string[] {
    return this.uris.get(server) ?? [];
  }

  /** A server said a resource changed: passed on when it is one subscribed to. */
  updated(server: string, uri: string): void {
    if (this.subscribed(server).includes(uri)) this.onUpdated(server, uri);
  }

  /** After each (re)connect: the subscriptions made again, the listen stream opened (once per connect). */
  ensure(conn: Connection): void {
    if (conn.state !== "connected" || this.state.get(conn.name)?.caps === conn.serverCapabilities) return;
    this.state.get(conn.name)?.listen?.abort();
    this.state.set(conn.name, { caps: conn.serverCapabilities, relistens: 0 });
    if (conn.era !== "legacy") return this.listen(conn);
    for (const uri of this.subscribed(conn.name)) void conn.request("resources/subscribe", { uri }).catch(() => {});
  }

  /** The modern listen stream with the current filter, replacing any open one. */
  private listen(conn: Connection): void {
    const st = this.state.get(conn.name);
    if (!st) return;
    st.listen?.abort();
    st.listen = undefined;
    const caps = conn.serverCapabilities;
    const notifications: Record<string, unknown> = {};
    if (flag(caps.tools, "listChanged")) notifications.toolsListChanged = true;
    if (flag(caps.prompts, "listChanged")) notifications.promptsListChanged = true;
    if (flag(caps.resources, "listChanged")) notifications.resourcesListChanged = true;
    const uris = this.subscribed(conn.name);
    if (offersSubscribe(conn) && uris.length) notifications.resourceSubscriptions = [...uris];
    if (Object.keys(notifications).length === 0) return;
    const ac = new AbortController();
    st.listen = ac;
    conn.request("subscriptions/listen", { notifications }, { timeout: LISTEN_TIMEOUT_MS, signal: ac.signal }).then(
      () => this.ended(conn, st, ac),
      () => this.ended(conn, st, ac),
    );
  }

  /** A listen stream ended without being cancelled here: opened again after a pause, a bounded number of times. */
  private ended(conn: Connection, st: ConnState, ac: AbortController): void {
    if (ac.signal.aborted || st.listen !== ac || st.relistens >= MAX_RELISTENS) return;
    st.relistens++;
    setTimeout(() => {
      if (st.listen === ac && this.state.get(conn.name) === st && conn.state === "connected") this.listen(conn);
    }, RELISTEN_PAUSE_MS).unref();
  }

  /** Cancels every listen stream (the host closes). */
  close(): void {
    for (const st of this.state.values()) st.listen?.abort();
    this.state.clear();
  }
}
