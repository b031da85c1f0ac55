// Legacy-shape results (2026-07-28 and initialize era): no requestedOutputs on the wire, the
// legacy tool projection, and every legacy client profile (src/compare/profiles) applied to the
// SAME wire result, which the host hands on validated (CallSuccess.legacyResult).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { Host } from "../../src/host/host.js";
import { LEGACY_PROFILES, type LegacyProfile } from "../../src/host/types.js";
import { readAs } from "../../src/compare/profiles/index.js";
import { config, fixtureServer, tempDir, wireLines } from "../helpers/host-fixtures.js";

const texts = (entries: readonly any[]) =>
  entries.flatMap((o) =>
    o.format === "content" ? o.content.map((b: any) => b.text) : [JSON.stringify(o.structuredContent)],
  );

for (const { label, era, protocol } of [
  { label: "2026-07-28", era: "modern", protocol: "2026-07-28" },
  { label: "initialize era", era: "legacy", protocol: undefined },
]) {
  describe(`legacy shapes under ${label}`, () => {
    let host: Host;
    let log: string;
    before(async () => {
      log = join(tempDir(), "wire.log");
      host = await Host.start({ config: config({ fx: fixtureServer(era, { WIRE_LOG: log }) }), protocol });
    });
    after(() => host.close());

    test("tools are inferred as assistant/content with the legacy outputSchema kept apart", async () => {
      const good = (await host.tools()).find((t) => t.name === "good")!;
      assert.deepEqual(good.variants, [{ audience: "assistant", format: "content" }]);
      assert.equal((good.legacyOutputSchema as any).title, "CustomerPage");
      assert.equal((await host.toolErrors()).length, 0, "no 2026-12-01 declaration rules under a legacy era");
    });

    test("no requestedOutputs is ever sent, in any mode", async () => {
      for (const mode of ["chat", "structured", "code", "app", "minimal"] as const) {
        const out = await host.call("good", {}, { mode });
        assert.ok(out.ok, out.ok ? "" : out.error.message);
      }
      const calls = wireLines(log).filter((l) => l.method === "tools/call");
      assert.equal(calls.length, 5);
      for (const c of calls) assert.equal("requestedOutputs" in c.params, false);
    });

    test("an explicit selection is refused locally and nothing is sent", async () => {
      const before = wireLines(log).filter((l) => l.method === "tools/call").length;
      const out = await host.call("good", {}, { select: [{ audience: "assistant", format: "content" }] });
      assert.equal(out.ok, false);
      if (!out.ok) assert.equal(out.error.rule, "selection-unsupported");
      assert.equal(wireLines(log).filter((l) => l.method === "tools/call").length, before);
    });

    test("each client profile reads the same wire result its own way", async () => {
      const before = wireLines(log).filter((l) => l.method === "tools/call").length;
      const called = await host.call("good", {});
      assert.equal(wireLines(log).filter((l) => l.method === "tools/call").length, before + 1, "one wire call");
      const r = (p: LegacyProfile) => {
        const o = readAs(p, called);
        assert.ok(o.ok);
        return o.ok ? o.routed : (undefined as never);
      };
      const all = ["SUMMARY for the model", "NOTE for the user", "PLAIN block"];
      const json = JSON.stringify({ items: [{ id: "c1" }] });
      // sep: content → model, structuredContent → program logic, never both to the model.
      assert.deepEqual(texts(r("sep").model), all);
      assert.deepEqual(texts(r("sep").programmatic), [json]);
      // content-only (gemini-cli)
      assert.deepEqual(texts(r("content-only").model), all);
      assert.equal(r("content-only").programmatic.length, 0);
      // structured-replaces-content (Claude Code, Codex, opencode)
      assert.deepEqual(texts(r("structured-replaces-content").model), [json]);
      // both: content plus the JSON mirror
      assert.deepEqual(texts(r("both").model), [...all, json]);
      // annotation-audience (goose): user-only blocks to the user sink
      assert.deepEqual(texts(r("annotation-audience").model), ["SUMMARY for the model", "PLAIN block"]);
      assert.deepEqual(texts(r("annotation-audience").user), ["NOTE for the user"]);
      for (const p of LEGACY_PROFILES) assert.equal(r(p).app.length, 0);
    });

    test("a malformed legacy result is rejected whole", async () => {
      const out = await host.call("non_array_content", {});
      assert.equal(out.ok, false);
      if (!out.ok) assert.equal(out.error.rule, "malformed-content");
    });
  });
}
