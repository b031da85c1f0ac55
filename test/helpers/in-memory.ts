// The in-memory test tier: toolkit servers (src/server, e.g. the demo server) and raw fixture
// handlers (e.g. test/fixtures/misbehaving.ts) in the test's own process, reached through the host's transport seam (HostOptions.transport) instead of a spawned
// process. Everything after the transport — era detection, the `_meta` envelope, listing, the
// call pipeline — is the host's own code. For tests of host logic where the wire is not the point;
// tests of framing, processes, HTTP and hostile replies stay on the real transports.
// Each message is copied as JSON on its way (as a wire would: no object is shared between the two
// sides), every client message is recorded (a wire capture without a wire), and the client end is
// wrapped in the host's SizeLimitedTransport, so limits.maxResultBytes holds here too.
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { ServerConfig } from "../../src/host/config/config.js";
import { SizeLimitedTransport } from "../../src/host/connection/size-limited-transport.js";
import {
  defaultTransport,
  type TransportContext,
  type TransportFactory,
} from "../../src/host/connection/transport-factory.js";
import { ToolkitConnection, type ToolkitServer } from "../../src/server/index.js";

/** The command of a config that names an in-memory server (never spawned). */
const MEMORY = "mcp-prism:in-memory";

export interface MemoryServers {
  /** Configs for HostConfig.servers: stdio-shaped (one transport for both eras), never spawned. */
  servers: Record<string, ServerConfig>;
  /** For HostOptions.transport: these servers in process, any other config as usual. */
  transport: TransportFactory;
  /** Every message the host sent to `name`, oldest first, as JSON. */
  sent(name: string): Record<string, any>[];
  /** How many transports the host opened to `name` (one per connect). */
  opened(name: string): number;
  /** Ends `name`'s current connection from the server's side (as a server process exiting). */
  drop(name: string): Promise<void>;
}

const copy = (m: JSONRPCMessage): JSONRPCMessage => JSON.parse(JSON.stringify(m)) as JSONRPCMessage;

/** Each send copies the message as JSON and, if `log` is given, records it. */
function copying(t: Transport, log?: Record<string, any>[]): Transport {
  const send = t.send.bind(t);
  t.send = (message, options) => {
    const m = copy(message);
    log?.push(copy(m));
    return send(m, options);
  };
  return t;
}

/**
 * A linked pair with a fresh toolkit connection to `server` (or a raw handler) on one end; returns the client end in
 * the size rule, and the server end. Connecting is synchronous up to the server end's start():
 * what the host sends before then waits in the pair's queue.
 */
export function inMemoryPair(
  server: ToolkitServer | RawServer,
  ctx: TransportContext,
  log?: Record<string, any>[],
): { client: Transport; server: Transport } {
  const [client, serverSide] = InMemoryTransport.createLinkedPair();
  if (typeof server === "function") rawEnd(copying(serverSide), server);
  else void new ToolkitConnection(server).connect(copying(serverSide));
  return {
    client: new SizeLimitedTransport(copying(client, log), ctx.limits.maxResultBytes, ctx.onDiagnostic),
    server: serverSide,
  };
}

/**
 * A raw JSON-RPC server in process (a fixture's handler, e.g. test/fixtures/misbehaving.ts): given
 * how to send to the client and how to "exit" (close the connection), it returns its handler.
 */
export type RawServer = (send: (m: Record<string, any>) => void, exit: () => void) => (m: Record<string, any>) => void;

/** The server end of a pair driven by a raw handler; a throw in it is that server's bug, logged. */
function rawEnd(serverSide: Transport, raw: RawServer): void {
  const handle = raw(
    (m) => void serverSide.send(m as JSONRPCMessage).catch(() => {}),
    () => void serverSide.close(),
  );
  serverSide.onmessage = (m) => {
    try {
      handle(m as Record<string, any>);
    } catch (e) {
      if (!(e instanceof Error && e.message === "the server exited")) throw e;
    }
  };
  void serverSide.start();
}

export function memoryServers(defs: Record<string, ToolkitServer | RawServer>): MemoryServers {
  const logs = new Map<string, Record<string, any>[]>();
  const opens = new Map<string, number>();
  const current = new Map<string, Transport>();
  const servers: Record<string, ServerConfig> = {};
  for (const name of Object.keys(defs)) {
    servers[name] = { kind: "stdio", command: MEMORY, args: [name] };
    logs.set(name, []);
  }
  const transport: TransportFactory = (config, ctx) => {
    const name = config.kind === "stdio" && config.command === MEMORY ? config.args[0] : undefined;
    if (name === undefined) return defaultTransport(config, ctx);
    const server = Object.hasOwn(defs, name) ? defs[name] : undefined;
    if (!server) throw new Error(`no in-memory server ${JSON.stringify(name)}`);
    opens.set(name, (opens.get(name) ?? 0) + 1);
    // One toolkit connection (or raw handler) per transport, as one process per spawn.
    const pair = inMemoryPair(server, ctx, logs.get(name));
    current.set(name, pair.server);
    return pair.client;
  };
  return {
    servers,
    transport,
    sent: (name) => logs.get(name) ?? [],
    opened: (name) => opens.get(name) ?? 0,
    drop: async (name) => void (await current.get(name)?.close()),
  };
}
