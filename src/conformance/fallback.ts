// The fixed fallback: no requestedOutputs → exactly one assistant/content output, with or
// without extensions advertised; and that output is a usable model representation.
import { defineCheck, summarize, type Check } from "./check.js";
import { contentProblem, key, noResult, outputsOf, short, subject } from "./inspect.js";
import { isObject } from "./wire.js";

export const fallbackAssistantContent = defineCheck("sep-3279-fallback-assistant-content", "MUST", async (ctx) => {
  const { tools, skipped } = await ctx.successfulTools();
  const ext = await ctx.serverExtensions();
  const problems: string[] = [];
  let checked = 0;
  for (const t of tools) {
    const calls = [(await ctx.probe(t)).exchange];
    if (ext.length > 0) calls.push(await ctx.call({ tool: t.name, args: ctx.argsFor(t), extensions: ext }, t));
    for (const x of calls) {
      checked++;
      const label = x === calls[0] ? subject(t.name) : `${subject(t.name)} with ${ext.join(", ")} advertised`;
      const why = noResult(x);
      if (why) {
        problems.push(`${label}: ${why}`);
        continue;
      }
      const outputs = outputsOf(x);
      if (!outputs) problems.push(`${label}: result has no outputs array`);
      else if (outputs.length !== 1 || key(outputs[0]) !== "assistant/content")
        problems.push(`${label}: got [${outputs.map(key).join(", ")}], expected exactly assistant/content`);
    }
  }
  return summarize({ problems, checked, what: "fallback calls returned exactly assistant/content", skipped });
});

/** Heuristic: a usable representation has at least one block with substance (non-blank text, media or a resource). */
export const assistantContentUsable = defineCheck("sep-3279-assistant-content-usable", "MUST", async (ctx) => {
  const { tools, skipped } = await ctx.successfulTools();
  const problems: string[] = [];
  for (const t of tools) {
    const out = outputsOf((await ctx.probe(t)).exchange)?.find((o) => key(o) === "assistant/content");
    if (!out) continue; // reported by sep-3279-fallback-assistant-content
    const bad = contentProblem(out.content);
    if (bad) {
      problems.push(`${t.name}: assistant/content ${bad}`);
      continue;
    }
    const blocks = (out.content as unknown[]).filter(isObject);
    const substantial = blocks.some((b) =>
      b.type === "text" ? typeof b.text === "string" && b.text.trim() !== "" : true,
    );
    if (!substantial) problems.push(`${t.name}: assistant/content is empty or blank (${short(out.content)})`);
  }
  return summarize({
    problems,
    checked: tools.length,
    what: "assistant/content outputs carry content (heuristic: non-empty, not blank)",
    skipped,
  });
});

export const fallbackChecks: Check[] = [fallbackAssistantContent, assistantContentUsable];
