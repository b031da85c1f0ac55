// Interop with a server built on the TypeScript SDK v2 (@modelcontextprotocol/server 2.4.0,
// test/fixtures/sdk-v2-server.ts), over stdio and over Streamable HTTP: the host detects
// 2026-07-28, lists both tools, and calls them (over HTTP the SDK checks the Mcp-Param-Region
// header the host mirrors from `route`'s x-mcp-header parameter). `score`'s annotation is invalid:
// excluded over HTTP with the rule, kept over stdio (where x-mcp-header means nothing).
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { Host } from "../../src/host/host.js";
import type { ServerConfig } from "../../src/host/config/config.js";
import { config, ROOT } from "../helpers/host-fixtures.js";
import { waitForListeningUrl } from "../helpers/listening.js";

const FIXTURE = join(ROOT, "test", "fixtures", "sdk-v2-server.ts");

async function exercise(server: ServerConfig, http: boolean): Promise<void> {
  const host = await Host.start({ config: config({ v2: server }) });
  try {
    const s = host.servers()[0];
    assert.equal(s.state, "connected", s.error);
    assert.equal(s.protocolVersion, "2026-07-28");
    assert.deepEqual(
      (await host.tools()).map((t) => t.name).sort(),
      http ? ["add", "route"] : ["add", "route", "score"],
    );
    assert.deepEqual(
      (await host.toolErrors()).map((e) => [e.tool, e.rule]),
      http ? [["score", "x-mcp-header-type"]] : [],
    );
    const add = await host.call("add", { a: 2, b: 3 });
    assert.ok(add.ok, add.ok ? "" : add.error.message);
    assert.deepEqual(
      add.routed.model.map((o) => (o.format === "content" ? o.content : o.structuredContent)),
      [[{ type: "text", text: "2 + 3 = 5" }]],
    );
    const route = await host.call("route", { region: "Zürich ", query: "SELECT 1" });
    assert.ok(route.ok, route.ok ? "" : route.error.message);
    assert.deepEqual(
      route.routed.programmatic.map((o) => o.structuredContent),
      [{ region: "Zürich ", query: "SELECT 1" }],
    );
  } finally {
    await host.close();
  }
}

describe("TypeScript SDK v2 server", () => {
  it("over stdio: 2026-07-28, tools listed (score kept) and called", async () => {
    await exercise({ kind: "stdio", command: process.execPath, args: ["--import", "tsx", FIXTURE], cwd: ROOT }, false);
  });

  describe("over Streamable HTTP", () => {
    let child: ChildProcess;
    let url: string;
    before(async () => {
      child = spawn(process.execPath, ["--import", "tsx", FIXTURE, "--http"], {
        cwd: ROOT,
        stdio: ["ignore", "ignore", "pipe"],
      });
      url = (await waitForListeningUrl(child, "sdk-v2-server --http")).url;
    });
    after(() => {
      child.kill();
    });

    it("2026-07-28, score excluded with its rule, tools called, Mcp-Param-Region accepted by the SDK", async () => {
      await exercise({ kind: "http", url }, true);
    });
  });
});
