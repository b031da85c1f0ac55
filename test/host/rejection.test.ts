// Atomic rejection: a misbehaving server's results are rejected whole, with the named rule,
// and nothing reaches any sink. Also declaration rejection and independent schema validation.
// Host logic, so the fixture runs in process (the in-memory tier, test/helpers/in-memory.ts);
// what its replies do on the stdio wire is the subject of test/hostile/.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Host } from "../../src/host/host.js";
import { config } from "../helpers/host-fixtures.js";
import { memoryServers } from "../helpers/in-memory.js";
import { misbehaving } from "../fixtures/misbehaving.js";

const memory = memoryServers({ fx: (send, exit) => misbehaving("modern", send, exit) });
let host: Host;
before(async () => {
  host = await Host.start({
    config: config(memory.servers, { callTimeoutMs: 1500 }),
    transport: memory.transport,
    eraCache: false,
  });
});
after(() => host.close());

async function rejected(tool: string, rule: string, opts: Parameters<Host["call"]>[2] = {}, args = {}) {
  const out = await host.call(tool, args, opts);
  assert.equal(out.ok, false, `${tool} should be rejected`);
  if (out.ok) return;
  assert.equal(out.error.rule, rule, out.error.message);
  assert.ok(!("routed" in out), "a rejected result routes nothing");
  return out.error.message;
}

describe("atomic rejection of misbehaving results", () => {
  test("an unrequested output → unrequested-output", async () => {
    const msg = await rejected("extra_output", "unrequested-output", {
      select: [{ audience: "assistant", format: "content" }],
    });
    assert.match(msg!, /user\/content, which was not requested/);
  });
  test("a missing output → missing-output", async () => {
    const msg = await rejected("missing_output", "missing-output"); // chat mode requests user/content too
    assert.match(msg!, /no output for requested user\/content/);
  });
  test("a selector twice → duplicate-output", async () =>
    void (await rejected("duplicate_output", "duplicate-output")));
  test("structured output against the wrong schema → schema-violation", async () => {
    const msg = await rejected("wrong_schema", "schema-violation", { mode: "code" });
    assert.match(msg!, /programmatic\/structured: \/items must be array/);
  });
  test("bad base64 in an image block → malformed-output", async () => {
    const msg = await rejected("bad_base64", "malformed-output");
    assert.match(msg!, /outputs\[0\]: content\.0\.data: data is not valid base64/);
  });
  test("non-array content → malformed-output", async () =>
    void (await rejected("non_array_content", "malformed-output")));
  test("resultType other than complete → invalid-result-type", async () =>
    void (await rejected("bad_result_type", "invalid-result-type")));
  test("no answer within the call timeout → timeout, and notifications/cancelled is sent", async () => {
    await rejected("never_answers", "timeout");
    const cancelled = () => {
      const sent = memory.sent("fx");
      const call = sent.find((l) => l.method === "tools/call" && l.params.name === "never_answers");
      return sent.some((l) => l.method === "notifications/cancelled" && l.params.requestId === call!.id);
    };
    for (let i = 0; i < 40 && !cancelled(); i++) await new Promise((r) => setTimeout(r, 50));
    assert.ok(cancelled());
  });
});

describe("tool declarations under 2026-12-01", () => {
  test("a tool without outputVariants is rejected by name; the others stay usable", async () => {
    const errors = await host.toolErrors();
    const names = errors.map((e) => e.tool).sort();
    assert.deepEqual(names, ["no_assistant_content", "no_variants"]);
    assert.match(
      errors.find((e) => e.tool === "no_variants")!.message,
      /server fx, tool no_variants: no outputVariants under protocol 2026-12-01/,
    );
    assert.match(errors.find((e) => e.tool === "no_assistant_content")!.message, /assistant-content-required/);
    const tools = (await host.tools()).map((t) => t.name);
    assert.ok(tools.includes("good") && !tools.includes("no_variants"));
    const out = await host.call("no_variants", {});
    assert.equal(out.ok, false);
    if (!out.ok) assert.equal(out.error.rule, "rejected-tool");
  });
});

describe("independent validation of programmatic and App schemas", () => {
  test("each structured output is checked against its own variant's schema", async () => {
    const ok = await host.call(
      "good",
      {},
      {
        mode: "app",
        select: [
          { audience: "programmatic", format: "structured" },
          { audience: "io.modelcontextprotocol/ui", format: "structured" },
        ],
      },
    );
    assert.equal(ok.ok, true, ok.ok ? "" : ok.error.message);
    // Swapped payloads: each is valid under the OTHER schema, so it must fail under its own.
    const msg = await rejected(
      "good",
      "schema-violation",
      {
        mode: "app",
        select: [
          { audience: "programmatic", format: "structured" },
          { audience: "io.modelcontextprotocol/ui", format: "structured" },
        ],
      },
      { swap: true },
    );
    assert.match(msg!, /programmatic\/structured|io\.modelcontextprotocol\/ui\/structured/);
  });
  test("an App output valid only under the programmatic schema is rejected", async () => {
    const msg = await rejected(
      "good",
      "schema-violation",
      {
        mode: "app",
        select: [
          { audience: "assistant", format: "content" },
          { audience: "io.modelcontextprotocol/ui", format: "structured" },
        ],
      },
      { swap: true },
    );
    assert.match(msg!, /io\.modelcontextprotocol\/ui\/structured: value must have required property 'rows'/);
  });
});

describe("routing on the fixture", () => {
  test("result _meta: only the negotiated, requested extension's entry reaches appMeta; nothing else anywhere", async () => {
    const out = await host.call("good", {}, { mode: "app" });
    assert.ok(out.ok);
    if (!out.ok) return;
    assert.deepEqual(out.plan.requested, [
      { audience: "assistant", format: "content" },
      { audience: "io.modelcontextprotocol/ui", format: "structured" },
    ]);
    assert.deepEqual(out.routed.appMeta, { "io.modelcontextprotocol/ui": { viewToken: "v1" } });
    assert.ok(!JSON.stringify(out.routed).includes("SECRET-META"));
    assert.equal(out.routed.app.length, 1);
    assert.equal(out.routed.model.length, 1);
  });
  test("chat mode: no appMeta even though the server sent it", async () => {
    const out = await host.call("good", {});
    assert.ok(out.ok);
    if (!out.ok) return;
    assert.deepEqual(out.routed.appMeta, {});
    assert.equal(out.routed.app.length, 0);
    assert.ok(!JSON.stringify(out.routed).includes("viewToken"));
  });
  test("isError routes per audience with no substitution", async () => {
    const out = await host.call("error_tool", {});
    assert.ok(out.ok);
    if (!out.ok) return;
    assert.equal(out.isError, true);
    assert.equal((out.routed.model[0] as any).content[0].text, "order not found");
    assert.equal((out.routed.user[0] as any).content[0].text, "We could not find that order.");
  });
  test("code mode: the model gets a host receipt naming size and schema title, never the data", async () => {
    const out = await host.call("good", {}, { mode: "code" });
    assert.ok(out.ok);
    if (!out.ok) return;
    assert.equal(out.routed.model.length, 0);
    assert.equal(out.routed.programmatic.length, 1);
    assert.match(
      out.receipt!.text,
      /programmatic\/structured \d+ B \(CustomerPage\) went to program logic, not to you/,
    );
    assert.ok(!out.receipt!.text.includes("c1"));
  });
});
