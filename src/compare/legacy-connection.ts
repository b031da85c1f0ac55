// The second connection compare needs for a 2026-12-01 tool: the same server forced to
// 2026-07-28, whose result has the legacy shape the client profiles read. Opened per server on
// first use and kept until close (a failed open is tried again next time). The caller says how a
// host is opened (the CLI's start-up: config, one-line errors); this file owns the flow.
import type { Host } from "../host/host.js";
import type { CallOptions, CallOutcome, ToolEntry } from "../host/types.js";

/** The newest protocol version whose results have the legacy shape (content + structuredContent). */
export const LEGACY_SHAPE_PROTOCOL = "2026-07-28";

/** Opens a host on one server at a forced protocol version; rejects with a one-line reason (and optionally a `rule`). */
export type OpenHost = (server: string, protocol: string) => Promise<Host>;

export class LegacyConnections {
  private readonly hosts = new Map<string, Promise<Host>>();

  constructor(private readonly open: OpenHost) {}

  /** The tool called on its server's 2026-07-28 connection. Rejects when that connection cannot be made. */
  async call(tool: ToolEntry, args: Record<string, unknown>, opts: CallOptions = {}): Promise<CallOutcome> {
    let host = this.hosts.get(tool.server);
    if (!host) {
      const opening = this.open(tool.server, LEGACY_SHAPE_PROTOCOL);
      this.hosts.set(tool.server, (host = opening));
      opening.catch(() => this.hosts.get(tool.server) === opening && this.hosts.delete(tool.server));
    }
    return (await host).call(tool.name, args, opts);
  }

  async close(): Promise<void> {
    await Promise.all(
      [...this.hosts.values()].map((h) =>
        h.then(
          (x) => x.close(),
          () => {},
        ),
      ),
    );
    this.hosts.clear();
  }
}
