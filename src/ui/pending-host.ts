// The host as the App sees it while it is still starting: the app draws its first frame before
// the servers are spawned and discovered, so the status bar shows every configured server as
// `connecting…` until the host is open, then the host's own view of each server (or `error` and
// one line naming the server and the reason when the start failed; the app keeps running).
// `ready` (which holds typed lines) waits for the servers at most the host's bound: one still
// connecting then is a notice, and another when it connects or fails.
import type { HostEvents } from "../host/host-types.js";

export type { HostEvents };
import { isNoticeLevel, type LogEntry } from "../host/connection/server-logs.js";
import type { CallOptions, CallOutcome, Mode, ToolEntry, ToolExecutor } from "../host/types.js";
import type { CommandHost } from "./commands/index.js";
import { shownState, type ServerView } from "./server-view.js";
import type { SessionStore } from "./state.js";
import { sanitizeInline, truncateChars } from "../protocol/sanitize.js";

/**
 * What the app needs from a started host: the slash commands' view and the model's executor. The
 * real Host satisfies it as it is.
 */
export type StartedHost = CommandHost &
  ToolExecutor & {
    /** Settles when every server's first connect settled, or after the host's bound (connectWaitMs). */
    settled?: () => Promise<unknown>;
    connectWaitMs?: number;
    on?<K extends keyof HostEvents>(event: K, listener: (e: HostEvents[K]) => void): unknown;
    /** Resource subscriptions (Host.subscriptions). */
    subscriptions?: { subscribe(server: string, uri: string): Promise<boolean> };
    /** Each server log message as it comes (Host.logs keeps them). */
    onLog?(listener: (e: LogEntry) => void): unknown;
  };

const KNOWN = { knownOnly: true };

const oneLine = (s: string) => s.replace(/\s*[\r\n]+\s*/g, " ").trim();

/**
 * The line for a start that threw: an error with fields (ConnectionError, StartError: `server`,
 * `detail`) names its own server, or none ("" → every configured name); anything else gets the names.
 */
function startFailure(e: unknown, names: readonly string[]): string {
  const f = (e ?? {}) as { server?: unknown; detail?: unknown };
  const server = typeof f.server === "string" && f.server ? f.server : names.join(", ");
  const detail = typeof f.detail === "string" ? f.detail : e instanceof Error ? e.message : String(e);
  return `server ${server}: ${oneLine(detail)}`;
}

export class PendingHost {
  private host?: StartedHost;
  private failure?: string;
  private reading?: (o: CallOutcome) => CallOutcome;
  /** Settles (never rejects) once the start has succeeded or failed and the store shows it. */
  readonly ready: Promise<void>;

  constructor(
    private readonly names: readonly string[],
    starting: Promise<StartedHost>,
    private readonly store: SessionStore,
    /** /compare's legacy rows, when the app offers them (not a Host method). */
    private readonly legacy?: CommandHost["legacyCall"],
    /** The config's legacy client profile, when it asks for another client's reading of legacy results. */
    reading?: Promise<((o: CallOutcome) => CallOutcome) | undefined>,
  ) {
    this.ready = Promise.all([starting, reading]).then(
      async ([host, read]) => {
        this.host = host;
        this.reading = read;
        this.changed(); // the status bar shows each server's own state from now on
        // Servers connect independently: prompts wait for them at most the host's bound.
        // Each server's prompts are listed as it connects: the completion menu offers them.
        void host.prompts?.all().catch(() => {});
        await host.settled?.();
        const late = new Set<string>();
        for (const s of host.servers()) {
          if (s.state === "failed") store.notice(oneLine(s.error ?? `server ${s.name}: not connected`), "error");
          else if (s.state === "connecting") {
            late.add(s.name);
            const after = host.connectWaitMs ? ` after ${Math.round(host.connectWaitMs / 100) / 10} s` : "";
            store.notice(`server ${s.name}: still connecting${after}; prompts run without its tools until it connects`);
          }
        }
        // Every log message goes to the transcript; warning and above also as a one-line notice.
        host.onLog?.((e) => {
          store.record({
            kind: "log",
            server: e.server,
            level: e.level,
            ...(e.logger ? { logger: e.logger } : {}),
            text: e.text,
          });
          if (isNoticeLevel(e.level))
            store.notice(
              `server ${e.server} ${e.level}: ${e.text.slice(0, 300)}`,
              e.level === "warning" ? "info" : "error",
            );
        });
        host.on?.("sampling-limit", ({ line }) => store.notice(sanitizeInline(line), "error"));
        host.on?.("list-changed", ({ server, list }) => {
          const what =
            list === "tools"
              ? "tool list changed (the model has the new one from the next prompt)"
              : list === "prompts"
                ? "prompts changed (/help lists them)"
                : "resources changed (/resources lists them)";
          store.noticeOnce(`server ${sanitizeInline(server)}: its ${what}`);
        });
        // A resource the user read or attached changed: one line (a read shows the new content).
        host.on?.("resource-updated", ({ server, uri }) => {
          const u = truncateChars(sanitizeInline(uri), 200);
          store.notice(
            `server ${sanitizeInline(server)}: ${u} changed — /read ${u} ${sanitizeInline(server)} shows it`,
          );
        });
        host.on?.("server", ({ name }) => {
          if (!late.delete(name)) return;
          const s = host.servers().find((x) => x.name === name);
          if (s?.state === "connected") store.notice(`server ${name}: connected; its tools join from the next prompt`);
          else store.notice(oneLine(s?.error ?? `server ${name}: not connected`), "error");
          this.changed();
        });
        this.changed();
      },
      (e: unknown) => {
        this.failure = startFailure(e, names);
        store.notice(this.failure, "error");
        this.changed();
      },
    );
  }

