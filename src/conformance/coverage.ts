// What the checks actually exercised: a server whose tools were not called has not passed.
import { selectorKey } from "../protocol/index.js";
import { CheckContext, LEGACY_CHECK_VERSION, dedupe, toListedTool, type ListedTool } from "./context.js";

export interface Coverage {
  /** Tools listed (2026-12-01 catalog, or the legacy listing when the server has none). */
  toolsListed: number;
  /** Tools with at least one answered tools/call (a result, isError included). */
  toolsCalled: number;
  /** Declared variants (2026-12-01), and those requested in an answered call. */
  variantsDeclared: number;
  variantsCalled: number;
  /** Listed tools never answered, with why. */
  notCalled: string[];
}

/** What was exercised, after the checks ran. */
export async function coverage(ctx: CheckContext): Promise<Coverage> {
  let listed: ListedTool[] = [];
  try {
    listed = (await ctx.offer()).variants
      ? await ctx.catalog()
      : [...(await ctx.legacyTools(LEGACY_CHECK_VERSION)).values()].map(toListedTool);
  } catch {
    // no listing at all: nothing was called, which the checks already report
  }
  const names = [...new Set(listed.map((t) => t.name))];
  let variantsDeclared = 0;
  let variantsCalled = 0;
  for (const t of listed) {
    const got = ctx.answeredSelectors(t.name);
    for (const v of dedupe(t.variants)) {
      variantsDeclared++;
      if (got?.has(selectorKey(v))) variantsCalled++;
    }
  }
  const notCalled = names
    .filter((n) => !ctx.answeredSelectors(n))
    .map((n) => (ctx.mayCall(n) ? `${n} (no call answered)` : CheckContext.notCalled(n)));
  return {
    toolsListed: names.length,
    toolsCalled: names.length - notCalled.length,
    variantsDeclared,
    variantsCalled,
    notCalled,
  };
}
