// The host's transport seam (HostOptions.transport, src/host/connection/transport-factory.ts): every transport
// a connection opens comes from the factory, with the server's name, limits and the era it is for;
// a reconnect asks again; and the in-memory tier (test/helpers/in-memory.ts) keeps the size rule.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createDemoServer } from "../../src/demo/server.js";
import { Host } from "../../src/host/host.js";
import type { TransportContext, TransportFactory } from "../../src/host/connection/transport-factory.js";
import { config } from "../helpers/host-fixtures.js";
import { inMemoryPair, memoryServers } from "../helpers/in-memory.js";

test("a stdio-shaped config gets one transport for both eras, built by the factory with the server's name and limits", async () => {
  const memory = memoryServers({ demo: createDemoServer() });
  const asked: TransportContext[] = [];
  const transport: TransportFactory = (cfg, ctx) => (asked.push(ctx), memory.transport(cfg, ctx));
  const host = await Host.start({
    config: config(memory.servers, { maxResultBytes: 1_000_000 }),
    transport,
    eraCache: false,
  });
  try {
    assert.equal(host.servers()[0].protocolVersion, "2026-12-01", host.servers()[0].error);
    assert.deepEqual(
      asked.map((c) => [c.name, c.era, c.limits.maxResultBytes]),
      [["demo", "any", 1_000_000]],
    );
    const o = await host.call("lookup_order", { orderId: "ord_5001" });
    assert.ok(o.ok, o.ok ? "" : o.error.message);
    assert.ok(memory.sent("demo").some((m) => m.method === "tools/call" && m.params.name === "lookup_order"));
  } finally {
    await host.close();
  }
});

test("an HTTP config asks for a modern transport to probe on, or a legacy one when the era is legacy", async () => {
  const server = createDemoServer();
  const cfg = { kind: "http" as const, url: "http://in-memory.invalid/mcp" };
  for (const [protocol, eras] of [
    [undefined, ["modern"]],
    ["2025-11-25", ["legacy"]],
  ] as const) {
    const asked: string[] = [];
    const transport: TransportFactory = (_c, ctx) => (asked.push(ctx.era), inMemoryPair(server, ctx).client);
    const host = await Host.start({ config: config({ demo: cfg }), transport, protocol, eraCache: false });
    try {
      assert.equal(host.servers()[0].protocolVersion, protocol ?? "2026-12-01", host.servers()[0].error);
      assert.deepEqual(asked, eras);
    } finally {
      await host.close();
    }
  }
});

test("a connection lost on the server's side is rebuilt through the factory on the next call", async () => {
  const memory = memoryServers({ demo: createDemoServer() });
  const host = await Host.start({ config: config(memory.servers), transport: memory.transport, eraCache: false });
  try {
    assert.equal(memory.opened("demo"), 1);
    await memory.drop("demo");
    assert.equal(host.servers()[0].state, "disconnected");
    const o = await host.call("lookup_order", { orderId: "ord_5001" });
    assert.ok(o.ok, o.ok ? "" : o.error.message);
    assert.equal(memory.opened("demo"), 2);
  } finally {
    await host.close();
  }
});

test("the in-memory tier keeps limits.maxResultBytes: a reply over it is refused before validation", async () => {
  const memory = memoryServers({ demo: createDemoServer() });
  const host = await Host.start({
    config: config(memory.servers, { maxResultBytes: 40_000 }),
    transport: memory.transport,
    eraCache: false,
  });
  try {
    const small = await host.call("lookup_order", { orderId: "ord_5001" });
    assert.ok(small.ok, small.ok ? "" : small.error.message);
    const o = await host.call("generate_images", { prompt: "sunrise", count: 4 });
    assert.ok(!o.ok);
    assert.equal(o.error.rule, "result-too-large");
    assert.match(o.error.message, /over the 40000-byte limit; it was refused before validation/);
  } finally {
    await host.close();
  }
});
