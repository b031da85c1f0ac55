// The era cache against real fixture processes: a remembered legacy server gets initialize with no
// probe, a remembered modern one discover with its version, a stale entry is re-detected and
// replaced, --protocol bypasses it, and the file holds no secret, is 0600 and survives corruption.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, statSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { Host } from "../../src/host/host.js";
import { EraCache } from "../../src/host/connection/era-cache.js";
import type { ServerConfig } from "../../src/host/config/config.js";
import { config, fixtureServer, tempDir, wireLines } from "../helpers/host-fixtures.js";

const hosts: Host[] = [];
after(() => Promise.all(hosts.map((h) => h.close())));

/** Connects once (and closes); returns the status and the lines this connect sent. */
async function connectOnce(
  server: ServerConfig,
  log: string,
  cache: EraCache,
  opts: { protocol?: string; discoverTimeoutMs?: number } = {},
) {
  const before = wireLines(log).length;
  const host = await Host.start({
    config: config({ fx: server }, { discoverTimeoutMs: opts.discoverTimeoutMs ?? 15_000 }),
    protocol: opts.protocol,
    eraCache: cache,
  });
  hosts.push(host);
  const status = host.servers()[0];
  await host.close();
  return {
    status,
    sent: wireLines(log)
      .slice(before)
      .map((l) => ({
        method: l.method as string,
        version: l.params?._meta?.["io.modelcontextprotocol/protocolVersion"] as string | undefined,
      })),
  };
}

function setup(era: string) {
  const dir = tempDir();
  const log = join(dir, "wire.log");
  return { log, cache: new EraCache(join(dir, "state")), server: fixtureServer(era, { WIRE_LOG: log }) };
}

describe("era cache (stdio)", () => {
  test("a legacy server that ignores unknown requests: the second connect sends initialize first, no server/discover", async () => {
    const { log, cache, server } = setup("silent");
    const first = await connectOnce(server, log, cache, { discoverTimeoutMs: 300 });
    assert.equal(first.status.era, "legacy", first.status.error);
    assert.equal(first.sent[0].method, "server/discover");
    assert.deepEqual(cache.get(server), { era: "legacy", version: "2025-11-25" });
    const second = await connectOnce(server, log, cache, { discoverTimeoutMs: 300 });
    assert.equal(second.status.era, "legacy", second.status.error);
    assert.deepEqual(
      second.sent.slice(0, 2).map((l) => l.method),
      ["initialize", "notifications/initialized"],
    );
    assert.ok(!second.sent.some((l) => l.method === "server/discover"), JSON.stringify(second.sent));
  });

  test("a remembered 2026-07-28 server gets discover with 2026-07-28 first (no -32022 round trip)", async () => {
    const { log, cache, server } = setup("old-modern");
    const first = await connectOnce(server, log, cache);
    assert.deepEqual(
      first.sent.filter((l) => l.method === "server/discover").map((l) => l.version),
      ["2026-12-01", "2026-07-28"],
    );
    const second = await connectOnce(server, log, cache);
    assert.equal(second.status.protocolVersion, "2026-07-28");
    assert.deepEqual(
      second.sent.filter((l) => l.method === "server/discover").map((l) => l.version),
      ["2026-07-28"],
    );
  });

  test("a stale entry (remembered legacy, now modern-only): initialize refused → full detection, the cache updated", async () => {
    const { log, cache, server } = setup("modern");
    cache.set(server, { era: "legacy", version: "2025-11-25" });
    const r = await connectOnce(server, log, cache);
    assert.equal(r.status.era, "2026-12-01", r.status.error);
    assert.deepEqual(
      r.sent.slice(0, 2).map((l) => l.method),
      ["initialize", "server/discover"],
    );
    assert.ok(
      r.status.diagnostics.some((d) => /remembered as legacy, but initialize failed/.test(d)),
      r.status.diagnostics.join("\n"),
    );
    assert.deepEqual(cache.get(server), { era: "modern", version: "2026-12-01" });
  });

  test("--protocol bypasses the cache: neither read nor written", async () => {
    const { log, cache, server } = setup("modern");
    cache.set(server, { era: "legacy", version: "2025-11-25" });
    const r = await connectOnce(server, log, cache, { protocol: "2026-07-28" });
    assert.equal(r.status.protocolVersion, "2026-07-28", r.status.error);
    assert.deepEqual(r.sent[0], { method: "server/discover", version: "2026-07-28" });
    assert.deepEqual(cache.get(server), { era: "legacy", version: "2025-11-25" });
  });

  test("the file: 0600, no secret or command in clear; a corrupt one is ignored with a diagnostic and replaced", async () => {
    const { log, cache } = setup("modern");
    const server = fixtureServer("modern", { WIRE_LOG: log, API_TOKEN: "hunter2-SECRET" });
    mkdirSync(cache.dir, { recursive: true });
    writeFileSync(cache.file, "{not json");
    const r = await connectOnce(server, log, cache);
    assert.equal(r.status.state, "connected", r.status.error);
    assert.ok(
      r.status.diagnostics.some((d) => d.includes("era cache") && d.includes("ignored: not valid JSON")),
      r.status.diagnostics.join("\n"),
    );
    const text = readFileSync(cache.file, "utf8");
    assert.doesNotMatch(text, /hunter2|misbehaving|API_TOKEN|node/);
    assert.equal(statSync(cache.file).mode & 0o777, 0o600);
    assert.deepEqual(cache.get(server), { era: "modern", version: "2026-12-01" });
  });

  test("bounded: a file over the size limit is ignored; entries are capped, oldest dropped", () => {
    const cache = new EraCache(tempDir());
    const said: string[] = [];
    writeFileSync(cache.file, JSON.stringify({ servers: { pad: "x".repeat(70_000) } }));
    assert.equal(
      cache.get(fixtureServer("a"), (t) => said.push(t)),
      undefined,
    );
    assert.match(said[0], /ignored: \d+ bytes, over 65536/);
    for (let i = 0; i < 205; i++) cache.set(fixtureServer(`s${i}`), { era: "legacy", version: "2025-11-25" });
    const kept = Object.keys(JSON.parse(readFileSync(cache.file, "utf8")).servers);
    assert.equal(kept.length, 200);
    assert.deepEqual(cache.get(fixtureServer("s204")), { era: "legacy", version: "2025-11-25" });
  });
});
