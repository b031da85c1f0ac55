// The schema-bomb fixture server (test/fixtures/schema-bomb-server.ts) as a config entry.
import { join } from "node:path";
import type { ServerConfig } from "../../src/host/config/config.js";
import { ROOT } from "./host-fixtures.js";

export const SCHEMA_BOMB = join(ROOT, "test", "fixtures", "schema-bomb-server.ts");

export function schemaBomb(era: "modern" | "legacy", tools = 0): ServerConfig & { kind: "stdio" } {
  return {
    kind: "stdio",
    command: process.execPath,
    args: ["--import", "tsx", SCHEMA_BOMB, "--era", era, "--tools", String(tools)],
    cwd: ROOT,
  };
}
