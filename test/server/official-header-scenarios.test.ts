// The official conformance suite's two header-validation SERVER scenarios against the toolkit's
// Streamable HTTP binding (header rules from protocol/http-headers.ts), on a toolkit server whose
// tool has a string x-mcp-header parameter (the demo has none, so its custom-header cases are
// "not testable"). Only the scenarios' sep-2243 checks are judged here: the wire-schema check
// covers result fields owned by the rest of the toolkit (test/server/ has its own tests for them).
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineTool, serveHttp, ToolkitServer, type HttpHandle } from "../../src/server/index.js";
import { ROOT } from "../helpers/host-fixtures.js";

const SUITE = join(ROOT, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");
const COMPAT = join(ROOT, "test", "helpers", "node20-compat", "register.mjs");

const region = defineTool<{ region: string; query?: string }, string>({
  name: "in_region",
  description: "Echoes the region; region is mirrored into Mcp-Param-Region.",
  inputSchema: {
    type: "object",
    properties: { region: { type: "string", "x-mcp-header": "Region" }, query: { type: "string" } },
    required: ["region"],
  },
  outputVariants: [{ audience: "assistant", format: "content", project: (r) => [{ type: "text", text: r }] }],
  run: ({ region: r }) => r,
});

function scenario(
  url: string,
  name: string,
  out: string,
): Promise<{ id: string; name: string; status: string; errorMessage?: string }[]> {
  const dir = join(out, name);
  const args = [
    "--import",
    COMPAT,
    SUITE,
    "server",
    "--url",
    url,
    "--scenario",
    name,
    "--spec-version",
    "2026-07-28",
    "-o",
    dir,
  ];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { cwd: ROOT, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout) => {
      try {
        const sub = readdirSync(dir);
        resolve(JSON.parse(readFileSync(join(dir, sub[0], "checks.json"), "utf8")));
      } catch (e) {
        reject(new Error(`no results for ${name}: ${(e as Error).message} ${error?.message ?? ""}\n${stdout}`));
      }
    });
  });
}

describe("official header-validation server scenarios against the toolkit's HTTP binding", () => {
  let srv: HttpHandle;
  const out = mkdtempSync(join(tmpdir(), "mcp-prism-official-headers-"));
  before(async () => {
    srv = await serveHttp(new ToolkitServer({ info: { name: "headers", version: "1.0.0" }, tools: [region] }));
  });
  after(async () => {
    await srv.close();
    rmSync(out, { recursive: true, force: true });
  });

  for (const name of ["http-header-validation", "http-custom-header-server-validation"]) {
    it(name, async () => {
      const checks = (await scenario(srv.url, name, out)).filter((c) => c.id.startsWith("sep-2243-"));
      assert.ok(checks.length >= 5, `too few sep-2243 checks ran: ${JSON.stringify(checks)}`);
      const bad = checks
        .filter((c) => c.status !== "SUCCESS")
        .map((c) => `${c.id} ${c.name} ${c.status}: ${c.errorMessage ?? ""}`);
      assert.deepEqual(bad, []);
    });
  }
});
