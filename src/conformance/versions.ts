// UnsupportedProtocolVersionError (-32022) for a version the server does not implement.
import { ErrorCode } from "../protocol/index.js";
import { defineCheck, fail, notApplicable, pass, type Check } from "./check.js";
import { describeFailure } from "./context.js";
import { short } from "./inspect.js";
import { isObject } from "./wire.js";

export const UNKNOWN_VERSION = "1900-01-01";

const unknownVersionDiscover = (ctx: Parameters<Check["run"]>[0]) => ctx.modern("server/discover", UNKNOWN_VERSION);

export const unsupportedVersionError = defineCheck("sep-2575-server-unsupported-version-error", "MUST", async (ctx) => {
  const x = await unknownVersionDiscover(ctx);
  if (x.failure) return fail(`server/discover at ${UNKNOWN_VERSION}: ${x.failure.message}`);
  if (x.reply?.kind !== "error")
    return fail(
      `server/discover at ${UNKNOWN_VERSION} succeeded (expected error ${ErrorCode.UnsupportedProtocolVersion})`,
    );
  const e = x.reply.error;
  if (e.code !== ErrorCode.UnsupportedProtocolVersion)
    return fail(
      `server/discover at ${UNKNOWN_VERSION}: error ${e.code}, expected ${ErrorCode.UnsupportedProtocolVersion}`,
    );
  const data = isObject(e.data) ? e.data : undefined;
  const supported = data?.supported;
  if (!Array.isArray(supported) || supported.length === 0 || !supported.every((v) => typeof v === "string")) {
    return fail(`error ${e.code} has no data.supported list of versions (data: ${short(e.data)})`);
  }
  if (data?.requested !== UNKNOWN_VERSION)
    return fail(`error ${e.code} data.requested is ${short(data?.requested)}, expected "${UNKNOWN_VERSION}"`);
  return pass(`${e.code} with supported ${supported.join(", ")}`);
});

export const unsupportedVersionHttp400 = defineCheck(
  "sep-2575-http-server-unsupported-version-400",
  "MUST",
  async (ctx) => {
    if (ctx.transport !== "http") return notApplicable("HTTP only (this server runs over stdio)");
    const x = await unknownVersionDiscover(ctx);
    if (!x.reply) return fail(`server/discover at ${UNKNOWN_VERSION}: ${describeFailure(x)}`);
    return x.reply.httpStatus === 400
      ? pass("400 Bad Request")
      : fail(`HTTP status ${x.reply.httpStatus}, expected 400`);
  },
);

export const versionChecks: Check[] = [unsupportedVersionError, unsupportedVersionHttp400];