  get started(): boolean {
    return this.host !== undefined;
  }

  /** Redraws the status bar now (the App also polls servers() once a second). */
  private changed(): void {
    this.store.update({});
    // The transcript records the state, not the stderr and diagnostics (/servers shows those).
    this.store.record({
      kind: "session",
      event: "servers",
      servers: this.servers().map(({ name, protocolVersion, state, error, failure }) => ({
        name,
        protocolVersion,
        state: shownState(state, failure),
        error,
      })),
    });
  }

  servers = (): ServerView[] => {
    if (this.host) return this.host.servers();
    return this.names.map((name) =>
      this.failure === undefined ? { name, state: "connecting" } : { name, state: "failed", error: this.failure },
    );
  };

  private notConnected(): Error {
    return new Error(this.failure ?? "the host is still connecting to its servers");
  }

  // Every turn, /tools and /servers list through this, from what is known now: a server not
  // connected is neither waited for nor connected again here (its tools join when its first connect
  // ends; after a failure, /mcp reconnect or /reconnect does it, cancellable with Esc).
  readonly commandHost: CommandHost = {
    tools: async (m: Mode): Promise<ToolEntry[]> => (this.host ? this.host.tools(m, 0, KNOWN) : []),
    toolErrors: async (m: Mode) => (this.host?.toolErrors ? this.host.toolErrors(m, 0, KNOWN) : []),
    settledTools: async (m: Mode): Promise<ToolEntry[]> =>
      this.host ? (this.host.settledTools?.(m, 0, KNOWN) ?? this.host.tools(m, 0, KNOWN)) : [],
    servers: () => this.servers(),
    exiting: () => this.host?.exiting?.(),
    call: async (name: string, args: Record<string, unknown>, opts?: CallOptions): Promise<CallOutcome> => {
      if (!this.host) throw this.notConnected();
      const outcome = await this.host.call(name, args, opts);
      return this.reading ? this.reading(outcome) : outcome;
    },
    requestFor: (entry, mode) => {
      if (!this.host?.requestFor) throw this.notConnected();
      return this.host.requestFor(entry, mode);
    },
    prompts: {
      all: async (waitMs) => (this.host?.prompts ? this.host.prompts.all(waitMs) : { prompts: [], errors: [] }),
      find: async (name, server, waitMs) => {
        if (!this.host?.prompts) throw this.notConnected();
        return this.host.prompts.find(name, server, waitMs);
      },
      get: async (entry, args, signal) => {
        if (!this.host?.prompts) throw this.notConnected();
        return this.host.prompts.get(entry, args, signal);
      },
      complete: async (entry, argument, value, context, signal) =>
        this.host?.prompts
          ? this.host.prompts.complete(entry, argument, value, context, signal)
          : { values: [], hasMore: false },
      known: () => this.host?.prompts?.known() ?? [],
    },
    logs: (server) => this.host?.logs?.(server) ?? [],
    login: async (server, showUrl) => {
      if (!this.host?.login) throw this.notConnected();
      try {
        return await this.host.login(server, showUrl);
      } finally {
        this.changed();
      }
    },
    legacyCall: async (tool, args, opts) => {
      const legacy = this.legacy ?? this.host?.legacyCall;
      if (!this.host || !legacy) throw this.notConnected();
      return legacy(tool, args, opts);
    },
    resources: async (server) => {
      if (!this.host?.resources) throw this.notConnected();
      return this.host.resources(server);
    },
    setServer: async (server, action, mode, signal) => {
      if (!this.host?.setServer) throw this.notConnected();
      try {
        await this.host.setServer(server, action, mode, signal);
      } finally {
        this.changed();
      }
    },
    readResource: async (uri, server) => {
      if (!this.host?.readResource) throw this.notConnected();
      return this.host.readResource(uri, server);
    },
    subscribe: async (server, uri) =>
      this.host?.subscriptions ? this.host.subscriptions.subscribe(server, uri) : false,
  };

  readonly executor: ToolExecutor = {
    modelTools: () => this.host?.modelTools() ?? [],
    instructions: () => this.host?.instructions() ?? [],
    call: async (name, args, opts) => {
      if (!this.host) throw this.notConnected();
      const outcome = await this.host.call(name, args, opts);
      return this.reading ? this.reading(outcome) : outcome;
    },
  };
}
