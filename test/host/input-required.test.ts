// Multi round-trip tools/call (InputRequiredResult) against a raw 2026-07-28 HTTP server: the
// host retries with inputResponses and the requestState echoed exactly, gives up after
// MAX_INPUT_ROUNDS with a rule, answers roots/list with the host's roots, and refuses input it cannot give (sampling) with a rule.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Host } from "../../src/host/host.js";
import { answerInputRequests, MAX_INPUT_ROUNDS } from "../../src/host/call/input-required.js";
import { config } from "../helpers/host-fixtures.js";

const tool = (name: string) => ({ name, inputSchema: { type: "object" } });
const STATE = 'opaque "state" \u00e9 ✓ {"not":"json to touch"}';

describe("input_required over a real HTTP server", () => {
  let server: Server;
  let url: string;
  const calls: Record<string, unknown>[] = [];
  before(async () => {
    server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const msg = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      const reply = (result: unknown) =>
        res
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ jsonrpc: "2.0", id: msg.id, result }));
      if (msg.method === "server/discover")
        return reply({ resultType: "complete", supportedVersions: ["2026-07-28"], capabilities: { tools: {} } });
      if (msg.method === "tools/list")
        return reply({ resultType: "complete", tools: [tool("confirm"), tool("forever"), tool("sample")] });
      const p = msg.params;
      calls.push(p);
      if (p.name === "confirm") {
        if (!p.inputResponses)
          return reply({
            resultType: "input_required",
            requestState: STATE,
            inputRequests: {
              ok: {
                method: "elicitation/create",
                params: { message: "Sure?", requestedSchema: { type: "object", properties: {} } },
              },
              where: { method: "roots/list" },
            },
          });
        return reply({
          resultType: "complete",
          content: [
            {
              type: "text",
              text: `state ${p.requestState === STATE ? "echoed" : "changed"}; ${JSON.stringify(p.inputResponses)}`,
            },
          ],
        });
      }
      if (p.name === "forever") return reply({ resultType: "input_required", requestState: String(calls.length) });
      return reply({
        resultType: "input_required",
        inputRequests: { s: { method: "sampling/createMessage", params: {} } },
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  it("answers, echoes the state exactly, and the final result is routed", async () => {
    const host = await Host.start({ config: { ...config({ s: { kind: "http", url } }), roots: ["/work/space"] } });
    try {
      calls.length = 0;
      const out = await host.call("confirm", {});
      assert.ok(out.ok, out.ok ? "" : out.error.message);
      assert.deepEqual(
        out.routed.model.map((o) => (o.format === "content" ? o.content : undefined)),
        [
          [
            {
              type: "text",
              text: 'state echoed; {"ok":{"action":"cancel"},"where":{"roots":[{"uri":"file:///work/space","name":"space"}]}}',
            },
          ],
        ],
      );
      assert.equal(calls.length, 2);
      assert.equal(calls[0].requestState, undefined);
      assert.deepEqual(calls[1].arguments, {});
      assert.deepEqual((calls[0]._meta as Record<string, unknown>)["io.modelcontextprotocol/clientCapabilities"], {
        roots: {},
        extensions: { "io.modelcontextprotocol/tasks": {} },
      });

      calls.length = 0;
      const loop = await host.call("forever", {});
      assert.ok(!loop.ok);
      assert.equal(loop.error.rule, "input-required-rounds");
      assert.equal(calls.length, MAX_INPUT_ROUNDS + 1);
      assert.equal(calls[3].requestState, "3", "each retry carries the latest state");

      const sample = await host.call("sample", {});
      assert.ok(!sample.ok);
      assert.equal(sample.error.rule, "input-required-unanswerable");
      assert.match(sample.error.message, /^server s, tool sample: the server asked for sampling\/createMessage input/);
    } finally {
      await host.close();
    }
  });
});

it("answerInputRequests: malformed InputRequiredResults are refused, not guessed at", async () => {
  for (const raw of [
    { resultType: "input_required" },
    { resultType: "input_required", inputRequests: [] },
    { resultType: "input_required", requestState: 5 },
  ]) {
    const a = await answerInputRequests(raw);
    assert.equal(a.ok, false, JSON.stringify(raw));
  }
  const many = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, { method: "roots/list" }]));
  assert.equal((await answerInputRequests({ resultType: "input_required", inputRequests: many })).ok, false);
  assert.deepEqual(await answerInputRequests({ resultType: "input_required", requestState: "s" }), {
    ok: true,
    retry: { inputResponses: {}, requestState: "s" },
  });
});
