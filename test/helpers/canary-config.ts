// A config file for the REAL canary MCP server over stdio (test/fixtures/canary-server.ts), as the
// built CLI reads it.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./host-fixtures.js";

/** Writes the config to `path` and returns it. */
export function writeCanaryConfig(path: string): string {
  writeFileSync(
    path,
    JSON.stringify({
      mcpServers: {
        canary: {
          command: process.execPath,
          args: ["--import", "tsx", join(ROOT, "test", "fixtures", "canary-server.ts")],
          cwd: ROOT,
        },
      },
      // -p waits connectWaitMs for its servers: on a loaded machine tsx takes longer than the default 5 s.
      limits: { connectWaitMs: 60_000 },
    }),
  );
  return path;
}
