// Era detection against real fixture processes: modern, -32022 retry, legacy fallback on error
// and on timeout, and --protocol forcing.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { Host } from "../../src/host/host.js";
import { config, fixtureServer, tempDir, wireLines } from "../helpers/host-fixtures.js";

const hosts: Host[] = [];
after(() => Promise.all(hosts.map((h) => h.close())));
async function start(era: string, opts: { protocol?: string; discoverTimeoutMs?: number; args?: string[] } = {}) {
  const log = join(tempDir(), "wire.log");
  const host = await Host.start({
    config: config(
      { fx: fixtureServer(era, { WIRE_LOG: log }, opts.args) },
      opts.discoverTimeoutMs ? { discoverTimeoutMs: opts.discoverTimeoutMs } : {},
    ),
    protocol: opts.protocol,
  });
  hosts.push(host);
  return { host, log, status: host.servers()[0] };
}

describe("era detection (stdio)", () => {
  test("a modern server answers server/discover: 2026-12-01, no initialize", async () => {
    const { status, log } = await start("modern");
    assert.equal(status.state, "connected");
    assert.equal(status.protocolVersion, "2026-12-01");
    assert.equal(status.era, "2026-12-01");
    const methods = wireLines(log).map((l) => l.method);
    assert.equal(methods[0], "server/discover");
    assert.ok(!methods.includes("initialize"));
    const first = wireLines(log)[0];
    assert.equal(first.params._meta["io.modelcontextprotocol/protocolVersion"], "2026-12-01");
    assert.deepEqual(first.params._meta["io.modelcontextprotocol/clientInfo"].name, "mcp-prism");
  });

  test("-32022 on 2026-12-01: retries with 2026-07-28 from data.supported and stays modern", async () => {
    const { status, log } = await start("old-modern");
    assert.equal(status.protocolVersion, "2026-07-28");
    assert.equal(status.era, "2026-07-28");
    const lines = wireLines(log);
    const discovers = lines
      .filter((l) => l.method === "server/discover")
      .map((l) => l.params._meta["io.modelcontextprotocol/protocolVersion"]);
    assert.deepEqual(discovers, ["2026-12-01", "2026-07-28"]);
    assert.ok(!lines.some((l) => l.method === "initialize"));
  });

  test("a non-modern error to the probe falls back to initialize", async () => {
    const { status, log } = await start("legacy");
    assert.equal(status.era, "legacy");
    assert.equal(status.protocolVersion, "2025-11-25");
    const methods = wireLines(log).map((l) => l.method);
    assert.deepEqual(methods.slice(0, 3), ["server/discover", "initialize", "notifications/initialized"]);
    // Legacy requests carry no modern envelope.
    const list = wireLines(log).find((l) => l.method === "tools/list");
    assert.equal(list?.params?._meta, undefined);
  });

  test("no answer to the probe within the timeout falls back to initialize", async () => {
    const t0 = Date.now();
    const { status } = await start("silent", { discoverTimeoutMs: 300 });
    assert.equal(status.era, "legacy");
    assert.ok(Date.now() - t0 >= 300);
  });

  test("a slow-starting modern server that answers discover after the probe timeout stays modern", async () => {
    const { status, log } = await start("modern", { discoverTimeoutMs: 200, args: ["--slow-start", "1200"] });
    assert.equal(status.era, "2026-12-01", status.error);
    // initialize was sent as the fallback candidate, but discover (answered first) decided.
    const methods = wireLines(log).map((l) => l.method);
    assert.deepEqual(methods.slice(0, 2), ["server/discover", "initialize"]);
    assert.ok(!methods.includes("notifications/initialized"));
  });

  test("--protocol forces a version: 2026-07-28 on a server that prefers 2026-12-01", async () => {
    const { status, log } = await start("modern", { protocol: "2026-07-28" });
    assert.equal(status.protocolVersion, "2026-07-28");
    assert.deepEqual(
      wireLines(log)
        .filter((l) => l.method === "server/discover")
        .map((l) => l.params._meta["io.modelcontextprotocol/protocolVersion"]),
      ["2026-07-28"],
    );
  });

  test("--protocol 2025-11-25 skips the probe and initializes", async () => {
    const { status, log } = await start("legacy", { protocol: "2025-11-25" });
    assert.equal(status.era, "legacy");
    assert.equal(wireLines(log)[0].method, "initialize");
  });

  test("--protocol 2026-12-01 on a server without it fails with a clear error, no fallback", async () => {
    const { status, log } = await start("old-modern", { protocol: "2026-12-01" });
    assert.equal(status.state, "failed");
    assert.match(status.error ?? "", /server fx: does not support protocol 2026-12-01 \(it supports 2026-07-28\)/);
    assert.ok(!wireLines(log).some((l) => l.method === "initialize"));
  });
});
