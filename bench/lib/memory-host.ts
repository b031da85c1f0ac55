// A Host whose server lives in this process, over the SDK's InMemoryTransport, through the
// host's transport seam (HostOptions.transport, src/host/connection/transport-factory.ts): a stdio-shaped
// config (one transport for both eras, as a process would be) whose transport is the client end
// of an in-memory pair; everything after the transport (era detection, envelope, tool listing,
// the whole call pipeline) is the Host's own code. Built from the COMPILED modules
// (bench/lib/compiled.ts), the ones the compiled Host uses.
// The in-memory pair hands over objects, not bytes, so it is wrapped as the SDK's legacy HTTP
// transport is: in the SizeLimitedTransport, which applies limits.maxResultBytes to each message
// it delivers. Every transport the host builds enforces that rule itself (stdio and modern HTTP
// while reading), and the call pipeline has no size step; so here, as over stdio, the rule is
// paid by everything that reads through the transport, the bare SDK request included.
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { ServerConfig } from "../../src/host/config/config.js";
import type { TransportFactory } from "../../src/host/connection/transport-factory.js";
import type { ToolkitServer } from "../../src/server/index.js";
import { serverModule, sizeLimitedTransportModule, transportFactoryModule } from "./compiled.js";

const { ToolkitConnection } = serverModule;
const { SizeLimitedTransport } = sizeLimitedTransportModule;
const { defaultTransport } = transportFactoryModule;

const MEMORY = "mcp-prism:in-memory";

/** A config for `server` in process, and the HostOptions.transport that connects it (others as usual). */
export function memoryServer(server: ToolkitServer): { config: ServerConfig; transport: TransportFactory } {
  const transport: TransportFactory = (config, ctx) => {
    if (config.kind !== "stdio" || config.command !== MEMORY) return defaultTransport(config, ctx);
    const [client, serverSide] = InMemoryTransport.createLinkedPair();
    // Connecting is synchronous up to start(): what the host sends first waits in the pair's queue.
    void new ToolkitConnection(server).connect(serverSide);
    return new SizeLimitedTransport(client, ctx.limits.maxResultBytes, ctx.onDiagnostic);
  };
  return { config: { kind: "stdio", command: MEMORY, args: [] }, transport };
}
