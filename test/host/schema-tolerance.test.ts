// A schema the host cannot use never takes a tool away, and a tool it cannot run is never
// offered: against the real schema-edge fixture server (stdio, behind its own wire log).
//   2026-12-01: a variant whose schema does not compile is declined (never requested, in any
//   mode; an explicit --select of it is refused before sending); the result stays atomic.
//   legacy (2025-11-25 and 2026-07-28): an outputSchema that does not compile → warning, structuredContent unvalidated; a
//   structuredContent that breaks its outputSchema → dropped with a warning, content routed,
//   result _meta kept for the record. execution.taskSupport "required" → task-required.
import { readAs } from "../../src/compare/profiles/index.js";
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { offeredToModel } from "../../src/host/catalog/app-only.js";
import { Host } from "../../src/host/host.js";
import { settleSchemas } from "../../src/host/catalog/tools.js";
import type { CallOutcome, Mode } from "../../src/host/types.js";
import { outcomeRecord } from "../../src/host/transcript/record.js";
import { config, tempDir, wireLines } from "../helpers/host-fixtures.js";
import { schemaEdge } from "../helpers/schema-edge.js";
import { RESULT_META, TASK_INPUT, UNCOMPILABLE } from "../fixtures/schema-edge-data.js";

function ok(o: CallOutcome) {
  assert.ok(o.ok, o.ok ? "" : `${o.error.rule}: ${o.error.message}`);
  return o as Extract<CallOutcome, { ok: true }>;
}
const calls = (log: string, tool: string) =>
  wireLines(log).filter((l) => l.method === "tools/call" && l.params?.name === tool);

describe("2026-12-01: declined variants and task-only tools", () => {
  const log = join(tempDir(), "wire.log");
  let host: Host;
  before(async () => {
    host = await Host.start({ config: config({ edge: schemaEdge("modern", log) }) });
  });
  after(() => host.close());

  test("a variant whose schema does not compile is declined with its rule; the tool stays listed and usable", async () => {
    assert.deepEqual(await host.toolErrors(), []);
    const t = settleSchemas((await host.tools()).find((x) => x.name === "declined_variant")!);
    assert.deepEqual(
      t.variants.map((v) => `${v.audience}/${v.format}`),
      ["assistant/content", "user/structured"],
    );
    assert.equal(t.declined?.length, 1);
    const d = t.declined![0];
    assert.deepEqual([d.audience, d.format, d.rule], ["programmatic", "structured", "uncompilable-variant-schema"]);
    assert.deepEqual((d as { schema?: unknown }).schema, UNCOMPILABLE);
    assert.match(d.detail, /^schema does not compile: .*; not requested$/);
  });

  for (const [mode, sent] of [
    ["code", ["assistant/content"]],
    ["chat", ["assistant/content", "user/structured"]],
    ["structured", ["assistant/content", "user/structured"]],
  ] as [Mode, string[]][]) {
    test(`${mode} mode never requests the declined variant (requestedOutputs on the wire: ${sent.join(", ")})`, async () => {
      const before = calls(log, "declined_variant").length;
      const o = ok(await host.call("declined_variant", {}, { mode }));
      const wire = calls(log, "declined_variant").slice(before);
      assert.equal(wire.length, 1);
      assert.deepEqual(
        wire[0].params.requestedOutputs.map((s: any) => `${s.audience}/${s.format}`),
        sent,
      );
      assert.equal(o.routed.programmatic.length, 0);
      assert.equal(o.routed.model.length, 1);
    });
  }

  test("an explicit selection of the declined variant is refused before anything is sent", async () => {
    const before = calls(log, "declined_variant").length;
    const o = await host.call(
      "declined_variant",
      {},
      {
        select: [
          { audience: "assistant", format: "content" },
          { audience: "programmatic", format: "structured" },
        ],
      },
    );
    assert.ok(!o.ok);
    assert.equal(o.error.rule, "declined-variant");
    assert.match(
      o.error.message,
      /^server edge, tool declined_variant: programmatic\/structured is declined: schema does not compile: .* \[uncompilable-variant-schema\]$/,
    );
    assert.equal(calls(log, "declined_variant").length, before, "nothing sent");
  });

  test("a tool with execution.taskSupport required: listed, not offered to the model in any mode, its call refused unsent", async () => {
    const t = (await host.tools()).find((x) => x.name === "task_only")!;
    assert.equal(t.unavailable?.rule, "task-required");
    for (const mode of ["chat", "code", "app"] as Mode[]) {
      const inMode = await host.tools(mode);
      assert.ok(
        inMode.some((x) => x.name === "task_only" && x.unavailable),
        `${mode}: listed as unavailable`,
      );
      assert.ok(
        !inMode.filter(offeredToModel).some((x) => x.name === "task_only"),
        `${mode}: not offered to the model`,
      );
    }
    assert.ok(!host.modelTools().some((x) => x.name === "task_only"));
    const o = await host.call("task_only", { topic: "x" });
    assert.ok(!o.ok);
    assert.equal(o.error.rule, "task-required");
    assert.equal(calls(log, "task_only").length, 0, "nothing sent");
  });
});

