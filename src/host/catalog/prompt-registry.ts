// The host's prompts across its servers: one listing per server (cached until refresh() drops
// it; a listing that failed to connect is tried again), lookup by name (`server:prompt` or a name only one server
// has), and prompts/get / completion/complete on the prompt's own server.
import type { Connection } from "../connection/connection.js";
import type { Limits } from "../config/config.js";
import { within } from "../within.js";
import {
  completePromptArgument,
  getPrompt,
  listPrompts,
  promptError,
  type Completion,
  type PromptEntry,
  type PromptError,
  type PromptListing,
  type PromptResult,
} from "./prompts.js";

/** How long a completion request may take before the menu goes on without it. */
const COMPLETION_TIMEOUT_MS = 3_000;

export type PromptLookup = { ok: true; entry: PromptEntry } | { ok: false; error: PromptError };

export class PromptRegistry {
  /** Per server, its listing and the client it was listed on (a restart lists again). */
  private readonly listings = new Map<string, Promise<PromptListing>>();
  /** The listings that have settled, for synchronous readers (the completion menu). */
  private readonly settledListings = new Map<string, PromptListing>();

  constructor(
    private readonly conns: ReadonlyMap<string, Connection>,
    private readonly limits: Limits,
  ) {}

  private listing(conn: Connection): Promise<PromptListing> {
    const hit = this.listings.get(conn.name);
    if (hit) return hit;
    const listing = listPrompts(conn, this.limits.maxJsonDepth, this.limits.callTimeoutMs).then(
      (l) => l,
      (e): PromptListing => {
        // Not connected: listed again next time (the server may come up).
        this.listings.delete(conn.name);
        return {
          prompts: [],
          errors: [
            promptError(
              conn.name,
              "",
              (e as { rule?: string }).rule ?? "connection-failed",
              (e as { detail?: string }).detail ?? String(e),
            ),
          ],
        };
      },
    );
    void listing.then((l) => this.settledListings.set(conn.name, l));
    this.listings.set(conn.name, listing);
    return listing;
  }

  /** Drops the cached listings (a prompts/list_changed, or a server's restart). */
  refresh(server?: string): void {
    if (server === undefined) this.listings.clear();
    else this.listings.delete(server);
    if (server === undefined) this.settledListings.clear();
    else this.settledListings.delete(server);
  }

  /** Lists a server's prompts again (prompts/list_changed); the old listing serves until the new one settles. */
  async relist(server: string): Promise<void> {
    const conn = this.conns.get(server);
    if (!conn) return;
    this.listings.delete(server);
    await this.listing(conn);
  }

  /** Every server's prompts and listing errors; `waitMs` bounds the wait for servers still connecting. */
  async all(waitMs = Number.POSITIVE_INFINITY, server?: string): Promise<PromptListing> {
    const conns = [...this.conns.values()].filter((c) => server === undefined || c.name === server);
    const listings = await Promise.all(
      conns.map((c) => within(c.state === "connected" ? Number.POSITIVE_INFINITY : waitMs, this.listing(c), undefined)),
    );
    const out: PromptListing = { prompts: [], errors: [] };
    for (const l of listings) {
      if (!l) continue;
      out.prompts.push(...l.prompts);
      out.errors.push(...l.errors);
    }
    return out;
  }

  /** The prompts already listed (no request): what a completion menu offers while typing. */
  known(): PromptEntry[] {
    return [...this.settledListings.values()].flatMap((l) => l.prompts);
  }

  /** A prompt by `server:name`, or by `name` with `server`, or by a name only one server lists. */
  async find(name: string, server?: string, waitMs = Number.POSITIVE_INFINITY): Promise<PromptLookup> {
    let wanted = name;
    let on = server;
    const colon = name.indexOf(":");
    if (on === undefined && colon > 0 && this.conns.has(name.slice(0, colon))) {
      on = name.slice(0, colon);
      wanted = name.slice(colon + 1);
    }
    if (on !== undefined && !this.conns.has(on))
      return { ok: false, error: promptError("", wanted, "unknown-server", `no server named ${JSON.stringify(on)}`) };
    const { prompts, errors } = await this.all(waitMs, on);
    const hits = prompts.filter((p) => p.name === wanted);
    if (hits.length === 1) return { ok: true, entry: hits[0] };
    if (hits.length > 1) {
      return {
        ok: false,
        error: promptError(
          "",
          wanted,
          "ambiguous-prompt",
          `servers ${hits.map((h) => h.server).join(", ")} all list it: name one with --server or SERVER:${wanted}`,
        ),
      };
    }
    const rejected = errors.find((e) => e.prompt === wanted);
    if (rejected) return { ok: false, error: rejected };
    return {
      ok: false,
      error: promptError(on ?? "", wanted, "unknown-prompt", `no prompt named ${JSON.stringify(wanted)}`),
    };
  }

  /** prompts/get on the prompt's server. */
  get(entry: PromptEntry, args: Record<string, unknown>, signal?: AbortSignal): Promise<PromptResult> {
    const conn = this.conns.get(entry.server);
    if (!conn)
      return Promise.resolve({
        ok: false,
        error: promptError(entry.server, entry.name, "unknown-server", "the server is not configured"),
      });
    return getPrompt(conn, entry, args, {
      maxJsonDepth: this.limits.maxJsonDepth,
      timeoutMs: this.limits.callTimeoutMs,
      signal,
    });
  }

  /** The server's suggestions for one argument's value (none when it offers no completion). */
  complete(
    entry: PromptEntry,
    argument: string,
    value: string,
    context: Record<string, string> = {},
    signal?: AbortSignal,
  ): Promise<Completion> {
    const conn = this.conns.get(entry.server);
    if (!conn) return Promise.resolve({ values: [], hasMore: false });
    return completePromptArgument(conn, entry.name, { name: argument, value }, context, {
      timeoutMs: COMPLETION_TIMEOUT_MS,
      signal,
    });
  }
}
