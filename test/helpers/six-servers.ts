// The six real servers of issue 29's measurements (devDependencies): playwright-mcp on Debian's
// Chromium (headless, isolated), the git server, the SQLite server, filesystem, memory and
// everything, with the temporary files they need (removed by `remove`).
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { HostConfig, ServerConfig } from "../../src/host/config/config.js";
import { config, ROOT } from "./host-fixtures.js";
import { everythingStdio, filesystemStdio, memoryStdio } from "./real-servers.js";

const bin = (...p: string[]) => join(ROOT, "node_modules", ...p);
export const PLAYWRIGHT = bin("@playwright", "mcp", "cli.js");
export const GIT_SERVER = bin("@cyanheads", "git-mcp-server", "dist", "index.js");
export const SQLITE_SERVER = bin("mcp-server-sqlite-npx", "dist", "index.js");

export function sixServers(): {
  config: HostConfig;
  servers: Record<string, ServerConfig>;
  dir: string;
  remove: () => void;
} {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "mcp-prism-six-")));
  writeFileSync(join(dir, "notes.txt"), "hello\n");
  const servers: Record<string, ServerConfig> = {
    playwright: {
      kind: "stdio",
      command: process.execPath,
      args: [PLAYWRIGHT, "--headless", "--executable-path", "/usr/bin/chromium", "--isolated", "--no-sandbox"],
    },
    git: {
      kind: "stdio",
      command: process.execPath,
      args: [GIT_SERVER],
      env: { MCP_TRANSPORT_TYPE: "stdio", MCP_LOG_LEVEL: "error", GIT_BASE_DIR: dir },
    },
    sqlite: { kind: "stdio", command: process.execPath, args: [SQLITE_SERVER, join(dir, "test.db")] },
    fs: filesystemStdio(dir),
    memory: memoryStdio(join(dir, "memory.jsonl")),
    everything: everythingStdio(),
  };
  return {
    config: { ...config(servers), roots: [dir] },
    servers,
    dir,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
