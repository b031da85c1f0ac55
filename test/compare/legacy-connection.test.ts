// compare's second connection (2026-07-28): one per server, opened on first use, kept, a failed
// open tried again next time, every opened one closed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { LEGACY_SHAPE_PROTOCOL, LegacyConnections } from "../../src/compare/legacy-connection.js";
import type { Host } from "../../src/host/host.js";
import type { CallOutcome, ToolEntry } from "../../src/host/types.js";

const entry = (server: string, name: string) => ({ server, name, qualifiedName: `${server}__${name}` }) as ToolEntry;

test("one connection per server, at 2026-07-28, kept; a failed open is retried; close closes each", async () => {
  const opened: string[] = [];
  const closed: string[] = [];
  const called: string[] = [];
  let failNext = true;
  const legacy = new LegacyConnections(async (server, protocol) => {
    opened.push(`${server}@${protocol}`);
    if (server === "b" && failNext) {
      failNext = false;
      throw new Error("server b refused 2026-07-28");
    }
    const host = {
      call: async (name: string) => {
        called.push(`${server}:${name}`);
        return { ok: false, plan: {}, error: { rule: "x", message: "x" }, durationMs: 0 } as unknown as CallOutcome;
      },
      close: async () => void closed.push(server),
    };
    return host as unknown as Host;
  });
  await legacy.call(entry("a", "t"), {});
  await legacy.call(entry("a", "u"), {});
  await assert.rejects(legacy.call(entry("b", "t"), {}), /server b refused/);
  await legacy.call(entry("b", "t"), {});
  assert.deepEqual(opened, [`a@${LEGACY_SHAPE_PROTOCOL}`, `b@${LEGACY_SHAPE_PROTOCOL}`, `b@${LEGACY_SHAPE_PROTOCOL}`]);
  assert.deepEqual(called, ["a:t", "a:u", "b:t"], "the tool's own name on its server's connection");
  await legacy.close();
  assert.deepEqual(closed.sort(), ["a", "b"]);
});
