// server/discover (2026-07-28) and the version a SEP-3279 server must list.
import { META, VARIANTS_VERSION } from "../protocol/index.js";
import { defineCheck, fail, pass, summarize, type Check } from "./check.js";
import { describeFailure } from "./context.js";
import { short } from "./inspect.js";
import { isObject } from "./wire.js";

export const serverImplementsDiscover = defineCheck("sep-2575-server-implements-discover", "MUST", async (ctx) => {
  const x = await ctx.discover();
  if (x.reply?.kind !== "result") return fail(`server/discover: ${describeFailure(x)}`);
  const r = x.reply.result;
  if (!Array.isArray(r.supportedVersions) || !r.supportedVersions.every((v) => typeof v === "string")) {
    return fail("server/discover result has no supportedVersions string array");
  }
  if (!isObject(r.capabilities)) return fail("server/discover result has no capabilities object");
  return pass(`supportedVersions ${r.supportedVersions.join(", ")}`);
});

export const discoverListsVariantsVersion = defineCheck("sep-3279-discover-lists-2026-12-01", "MUST", async (ctx) => {
  const d = await ctx.discovery();
  return d.supportedVersions.includes(VARIANTS_VERSION)
    ? pass(`${VARIANTS_VERSION} is listed`)
    : fail(`supportedVersions ${short(d.supportedVersions)} does not list ${VARIANTS_VERSION}`);
});

export const serverInfoInDiscover = defineCheck("sep-2575-server-info-in-discover", "SHOULD", async (ctx) => {
  const d = await ctx.discovery();
  const info = isObject(d.result._meta) ? d.result._meta[META.serverInfo] : undefined;
  if (!isObject(info)) return fail(`(SHOULD) server/discover result _meta has no ${META.serverInfo}`);
  if (typeof info.name !== "string" || typeof info.version !== "string")
    return fail(`(SHOULD) ${META.serverInfo} needs string name and version, got ${short(info)}`);
  return pass(`${info.name} ${info.version}`);
});

/** Every modern result carries resultType (the 2026-07-28 Result schema). */
export const resultTypePresent = defineCheck("sep-2575-server-result-type", "MUST", async (ctx) => {
  const problems: string[] = [];
  let checked = 0;
  const all: [string, Awaited<ReturnType<typeof ctx.discover>>][] = [
    ["server/discover", await ctx.discover()],
    ["tools/list", await ctx.toolsListExchange(false)],
  ];
  try {
    for (const t of (await ctx.callable()).tools) all.push([`tools/call ${t.name}`, (await ctx.probe(t)).exchange]);
  } catch {
    // tools/list failed: the two requests above still count
  }
  for (const [what, x] of all) {
    if (x.reply?.kind !== "result") continue;
    checked++;
    const rt = x.reply.result.resultType;
    if (rt !== "complete")
      problems.push(`${what} result has resultType ${rt === undefined ? "missing" : short(rt)} (expected "complete")`);
  }
  return summarize({ problems, checked, what: 'modern results carry resultType "complete"' });
});

export const discoveryChecks: Check[] = [
  serverImplementsDiscover,
  discoverListsVariantsVersion,
  serverInfoInDiscover,
  resultTypePresent,
];
