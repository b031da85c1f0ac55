// Tool execution errors (isError: true): outputs should match the requested selectors, and a
// server with no requested error representation should answer with a protocol error, not [].
import { defineCheck, summarize, type Check } from "./check.js";
import type { CheckContext } from "./context.js";
import { key, outputsOf, resultOf, subject } from "./inspect.js";
import type { SelectionCall } from "./selection.js";

/** The fallback call and each selection on every tool that fails on its arguments. */
async function errorCalls(ctx: CheckContext): Promise<SelectionCall[]> {
  const calls: SelectionCall[] = [];
  for (const t of await ctx.failingTools()) {
    calls.push({ spec: { tool: t.name, args: ctx.argsFor(t) }, exchange: (await ctx.probe(t)).exchange });
    for (const spec of await ctx.selectionsFor(t)) calls.push({ spec, exchange: await ctx.call(spec, t) });
  }
  return calls;
}

/** The calls among them whose result is a tool execution error (isError: true). */
const failed = (calls: SelectionCall[]) => calls.filter((c) => resultOf(c.exchange)?.isError === true);

const NO_FAILING = "no tool returned isError on its generated arguments";

export const errorOutputsMatch = defineCheck("sep-3279-error-outputs-match-selectors", "SHOULD", async (ctx) => {
  const calls = await errorCalls(ctx);
  const problems: string[] = [];
  let checked = 0;
  for (const c of failed(calls)) {
    const outputs = outputsOf(c.exchange) ?? [];
    if (outputs.length === 0) continue; // sep-3279-error-not-empty-outputs
    checked++;
    // "when it can produce a useful audience-specific error representation": a subset of the
    // requested selectors is fine; an output nobody requested, or one twice, is not.
    const wanted = new Set((c.spec.requested ?? [{ audience: "assistant", format: "content" as const }]).map(key));
    const got = outputs.map(key);
    const extra = got.filter((k) => !wanted.has(k));
    const twice = got.filter((k, i) => got.indexOf(k) !== i);
    if (extra.length > 0)
      problems.push(
        `(SHOULD) ${subject(c.spec.tool, c.spec.requested)}: isError result has unrequested ${extra.join(", ")}`,
      );
    if (twice.length > 0)
      problems.push(
        `(SHOULD) ${subject(c.spec.tool, c.spec.requested)}: isError result has ${twice.join(", ")} more than once`,
      );
  }
  return summarize({
    problems,
    checked,
    what: "error results with only requested outputs",
    skipped: calls.length === 0 ? [NO_FAILING] : [],
  });
});

export const errorNotEmpty = defineCheck("sep-3279-error-not-empty-outputs", "SHOULD", async (ctx) => {
  const calls = await errorCalls(ctx);
  const problems: string[] = [];
  for (const c of failed(calls)) {
    if ((outputsOf(c.exchange) ?? []).length === 0)
      problems.push(
        `(SHOULD) ${subject(c.spec.tool, c.spec.requested)}: isError result with an empty outputs array (a protocol-level error is expected instead)`,
      );
  }
  return summarize({
    problems,
    checked: failed(calls).length,
    what: "error results with at least one output",
    skipped: calls.length === 0 ? [NO_FAILING] : [],
  });
});

export const errorChecks: Check[] = [errorOutputsMatch, errorNotEmpty];
