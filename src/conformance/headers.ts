// The 2026-07-28 header/body agreement rule, from the server's side: a request whose Mcp-Method
// header names another method is rejected with 400 and HeaderMismatch (-32020). The probe is a
// tools/list body (no side effect if a server ignores the header) labelled tools/call.
import { ErrorCode, MODERN_VERSIONS } from "../protocol/index.js";
import { defineCheck, fail, notApplicable, pass, type Check } from "./check.js";
import { describeFailure } from "./context.js";

export const headerMismatchRejected = defineCheck("sep-2243-http-server-header-mismatch", "MUST", async (ctx) => {
  if (ctx.transport !== "http") return notApplicable("HTTP only (this server runs over stdio)");
  const d = await ctx.discovery();
  const version = MODERN_VERSIONS.find((v) => d.supportedVersions.includes(v));
  if (version === undefined) return notApplicable(`the server lists none of ${MODERN_VERSIONS.join(", ")}`);
  const x = await ctx.exchange("tools/list", { _meta: ctx.meta(version) }, { "mcp-method": "tools/call" });
  const label = `tools/list at ${version} with Mcp-Method: tools/call`;
  if (!x.reply) return fail(`${label}: ${describeFailure(x)}`);
  if (x.reply.kind === "result")
    return fail(`${label}: answered with a result instead of 400 and error ${ErrorCode.HeaderMismatch}`);
  if (x.reply.error.code !== ErrorCode.HeaderMismatch)
    return fail(`${label}: error ${x.reply.error.code}, expected ${ErrorCode.HeaderMismatch}`);
  if (x.reply.httpStatus !== 400) return fail(`${label}: HTTP status ${x.reply.httpStatus}, expected 400`);
  return pass(`${label}: 400, ${ErrorCode.HeaderMismatch}`);
});

export const headerChecks: Check[] = [headerMismatchRejected];
