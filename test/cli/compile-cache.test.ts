// Decision D3: node's compile cache where the runtime has it (Node >= 22.1), in the XDG cache
// directory of paths.ts, off with MCP_PRISM_CODE_CACHE=0; on Node 20 nothing is written. Run
// on both by CI (npm test on Node 20, test:node24 on Node 24), through the bundled CLI.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI } from "../helpers/raw-stdio.js";

const [major, minor] = process.versions.node.split(".").map(Number);
const hasCompileCache = major > 22 || (major === 22 && minor >= 1);

test(`the compile cache: ${hasCompileCache ? "written" : "not on"} Node ${process.versions.node}, off with MCP_PRISM_CODE_CACHE=0`, (t) => {
  const dir = mkdtempSync(join(tmpdir(), "mcp-prism-ccache-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const run = (cache: string, extra: Record<string, string> = {}) =>
    execFileSync(process.execPath, [CLI, "tools", "--json"], {
      env: { ...process.env, XDG_CACHE_HOME: cache, XDG_STATE_HOME: join(dir, "state"), ...extra },
      stdio: ["ignore", "pipe", "pipe"],
    });
  const on = join(dir, "on");
  run(on);
  const where = join(on, "mcp-prism", "compile-cache");
  assert.equal(existsSync(where), hasCompileCache);
  if (hasCompileCache) assert.ok(readdirSync(where).length > 0, "nothing in the compile cache");
  const off = join(dir, "off");
  run(off, { MCP_PRISM_CODE_CACHE: "0" });
  assert.equal(existsSync(join(off, "mcp-prism", "compile-cache")), false);
});
