// A Host whose server lives in this process, over the SDK's InMemoryTransport. The Host has no
// public transport hook, so a stdio config with a sentinel command is connected through the
// in-memory pair instead of spawning; everything after the transport (era detection, envelope,
// tool listing, the whole call pipeline) is the Host's own code. This leans on Connection's
// private members: if they change, it fails loudly here rather than measuring something else.
// It patches the COMPILED Connection (bench/lib/compiled.ts), the one the compiled Host uses.
// The in-memory pair hands over objects, not bytes, so it is wrapped as the SDK's legacy HTTP
// transport is: in the SizeLimitedTransport, which applies limits.maxResultBytes to each message
// it delivers. Every transport the host builds enforces that rule itself (stdio and modern HTTP
// while reading), and the call pipeline has no size step; so here, as over stdio, the rule is
// paid by everything that reads through the transport, the bare SDK request included.
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { ServerConfig } from "../../src/host/config.js";
import type { ToolkitServer } from "../../src/server/index.js";
import { connectionModule, serverModule, sizeLimitedTransportModule } from "./compiled.js";

const { Connection } = connectionModule;
const { ToolkitConnection } = serverModule;
const { SizeLimitedTransport } = sizeLimitedTransportModule;

const MEMORY = "mcp-prism:in-memory";
const factories = new Map<string, () => Promise<Transport>>();
let patched = false;

/** A linked in-memory pair with the toolkit server on one end; returns the client end. */
export async function inMemoryClientTransport(server: ToolkitServer): Promise<Transport> {
  const [client, serverSide] = InMemoryTransport.createLinkedPair();
  await new ToolkitConnection(server).connect(serverSide);
  return client;
}

export function memoryServer(key: string, server: ToolkitServer): ServerConfig {
  patchConnection();
  factories.set(key, () => inMemoryClientTransport(server));
  return { kind: "stdio", command: MEMORY, args: [key] };
}

type Internals = {
  config: ServerConfig;
  client: unknown;
  limits: { discoverTimeoutMs: number; maxResultBytes: number };
  newClient(): { connect(t: Transport): Promise<void> };
  detectEra(d: { probeTimeout: number; probeClient: () => Promise<unknown>; legacy: (pending?: Promise<unknown>) => Promise<void> }): Promise<void>;
  initialize(client: unknown, pending?: Promise<unknown>): Promise<string>;
};

function patchConnection(): void {
  if (patched) return;
  const proto = Connection.prototype as unknown as Record<string, unknown>;
  for (const m of ["connectStdio", "newClient", "detectEra", "initialize"]) {
    if (typeof proto[m] !== "function") throw new Error(`bench/lib/memory-host.ts: Connection.${m} is gone; update the in-memory hook`);
  }
  const original = proto.connectStdio as (this: Internals) => Promise<void>;
  proto.connectStdio = async function (this: Internals): Promise<void> {
    const cfg = this.config as Extract<ServerConfig, { kind: "stdio" }>;
    if (cfg.command !== MEMORY) return original.call(this);
    const make = factories.get(cfg.args?.[0] ?? "");
    if (!make) throw new Error(`no in-memory server ${cfg.args?.[0]}`);
    const client = this.newClient();
    this.client = client;
    await client.connect(new SizeLimitedTransport(await make(), this.limits.maxResultBytes));
    // The same Detection connectStdio gives detectEra (connection.ts).
    await this.detectEra({
      probeTimeout: this.limits.discoverTimeoutMs,
      probeClient: async () => client,
      legacy: async (pending) => void (await this.initialize(client, pending)),
    });
  };
  patched = true;
}
