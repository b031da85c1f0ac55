// The compiled build (dist/, what `npm run build` emits and the bundle is made from) for benches
// that time the host's own code: loaded through tsx, src/ would carry the loader's transforms
// (e.g. a `__name` call wherever a closure is created) that the shipped code does not have.
// `npm run bench` builds first. Types come from src/, values from dist/.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT } from "./demo.js";

async function load<T>(rel: string): Promise<T> {
  const file = join(ROOT, "dist", rel);
  if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first (npm run bench does)`);
  return (await import(pathToFileURL(file).href)) as T;
}

export const hostModule = await load<typeof import("../../src/host/host.js")>("host/host.js");
export const connectionModule = await load<typeof import("../../src/host/connection/connection.js")>(
  "host/connection/connection.js",
);
export const transportFactoryModule = await load<typeof import("../../src/host/connection/transport-factory.js")>(
  "host/connection/transport-factory.js",
);
export const sizeLimitedTransportModule = await load<
  typeof import("../../src/host/connection/size-limited-transport.js")
>("host/connection/size-limited-transport.js");
export const rpcClientModule = await load<typeof import("../../src/host/connection/rpc-client.js")>(
  "host/connection/rpc-client.js",
);
export const protocolModule = await load<typeof import("../../src/protocol/index.js")>("protocol/index.js");
export const serverModule = await load<typeof import("../../src/server/index.js")>("server/index.js");
export const demoServerModule = await load<typeof import("../../src/demo/server.js")>("demo/server.js");
