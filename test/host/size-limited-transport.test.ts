// SizeLimitedTransport: the size rule for transports that deliver parsed messages.
import { test } from "node:test";
import assert from "node:assert/strict";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { SizeLimitedTransport } from "../../src/host/connection/size-limited-transport.js";
import { RESULT_TOO_LARGE_CODE, RESULT_TOO_LARGE_MARK } from "../../src/host/connection/size-limit.js";

async function pair(limit: number) {
  const [client, server] = InMemoryTransport.createLinkedPair();
  const diagnostics: string[] = [];
  const limited = new SizeLimitedTransport(client, limit, (t) => diagnostics.push(t));
  const received: JSONRPCMessage[] = [];
  limited.onmessage = (m) => void received.push(m);
  await limited.start();
  await server.start();
  return { limited, server, received, diagnostics };
}

const reply = (id: number, text: string): JSONRPCMessage => ({
  jsonrpc: "2.0",
  id,
  result: { content: [{ type: "text", text }] },
});
const size = (m: unknown) => Buffer.byteLength(JSON.stringify(m));

test("a reply within the limit is delivered as it is (the same object)", async () => {
  const { server, received } = await pair(1000);
  const m = reply(1, "small");
  await server.send(m);
  assert.equal(received.length, 1);
  assert.equal(received[0], m);
});

test("a reply over the limit becomes the RESULT_TOO_LARGE error for its request, with its exact size", async () => {
  const { server, received, diagnostics } = await pair(1000);
  const m = reply(7, "é".repeat(600)); // 1,200 bytes of UTF-8 text: over, though 600 UTF-16 units
  await server.send(m);
  assert.equal(received.length, 1);
  const r = received[0] as {
    id: number;
    error: { code: number; data: Record<string, { limit: number; bytes: number; stage: string }> };
  };
  assert.equal(r.id, 7);
  assert.equal(r.error.code, RESULT_TOO_LARGE_CODE);
  assert.deepEqual(r.error.data[RESULT_TOO_LARGE_MARK], { limit: 1000, bytes: size(m), stage: "parsed" });
  assert.deepEqual(diagnostics, []);
});

test("a notification or server request over the limit is dropped with a diagnostic; the next message passes", async () => {
  const { server, received, diagnostics } = await pair(500);
  await server.send({ jsonrpc: "2.0", method: "notifications/message", params: { data: "y".repeat(1000) } });
  await server.send({ jsonrpc: "2.0", id: 3, method: "sampling/createMessage", params: { data: "y".repeat(1000) } });
  assert.equal(received.length, 0);
  assert.equal(diagnostics.length, 2);
  assert.match(diagnostics[0], /^dropped a \d+-byte message over the 500-byte limit$/);
  await server.send(reply(4, "ok"));
  assert.equal((received[0] as { id: number }).id, 4);
});

test("send, close and the close event pass through", async () => {
  const { limited, server } = await pair(500);
  const seen: JSONRPCMessage[] = [];
  server.onmessage = (m) => void seen.push(m);
  let closed = false;
  limited.onclose = () => (closed = true);
  await limited.send({ jsonrpc: "2.0", id: 1, method: "tools/list" });
  assert.deepEqual(seen, [{ jsonrpc: "2.0", id: 1, method: "tools/list" }]);
  await limited.close();
  assert.ok(closed);
});
