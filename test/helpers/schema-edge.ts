// The schema-edge fixture server's config (test/fixtures/schema-edge-server.ts), behind its own wire log.
import { join } from "node:path";
import type { ServerConfig } from "../../src/host/config/config.js";
import { ROOT } from "./host-fixtures.js";

export const SCHEMA_EDGE = join(ROOT, "test", "fixtures", "schema-edge-server.ts");

export function schemaEdge(era: "modern" | "legacy", log: string, extra: string[] = []): ServerConfig {
  return {
    kind: "stdio",
    command: process.execPath,
    args: ["--import", "tsx", SCHEMA_EDGE, "--era", era, ...extra],
    env: { WIRE_LOG: log },
    cwd: ROOT,
  };
}
