// Tool declarations under 2026-12-01: outputVariants present and well-formed, assistant/content
// declared, no duplicates, core combinations only, extension audiences only when negotiated,
// schemas present (SHOULD) and compilable as JSON Schema 2020-12.
import { EXTENSION_ID_PATTERN, SchemaCompileError, compileSchema, isCoreAudience } from "../protocol/index.js";
import { defineCheck, summarize, type Check } from "./check.js";
import type { CheckContext } from "./context.js";
import { key, outputsOf, resultOf, short } from "./inspect.js";
import { isObject } from "./wire.js";

type RawVariant = Record<string, unknown>;

/** Both listings (client advertising nothing, then the server's extensions), tool by tool. */
async function bothListings(ctx: CheckContext): Promise<{ label: string; tool: Record<string, unknown> }[]> {
  const out: { label: string; tool: Record<string, unknown> }[] = [];
  for (const withExt of [false, true]) {
    for (const t of await ctx.listedTools(withExt))
      out.push({ label: withExt ? `${t.name} (extensions advertised)` : t.name, tool: t.raw });
  }
  return out;
}

const variantsOf = (tool: Record<string, unknown>): RawVariant[] =>
  Array.isArray(tool.outputVariants) ? tool.outputVariants.map((v) => (isObject(v) ? v : { invalid: v })) : [];

/** Runs a per-tool rule over both listings; messages are de-duplicated across them. */
function perTool(
  id: string,
  level: "MUST" | "SHOULD",
  what: string,
  rule: (variants: RawVariant[], tool: Record<string, unknown>) => string[],
): Check {
  return defineCheck(id, level, async (ctx) => {
    const problems = new Set<string>();
    const listings = await bothListings(ctx);
    for (const { label, tool } of listings)
      for (const p of rule(variantsOf(tool), tool))
        problems.add(`${label}: ${p}`.replace(" (extensions advertised): ", ": "));
    const prefix = level === "SHOULD" ? "(SHOULD) " : "";
    return summarize({ problems: [...problems].map((p) => prefix + p), checked: listings.length, what });
  });
}

export const versionDeterminesShapes = defineCheck("sep-3279-version-determines-shapes", "MUST", async (ctx) => {
  const problems: string[] = [];
  const x = await ctx.toolsListExchange(false);
  const r = resultOf(x);
  if (!r)
    return summarize({
      problems: [
        `tools/list under 2026-12-01 failed: ${x.failure?.message ?? (x.reply?.kind === "error" ? `error ${x.reply.error.code} ${x.reply.error.message}` : "no reply")}`,
      ],
      checked: 0,
      what: "",
    });
  if (!Array.isArray(r.tools))
    return summarize({ problems: ["tools/list result has no tools array"], checked: 0, what: "" });
  let checked = 0;
  for (const t of r.tools) {
    checked++;
    if (!isObject(t)) problems.push(`tools/list entry ${short(t)} is not an object`);
    else if (!Array.isArray(t.outputVariants))
      problems.push(`tool ${short(t.name)} has no outputVariants array under 2026-12-01`);
  }
  for (const t of (await ctx.callable()).tools) {
    const x = (await ctx.probe(t)).exchange;
    const res = resultOf(x);
    if (!res) continue;
    checked++;
    if (!outputsOf(x)) problems.push(`tools/call ${t.name} result has no outputs array under 2026-12-01`);
    for (const legacy of ["content", "structuredContent"])
      if (legacy in res) problems.push(`tools/call ${t.name} result carries legacy field ${legacy} under 2026-12-01`);
  }
  return summarize({ problems, checked, what: "tools and results in the 2026-12-01 shape" });
});

export const declaresAssistantContent = perTool(
  "sep-3279-declaration-assistant-content",
  "MUST",
  "tool listings declare assistant/content",
  (vs) =>
    vs.some((v) => v.audience === "assistant" && v.format === "content")
      ? []
      : [`declares no assistant/content (has ${vs.map(key).join(", ") || "none"})`],
);

