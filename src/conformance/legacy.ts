// Legacy projection: under 2026-07-28 (modern envelope, legacy shapes) and under 2025-11-25
// (initialize handshake on a fresh connection) the server lists legacy Tools and returns
// content + optional structuredContent, whatever requestedOutputs says. One check per era.
import { SchemaCompileError, checkAgainstSchema, isCoreAudience } from "../protocol/index.js";
import { defineCheck, STATEFUL, summarize, type Check, type Level, type Verdict } from "./check.js";
import { describeFailure, type CheckContext, type Exchange, type LegacyEra, type ListedTool } from "./context.js";
import { contentProblem, deepEqual, key, mirrors, outputsOf, resultOf, short } from "./inspect.js";
import { isObject } from "./wire.js";

export const LEGACY_ERAS: LegacyEra[] = ["2026-07-28", "2025-11-25"];

interface LegacyObservation {
  tool: ListedTool;
  legacyTool: Record<string, unknown> | undefined;
  exchange: Exchange;
}

function legacyCall(
  ctx: CheckContext,
  era: LegacyEra,
  tool: ListedTool,
  extra: Record<string, unknown> = {},
): Promise<Exchange> {
  return ctx.legacyRequest(era, "tools/call", { name: tool.name, arguments: ctx.argsFor(tool), ...extra }, tool);
}

/** Each tool that succeeds under 2026-12-01, called under the legacy era. */
async function observations(
  ctx: CheckContext,
  era: LegacyEra,
): Promise<{ obs: LegacyObservation[]; skipped: string[] }> {
  await ctx.requireEra(era);
  const legacyTools = await ctx.legacyTools(era);
  // A server without 2026-12-01 has no catalog: its own legacy listing is called instead.
  const { tools, skipped } = (await ctx.offer()).variants ? await ctx.successfulTools() : await ctx.legacyCallable(era);
  const obs: LegacyObservation[] = [];
  for (const t of tools)
    obs.push({ tool: t, legacyTool: legacyTools.get(t.name), exchange: await legacyCall(ctx, era, t) });
  return { obs, skipped };
}

type EraRun = (ctx: CheckContext, era: LegacyEra, label: (p: string) => string) => Promise<Verdict>;

function perEra(name: string, level: Level, run: EraRun): Check[] {
  return LEGACY_ERAS.map((era) =>
    defineCheck(`sep-3279-legacy-${name}-at-${era}`, level, (ctx) =>
      run(ctx, era, (p) => `${level === "SHOULD" ? "(SHOULD) " : ""}${p}`),
    ),
  );
}

const schemaOf = (t: ListedTool, audience: string, format: string) =>
  t.variants.find((v) => v.audience === audience && v.format === format)?.schema;

export const legacyToolShape = perEra("tool-shape", "MUST", async (ctx, era, label) => {
  await ctx.requireEra(era);
  const tools = await ctx.legacyTools(era);
  const problems: string[] = [];
  for (const [name, t] of tools) {
    if ("outputVariants" in t) problems.push(label(`${name} lists outputVariants under ${era}`));
    if ("outputSchema" in t && !isObject(t.outputSchema))
      problems.push(label(`${name} outputSchema is not an object (${short(t.outputSchema)})`));
    if (!isObject(t.inputSchema)) problems.push(label(`${name} has no inputSchema object`));
  }
  return summarize({ problems, checked: tools.size, what: `tools in the legacy Tool shape under ${era}` });
});

export const legacyNoForeignSchema = perEra("no-foreign-output-schema", "MUST", async (ctx, era, label) => {
  await ctx.requireEra(era);
  const tools = await ctx.legacyTools(era);
  const problems: string[] = [];
  let checked = 0;
  for (const t of await ctx.catalog()) {
    const legacy = tools.get(t.name);
    if (!legacy || !isObject(legacy.outputSchema)) continue;
    checked++;
    if (deepEqual(legacy.outputSchema, schemaOf(t, "assistant", "structured"))) continue;
    const foreign = t.variants.find(
      (v) =>
        v.format === "structured" &&
        !(v.audience === "assistant") &&
        v.schema !== undefined &&
        deepEqual(v.schema, legacy.outputSchema),
    );
    if (foreign)
      problems.push(
        label(
          `${t.name} outputSchema under ${era} is the ${key(foreign)} schema (only assistant/structured maps to outputSchema)`,
        ),
      );
  }
  return summarize({
    problems,
    checked,
    what: `legacy outputSchemas not taken from user, programmatic or extension variants`,
  });
});

export const legacySchemaFromAssistant = perEra("output-schema-from-assistant", "SHOULD", async (ctx, era, label) => {
  await ctx.requireEra(era);
  const tools = await ctx.legacyTools(era);
  const problems: string[] = [];
  let checked = 0;
  for (const t of await ctx.catalog()) {
    if (!isObject(schemaOf(t, "assistant", "structured"))) continue;
    checked++;
    if (!isObject(tools.get(t.name)?.outputSchema))
      problems.push(label(`${t.name} declares an assistant/structured schema but lists no outputSchema under ${era}`));
  }
  return summarize({ problems, checked, what: `tools with assistant/structured expose an outputSchema` });
});

