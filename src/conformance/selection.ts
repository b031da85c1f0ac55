// Exact selection: each declared variant requested alone and all of them together →
// exactly one output per selector, nothing unrequested, each output shaped as its format.
import { isCoreAudience } from "../protocol/index.js";
import { defineCheck, summarize, type Check } from "./check.js";
import type { CallSpec, CheckContext, Exchange } from "./context.js";
import { contentProblem, key, noResult, outputsOf, resultOf, short, subject } from "./inspect.js";
import { isObject } from "./wire.js";

export interface SelectionCall {
  spec: CallSpec;
  exchange: Exchange;
}

/** Every selection call on every tool that succeeds on its arguments (memoized by the context). */
export async function selectionCalls(ctx: CheckContext): Promise<{ calls: SelectionCall[]; skipped: string[] }> {
  const { tools, skipped } = await ctx.successfulTools();
  const calls: SelectionCall[] = [];
  for (const t of tools) {
    for (const spec of await ctx.selectionsFor(t)) calls.push({ spec, exchange: await ctx.call(spec, t) });
  }
  return { calls, skipped };
}

/** Runs a rule over the successful results of the selection calls. */
function overSelections(
  id: string,
  what: string,
  rule: (c: SelectionCall, outputs: Record<string, unknown>[]) => string[],
  options: { includeRefused?: boolean } = {},
): Check {
  return defineCheck(id, "MUST", async (ctx) => {
    const { calls, skipped } = await selectionCalls(ctx);
    const problems: string[] = [];
    let checked = 0;
    for (const c of calls) {
      const label = subject(c.spec.tool, c.spec.requested);
      const why = noResult(c.exchange);
      if (why) {
        if (options.includeRefused !== false) problems.push(`${label}: ${why}`);
        continue;
      }
      if (resultOf(c.exchange)?.isError === true) continue; // the MUSTs below are for successful calls
      const outputs = outputsOf(c.exchange);
      if (!outputs) {
        problems.push(`${label}: result has no outputs array`);
        continue;
      }
      checked++;
      for (const p of rule(c, outputs)) problems.push(`${label}: ${p}`);
    }
    return summarize({ problems, checked, what, skipped });
  });
}

export const oneOutputPerSelector = overSelections(
  "sep-3279-result-one-output-per-selector",
  "selections answered with one output per selector",
  (c, outputs) =>
    (c.spec.requested ?? []).flatMap((sel) => {
      const n = outputs.filter((o) => key(o) === key(sel)).length;
      return n === 1
        ? []
        : [
            `${n === 0 ? "no" : n} ${key(sel)} output${n === 0 ? "" : "s"} (expected exactly one; got ${outputs.map(key).join(", ") || "none"})`,
          ];
    }),
);

export const noUnrequestedOutput = overSelections(
  "sep-3279-result-no-unrequested-output",
  "selections answered without unrequested outputs",
  (c, outputs) => {
    const wanted = new Set((c.spec.requested ?? []).map(key));
    return outputs.filter((o) => !wanted.has(key(o))).map((o) => `unrequested output ${key(o)}`);
  },
  { includeRefused: false },
);

export const outputMatchesSelector = overSelections(
  "sep-3279-result-selector-match",
  "selections answered with outputs shaped as their selectors",
  (_c, outputs) =>
    outputs.flatMap((o) => {
      if (typeof o.audience !== "string" || (o.format !== "content" && o.format !== "structured"))
        return [`output ${short(o)} lacks a string audience and a format of content or structured`];
      if (o.format === "content") {
        if ("structuredContent" in o) return [`${key(o)} output carries structuredContent`];
        const bad = contentProblem(o.content);
        return bad ? [`${key(o)} output: ${bad}`] : [];
      }
      if (!("structuredContent" in o)) return [`${key(o)} output has no structuredContent`];
      return "content" in o ? [`${key(o)} output carries content`] : [];
    }),
  { includeRefused: false },
);

/** Output audiences are core or an extension negotiated on that very request. */
export const outputAudienceValid = defineCheck("sep-3279-output-audience-valid", "MUST", async (ctx) => {
  const { calls, skipped } = await selectionCalls(ctx);
  const { tools } = await ctx.successfulTools();
  const probes = await Promise.all(
    tools.map(async (t) => ({
      spec: { tool: t.name, args: ctx.argsFor(t) } as CallSpec,
      exchange: (await ctx.probe(t)).exchange,
    })),
  );
  const serverExt = new Set(await ctx.serverExtensions());
  const problems: string[] = [];
  let checked = 0;
  for (const c of [...probes, ...calls]) {
    const outputs = outputsOf(c.exchange);
    if (!outputs) continue;
    checked++;
    const negotiated = new Set((c.spec.extensions ?? []).filter((e) => serverExt.has(e)));
    for (const o of outputs) {
      if (!isObject(o) || typeof o.audience !== "string") continue;
      if (!isCoreAudience(o.audience) && !negotiated.has(o.audience)) {
        problems.push(
          `${subject(c.spec.tool, c.spec.requested)}: output audience ${short(o.audience)} is neither core nor negotiated on this request (negotiated: ${negotiated.size ? [...negotiated].join(", ") : "none"})`,
        );
      }
    }
  }
  return summarize({ problems, checked, what: "results with core or negotiated audiences only", skipped });
});

export const selectionChecks: Check[] = [
  oneOutputPerSelector,
  noUnrequestedOutput,
  outputMatchesSelector,
  outputAudienceValid,
];