export const noDuplicateVariants = perTool(
  "sep-3279-declaration-no-duplicate-variants",
  "MUST",
  "tool listings without duplicate variants",
  (vs) => {
    const seen = new Set<string>();
    const dup = new Set<string>();
    for (const v of vs) {
      const k = key(v);
      if (seen.has(k)) dup.add(k);
      seen.add(k);
    }
    return [...dup].map((k) => `declares ${k} more than once`);
  },
);

export const coreCombinations = perTool(
  "sep-3279-declaration-core-combinations",
  "MUST",
  "tool listings use allowed combinations",
  (vs) =>
    vs.flatMap((v) => {
      if (v.format !== "content" && v.format !== "structured")
        return [`variant ${short(v)} has format ${short(v.format)} (content or structured)`];
      if (v.audience === "programmatic" && v.format === "content")
        return ["declares programmatic/content, which is not a core combination"];
      if (v.format === "content" && "schema" in v)
        return [`${key(v)} carries a schema (only structured variants have one)`];
      return [];
    }),
);

export const extensionAudienceNamespaced = perTool(
  "sep-3279-extension-audience-namespaced",
  "MUST",
  "tool listings use core or namespaced audiences",
  (vs) =>
    vs
      .filter(
        (v) =>
          typeof v.audience !== "string" || (!isCoreAudience(v.audience) && !EXTENSION_ID_PATTERN.test(v.audience)),
      )
      .map((v) => `audience ${short(v.audience)} is neither core nor a namespaced extension identifier`),
);

export const extensionAudienceNegotiated = defineCheck(
  "sep-3279-declaration-extension-negotiated",
  "MUST",
  async (ctx) => {
    const problems: string[] = [];
    const serverExt = new Set(await ctx.serverExtensions());
    const plain = await ctx.listedTools(false);
    for (const t of plain) {
      for (const v of variantsOf(t.raw)) {
        if (typeof v.audience === "string" && !isCoreAudience(v.audience))
          problems.push(`${t.name} lists ${key(v)} although the client advertised no extension`);
      }
    }
    const advertised = await ctx.listedTools(true);
    for (const t of advertised) {
      for (const v of variantsOf(t.raw)) {
        if (typeof v.audience === "string" && !isCoreAudience(v.audience) && !serverExt.has(v.audience)) {
          problems.push(
            `${t.name} lists ${key(v)} but the server does not advertise extension ${v.audience} in server/discover`,
          );
        }
      }
    }
    return summarize({
      problems,
      checked: plain.length + advertised.length,
      what: `tool listings checked with and without ${serverExt.size ? [...serverExt].join(", ") : "extensions"} advertised`,
    });
  },
);

export const structuredVariantHasSchema = perTool(
  "sep-3279-structured-variant-has-schema",
  "SHOULD",
  "tool listings give core structured variants a schema",
  (vs) =>
    vs
      .filter(
        (v) =>
          v.format === "structured" &&
          typeof v.audience === "string" &&
          isCoreAudience(v.audience) &&
          !isObject(v.schema),
      )
      .map((v) => `${key(v)} declares no schema`),
);

const DRAFT_2020 = /^https:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;

export const variantSchemasCompile = perTool(
  "sep-3279-variant-schemas-compile",
  "MUST",
  "tool listings with compilable variant schemas",
  (vs) =>
    vs.flatMap((v) => {
      if (v.format !== "structured" || v.schema === undefined) return [];
      if (!isObject(v.schema)) return [`${key(v)} schema is not an object (${short(v.schema)})`];
      const dialect = v.schema.$schema;
      if (dialect !== undefined && !(typeof dialect === "string" && DRAFT_2020.test(dialect))) return []; // another dialect: MAY, not checked here
      try {
        compileSchema(structuredClone(v.schema));
        return [];
      } catch (e) {
        return [
          `${key(v)} schema does not compile as JSON Schema 2020-12: ${e instanceof SchemaCompileError ? e.message : String(e)}`,
        ];
      }
    }),
);

export const declarationChecks: Check[] = [
  versionDeterminesShapes,
  declaresAssistantContent,
  noDuplicateVariants,
  coreCombinations,
  extensionAudienceNamespaced,
  extensionAudienceNegotiated,
  structuredVariantHasSchema,
  variantSchemasCompile,
];