export const legacyResultShape = perEra("result-shape", "MUST", async (ctx, era, label) => {
  const { obs, skipped } = await observations(ctx, era);
  const problems: string[] = [];
  for (const o of obs) {
    const r = resultOf(o.exchange);
    if (!r) {
      problems.push(label(`${o.tool.name} under ${era}: ${describeFailure(o.exchange)}`));
      continue;
    }
    if ("outputs" in r) problems.push(label(`${o.tool.name} under ${era}: result carries outputs`));
    const bad = contentProblem(r.content);
    if (bad) problems.push(label(`${o.tool.name} under ${era}: ${bad}`));
    if (era === "2026-07-28" && r.resultType !== "complete")
      problems.push(
        label(
          `${o.tool.name} under ${era}: resultType is ${short(r.resultType)}, expected "complete" (modern envelope)`,
        ),
      );
  }
  return summarize({ problems, checked: obs.length, what: `results in the legacy shape under ${era}`, skipped });
});

export const legacyContentFromAssistant = perEra(
  "content-from-assistant-content",
  "SHOULD",
  async (ctx, era, label) => {
    const { obs, skipped } = await observations(ctx, era);
    const problems: string[] = [];
    let checked = 0;
    for (const o of obs) {
      const r = resultOf(o.exchange);
      const modern = outputsOf((await ctx.probe(o.tool)).exchange)?.find((x) => key(x) === "assistant/content");
      if (!r || r.isError === true || !modern || !Array.isArray(r.content) || !Array.isArray(modern.content)) continue;
      const expected = modern.content as unknown[];
      const prefix = (r.content as unknown[]).slice(0, expected.length);
      const agree = deepEqual(prefix, expected);
      // A tool that may write (e.g. a toggle) need not answer two calls alike: its disagreement proves nothing.
      if (!agree && !ctx.readOnlyTool(o.tool.name)) {
        skipped.push(`${o.tool.name}${STATEFUL}`);
        continue;
      }
      checked++;
      if (!agree)
        problems.push(
          label(
            `${o.tool.name} under ${era}: content ${short(r.content)} is not the assistant/content ${short(expected)}`,
          ),
        );
    }
    return summarize({ problems, checked, what: `legacy contents built from assistant/content`, skipped });
  },
);

export const legacyStructuredConforms = perEra("structured-conforms", "MUST", async (ctx, era, label) => {
  const { obs, skipped } = await observations(ctx, era);
  const problems: string[] = [];
  let checked = 0;
  for (const o of obs) {
    const r = resultOf(o.exchange);
    const schema = o.legacyTool?.outputSchema;
    if (!r || r.isError === true || !isObject(schema) || !("structuredContent" in r)) continue;
    checked++;
    try {
      const why = checkAgainstSchema(structuredClone(schema), r.structuredContent);
      if (why)
        problems.push(label(`${o.tool.name} under ${era}: structuredContent does not match outputSchema: ${why}`));
    } catch (e) {
      if (!(e instanceof SchemaCompileError)) throw e;
      problems.push(label(`${o.tool.name} under ${era}: outputSchema does not compile: ${e.message}`));
    }
  }
  return summarize({ problems, checked, what: `legacy structuredContent values valid against outputSchema`, skipped });
});

export const legacyIgnoresRequested = perEra("ignores-requested-outputs", "MUST", async (ctx, era, label) => {
  await ctx.requireEra(era);
  const { tools, skipped } = await ctx.successfulTools();
  const problems: string[] = [];
  for (const t of tools) {
    const sel = t.variants.find((v) => key(v) !== "assistant/content" && isCoreAudience(v.audience)) ?? {
      audience: "programmatic",
      format: "structured",
    };
    const requestedOutputs = [{ audience: sel.audience, format: sel.format }];
    const x = await legacyCall(ctx, era, t, { requestedOutputs });
    const r = resultOf(x);
    const what = `${t.name} under ${era} with requestedOutputs [${key(sel)}]`;
    if (!r) problems.push(label(`${what}: ${describeFailure(x)} (the version, not the field, determines the shape)`));
    else if ("outputs" in r || !Array.isArray(r.content))
      problems.push(label(`${what}: not a legacy result (${"outputs" in r ? "carries outputs" : "no content array"})`));
  }
  return summarize({ problems, checked: tools.length, what: `legacy calls ignored requestedOutputs`, skipped });
});

export const legacyRetainsMirroring = perEra("retains-mirroring", "SHOULD", async (ctx, era, label) => {
  const { obs, skipped } = await observations(ctx, era);
  const problems: string[] = [];
  let checked = 0;
  for (const o of obs) {
    const r = resultOf(o.exchange);
    if (!r || r.isError === true || !("structuredContent" in r)) continue;
    checked++;
    if (!mirrors(r.content, r.structuredContent))
      problems.push(label(`${o.tool.name} under ${era}: structuredContent is not also serialized in a text block`));
  }
  return summarize({ problems, checked, what: `legacy structuredContent values mirrored into a text block`, skipped });
});

export const legacyChecks: Check[] = [
  ...legacyToolShape,
  ...legacyNoForeignSchema,
  ...legacySchemaFromAssistant,
  ...legacyResultShape,
  ...legacyContentFromAssistant,
  ...legacyStructuredConforms,
  ...legacyIgnoresRequested,
  ...legacyRetainsMirroring,
];
