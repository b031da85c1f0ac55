// Refusals: undeclared and unnegotiated selectors are invalid params (-32602), with no substitute
// output. Proposed (not in the SEP): a duplicate selector refused too, the message naming the selector.
import { ErrorCode, UI_EXTENSION, type ToolResultOutputSelector } from "../protocol/index.js";
import { defineCheck, fail, notTested, pass, type Check } from "./check.js";
import { describeFailure, isExtension, type CheckContext, type Exchange, type ListedTool } from "./context.js";
import { key, keys, outputsOf } from "./inspect.js";

const CORE_SELECTORS: ToolResultOutputSelector[] = [
  { audience: "assistant", format: "structured" },
  { audience: "user", format: "content" },
  { audience: "user", format: "structured" },
  { audience: "programmatic", format: "structured" },
];

interface Refusal {
  tool: string;
  requested: ToolResultOutputSelector[];
  offending: ToolResultOutputSelector;
  exchange: Exchange;
  note?: string;
}

/** Tools that succeed first, so a refusal cannot be blamed on the arguments. */
async function candidates(ctx: CheckContext): Promise<ListedTool[]> {
  const { tools } = await ctx.successfulTools();
  const rest = (await ctx.callable()).tools.filter((t) => !tools.includes(t));
  return [...tools, ...rest];
}

async function undeclared(ctx: CheckContext): Promise<Refusal | undefined> {
  for (const t of await candidates(ctx)) {
    const sel = CORE_SELECTORS.find((s) => !t.variants.some((v) => key(v) === key(s)));
    if (!sel) continue;
    return {
      tool: t.name,
      requested: [sel],
      offending: sel,
      exchange: await ctx.call({ tool: t.name, args: ctx.argsFor(t), requested: [sel] }, t),
    };
  }
  return undefined;
}

async function unnegotiated(ctx: CheckContext): Promise<Refusal | undefined> {
  const tools = await candidates(ctx);
  for (const t of tools) {
    const v = t.variants.find((x) => isExtension(x.audience));
    if (!v) continue;
    const sel = { audience: v.audience, format: v.format };
    return {
      tool: t.name,
      requested: [sel],
      offending: sel,
      exchange: await ctx.call({ tool: t.name, args: ctx.argsFor(t), requested: [sel] }, t),
    };
  }
  const t = tools[0];
  if (!t) return undefined;
  const sel: ToolResultOutputSelector = { audience: UI_EXTENSION, format: "structured" };
  const exchange = await ctx.call({ tool: t.name, args: ctx.argsFor(t), requested: [sel] }, t);
  return { tool: t.name, requested: [sel], offending: sel, exchange, note: "no tool declares an extension audience" };
}

async function duplicate(ctx: CheckContext): Promise<Refusal | undefined> {
  const t = (await candidates(ctx))[0];
  if (!t) return undefined;
  const sel: ToolResultOutputSelector = { audience: "assistant", format: "content" };
  return {
    tool: t.name,
    requested: [sel, sel],
    offending: sel,
    exchange: await ctx.call({ tool: t.name, args: ctx.argsFor(t), requested: [sel, sel] }, t),
  };
}

function expectInvalidParams(find: (ctx: CheckContext) => Promise<Refusal | undefined>, what: string) {
  return async (ctx: CheckContext) => {
    const r = await find(ctx);
    if (!r) return notTested(`no callable tool to request ${what} from`);
    const label = `${r.tool} [${keys(r.requested)}]${r.note ? ` (${r.note})` : ""}`;
    const x = r.exchange;
    if (x.failure) return fail(`${label}: ${x.failure.message}`);
    if (x.reply?.kind === "result") {
      const got = outputsOf(x)?.map(key).join(", ");
      return fail(
        `${label}: answered with a result (${got === undefined ? "no outputs" : `outputs ${got || "none"}`}) instead of error ${ErrorCode.InvalidParams}`,
      );
    }
    if (x.reply?.kind === "error" && x.reply.error.code !== ErrorCode.InvalidParams)
      return fail(`${label}: ${describeFailure(x)}, expected ${ErrorCode.InvalidParams}`);
    return pass(`${label}: ${ErrorCode.InvalidParams}`);
  };
}

export const rejectUndeclared = defineCheck(
  "sep-3279-reject-undeclared-selector",
  "MUST",
  expectInvalidParams(undeclared, "an undeclared selector"),
);
export const rejectUnnegotiated = defineCheck(
  "sep-3279-reject-unnegotiated-selector",
  "MUST",
  expectInvalidParams(unnegotiated, "an unnegotiated extension selector"),
);
export const rejectDuplicate = defineCheck(
  "sep-3279-proposed-reject-duplicate-selector",
  "MUST",
  expectInvalidParams(duplicate, "a duplicate selector"),
  { proposed: true },
);

/** A result for an undeclared or unnegotiated selector that carries other outputs is a silent substitution. */
export const noSubstitution = defineCheck("sep-3279-no-substitution", "MUST", async (ctx) => {
  const found = [await undeclared(ctx), await unnegotiated(ctx)].filter((r): r is Refusal => r !== undefined);
  if (found.length === 0) return notTested("no callable tool to request an undeclared selector from");
  for (const r of found) {
    const outputs = outputsOf(r.exchange);
    if (!outputs) continue;
    const substitutes = outputs.filter((o) => key(o) !== key(r.offending));
    if (substitutes.length > 0 || outputs.length === 0) {
      return fail(
        `${r.tool} [${keys(r.requested)}]: substituted ${substitutes.map(key).join(", ") || "an empty outputs array"} for the requested selector`,
      );
    }
  }
  return pass(`${found.length} invalid selections not substituted`);
});

export const refusalNamesSelector = defineCheck(
  "sep-3279-proposed-refusal-names-selector",
  "SHOULD",
  async (ctx) => {
    const found = [await undeclared(ctx), await unnegotiated(ctx), await duplicate(ctx)].filter(
      (r): r is Refusal => r !== undefined,
    );
    const refused = found.filter(
      (r) => r.exchange.reply?.kind === "error" && r.exchange.reply.error.code === ErrorCode.InvalidParams,
    );
    if (refused.length === 0) return notTested("no -32602 refusal to read (see the sep-3279-reject-* checks)");
    for (const r of refused) {
      const msg = r.exchange.reply?.kind === "error" ? r.exchange.reply.error.message : "";
      const named =
        msg.includes(key(r.offending)) || (msg.includes(r.offending.audience) && msg.includes(r.offending.format));
      if (!named)
        return fail(
          `(SHOULD) ${r.tool} [${keys(r.requested)}]: message ${JSON.stringify(msg)} does not name ${key(r.offending)}`,
        );
    }
    return pass(`${refused.length} refusal messages name the selector`);
  },
  { proposed: true },
);

export const refusalChecks: Check[] = [rejectUndeclared, rejectUnnegotiated, noSubstitution];
export const proposedRefusalChecks: Check[] = [rejectDuplicate, refusalNamesSelector];
