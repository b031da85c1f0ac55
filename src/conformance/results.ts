// What successful outputs contain: structured payloads conform to their variant's schema, no
// content mirror of a structured output, variants not mechanically encoded from one another.
// Proposed: result `_meta` in an extension's namespace only when that extension was negotiated.
import { SchemaCompileError, checkAgainstSchema } from "../protocol/index.js";
import { defineCheck, summarize, type Check } from "./check.js";
import { key, mirrors, outputsOf, resultOf, short, subject } from "./inspect.js";
import { selectionCalls } from "./selection.js";
import { isObject } from "./wire.js";

export const structuredOutputConforms = defineCheck("sep-3279-structured-output-conforms", "MUST", async (ctx) => {
  const { calls, skipped } = await selectionCalls(ctx);
  const catalog = new Map((await ctx.catalog()).map((t) => [t.name, t]));
  const problems: string[] = [];
  let checked = 0;
  for (const c of calls) {
    const r = resultOf(c.exchange);
    if (!r || r.isError === true) continue; // error outputs need not match the success schema
    for (const o of outputsOf(c.exchange) ?? []) {
      if (o.format !== "structured" || !("structuredContent" in o)) continue;
      const schema = catalog.get(c.spec.tool)?.variants.find((v) => key(v) === key(o))?.schema;
      if (!isObject(schema)) continue;
      checked++;
      let why: string | undefined;
      try {
        why = checkAgainstSchema(structuredClone(schema), o.structuredContent);
      } catch (e) {
        if (e instanceof SchemaCompileError) continue; // reported by sep-3279-variant-schemas-compile
        throw e;
      }
      if (why)
        problems.push(
          `${subject(c.spec.tool, c.spec.requested)}: ${key(o)} output does not match its variant schema: ${why}`,
        );
    }
  }
  return summarize({
    problems: [...new Set(problems)],
    checked,
    what: "structured outputs valid against their variant schemas",
    skipped,
  });
});

export const noMirroring = defineCheck("sep-3279-no-mirroring", "MUST", async (ctx) => {
  const { calls, skipped } = await selectionCalls(ctx);
  const structuredOnly = calls.filter((c) => c.spec.requested?.every((s) => s.format === "structured"));
  const problems: string[] = [];
  let checked = 0;
  for (const c of structuredOnly) {
    const outputs = outputsOf(c.exchange);
    if (!outputs || resultOf(c.exchange)?.isError === true) continue;
    checked++;
    const content = outputs.filter((o) => o.format === "content");
    if (content.length > 0)
      problems.push(
        `${subject(c.spec.tool, c.spec.requested)}: got ${content.map(key).join(", ")} for a structured-only request`,
      );
  }
  return summarize({ problems, checked, what: "structured-only requests answered without content outputs", skipped });
});

/** SHOULD: a content output that is just the JSON of a structured output of the same call is a mechanical encoding. */
export const variantsTailored = defineCheck("sep-3279-variants-tailored", "SHOULD", async (ctx) => {
  const { calls, skipped } = await selectionCalls(ctx);
  const problems: string[] = [];
  let checked = 0;
  for (const c of calls) {
    const outputs = outputsOf(c.exchange);
    if (!outputs || outputs.length < 2) continue;
    checked++;
    for (const content of outputs.filter((o) => o.format === "content")) {
      for (const s of outputs.filter((o) => o.format === "structured" && "structuredContent" in o)) {
        if (mirrors(content.content, s.structuredContent))
          problems.push(`(SHOULD) ${c.spec.tool}: ${key(content)} is the serialized JSON of ${key(s)}`);
      }
    }
  }
  return summarize({
    problems: [...new Set(problems)],
    checked,
    what: "multi-output results with audience-tailored content",
    skipped,
  });
});

/** Result `_meta` entries in an advertised extension's namespace appear only on requests that negotiated it. */
export const resultMetaNegotiated = defineCheck(
  "sep-3279-proposed-result-meta-extension-negotiated",
  "MUST",
  async (ctx) => {
    const serverExt = await ctx.serverExtensions();
    const { calls, skipped } = await selectionCalls(ctx);
    const { tools } = await ctx.successfulTools();
    const all = [...calls];
    for (const t of tools)
      all.push({ spec: { tool: t.name, args: ctx.argsFor(t) }, exchange: (await ctx.probe(t)).exchange });
    const problems: string[] = [];
    let checked = 0;
    for (const c of all) {
      const r = resultOf(c.exchange);
      if (!r) continue;
      checked++;
      if (r._meta === undefined) continue;
      if (!isObject(r._meta)) {
        problems.push(`${subject(c.spec.tool, c.spec.requested)}: result _meta is not an object (${short(r._meta)})`);
        continue;
      }
      const negotiated = new Set(c.spec.extensions ?? []);
      for (const k of Object.keys(r._meta)) {
        const ext = serverExt.find((e) => k === e || k.startsWith(`${e}/`));
        if (ext && !negotiated.has(ext))
          problems.push(
            `${subject(c.spec.tool, c.spec.requested)}: result _meta has ${short(k)} although ${ext} was not negotiated on this request`,
          );
      }
    }
    return summarize({ problems, checked, what: "results with extension _meta only when negotiated", skipped });
  },
  { proposed: true },
);

export const resultChecks: Check[] = [structuredOutputConforms, noMirroring, variantsTailored];
export const proposedResultChecks: Check[] = [resultMetaNegotiated];