for (const [label, era, protocol] of [
  ["2025-11-25 (initialize)", "legacy", undefined],
  ["2026-07-28 (modern, legacy shapes)", "modern", "2026-07-28"],
] as const)
  describe(`${label}: outputSchemas that do not compile or are broken`, () => {
    const log = join(tempDir(), "wire.log");
    let host: Host;
    before(async () => {
      host = await Host.start({ config: config({ edge: schemaEdge(era, log) }), protocol });
    });
    after(() => host.close());

    test("the era is the one under test", () => {
      assert.equal(host.servers()[0].protocolVersion, protocol ?? "2025-11-25");
    });

    test("an outputSchema that does not compile: the tool is usable, with a warning record naming server, tool and rule", async () => {
      assert.deepEqual(await host.toolErrors(), []);
      const t = settleSchemas((await host.tools()).find((x) => x.name === "bad_output_schema")!);
      assert.equal(t.warnings?.length, 1);
      const w = t.warnings![0];
      assert.deepEqual([w.server, w.tool, w.rule], ["edge", "bad_output_schema", "uncompilable-output-schema"]);
      assert.match(w.detail, /^outputSchema does not compile: .*; structuredContent is passed on unvalidated$/);
      assert.ok(host.modelTools().some((x) => x.name === "bad_output_schema"));
      const o = ok(await host.call("bad_output_schema", {}));
      assert.deepEqual(
        o.routed.programmatic.map((e) => e.structuredContent),
        [{ n: 1 }],
        "unvalidated, not dropped",
      );
      assert.deepEqual(
        o.warnings?.map((x) => x.rule),
        ["uncompilable-output-schema"],
      );
    });

    test("a structuredContent that breaks its outputSchema: content to the model, structured dropped, the reason kept; _meta kept in no sink", async () => {
      const o = ok(await host.call("breaks_schema", {}));
      assert.deepEqual(
        o.routed.model.flatMap((e) => (e.format === "content" ? e.content : [])),
        [{ type: "text", text: "n is seven" }],
      );
      assert.equal(o.routed.programmatic.length, 0);
      assert.deepEqual(o.routed.appMeta, {}, "result _meta reaches no sink");
      assert.deepEqual(o.warnings, [
        {
          server: "edge",
          tool: "breaks_schema",
          rule: "schema-violation",
          detail: "structuredContent dropped: /n must be number (outputSchema); the content is routed",
        },
      ]);
      assert.deepEqual(o.resultMeta, RESULT_META);
      // Kept in the outcome's JSON (call --json is built from it) and in the transcript record.
      const json = JSON.parse(JSON.stringify(o));
      assert.deepEqual([json.warnings, json.resultMeta], [o.warnings, RESULT_META]);
      const record = outcomeRecord(o);
      assert.deepEqual([record.warnings, record.resultMeta], [o.warnings, RESULT_META]);
    });

    test("every legacy profile reads the result without the dropped part, each with the warning", async () => {
      const called = await host.call("breaks_schema", {});
      for (const p of ["sep", "structured-replaces-content", "both"] as const) {
        const o = readAs(p, called);
        const s = ok(o!);
        assert.equal(s.warnings?.[0].rule, "schema-violation", p);
        assert.ok(!JSON.stringify(s.routed).includes('"seven"'), `${p}: the dropped structuredContent is nowhere`);
      }
    });

    test("execution.taskSupport required under the legacy era too: task-required, nothing sent", async () => {
      const t = (await host.tools()).find((x) => x.name === "task_only")!;
      assert.deepEqual(t.inputSchema, TASK_INPUT, "the inputSchema as sent, vendor keys included");
      const o = await host.call("task_only", { topic: "x" });
      assert.ok(!o.ok && o.error.rule === "task-required");
      assert.equal(calls(log, "task_only").length, 0);
    });
  });
