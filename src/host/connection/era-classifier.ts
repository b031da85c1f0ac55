// Era detection's decisions, as one pure function: what a `server/discover` probe came back with
// (and on which transport, with which version, whether forced or after a -32022 retry) → what the
// connection does next. No I/O and no state: Connection.detectEra runs the probes and applies the
// verdicts (test/host/era-classifier.test.ts is the table).
import type { Rule } from "../../protocol/rules.js";
import {
  DiscoverResultSchema,
  ErrorCode,
  MODERN_ERROR_CODES,
  MODERN_VERSIONS,
  UnsupportedVersionErrorDataSchema,
  type DiscoverResult,
} from "../../protocol/index.js";
import { MALFORMED_REPLY } from "../../protocol/reply-check.js";
import { REPLY_REFUSED_CODE } from "./reply-guard.js";

/** What one probe came back with, normalized by the connection from the transport's exchange. */
export type ProbeOutcome =
  | { kind: "result"; result: unknown }
  /** A JSON-RPC error answer (stdio in-band, or an HTTP body that is a JSON-RPC error for the probe). */
  | { kind: "rpc-error"; code: number; message: string; data?: unknown }
  /** A non-2xx HTTP reply whose body is not a JSON-RPC error for the probe. */
  | { kind: "http-status"; status: number; body?: string; wwwAuthenticate?: string; signIn?: string }
  /** No answer within the probe's time (on stdio: initialize, sent meanwhile, answered and discover still did not). */
  | { kind: "timeout"; ms: number }
  /** The exchange itself broke: network error, the process exited, a write failed. */
  | { kind: "transport-failure"; message: string; exited?: boolean };

export interface ProbeContext {
  transport: "stdio" | "http";
  /** The version the probe carried in its `_meta` envelope. */
  version: string;
  /** `--protocol` forced this (modern) version: no fallback, no retry. */
  forced: boolean;
  /** The probe is a retry after -32022: the server showed itself modern, so never legacy now. */
  retried: boolean;
  /** The server's config name, for the sign-in hint ("SERVER" when not known). */
  server?: string;
}

export type EraVerdict =
  /** Modern at `version` (the best of ours the server supports). */
  | { kind: "modern"; version: string; discover: DiscoverResult }
  /** -32022 with a version we share: probe again with it (once). */
  | { kind: "retry"; version: string }
  /** A legacy server: `initialize`. `evidence` says why (for the server's diagnostics). */
  | { kind: "legacy"; evidence: string }
  /** The server wants credentials: one line naming the status and what the server said it wants. */
  | { kind: "auth-required"; rule: "auth-required"; detail: string }
  | { kind: "failed"; rule: Rule; detail: string };

export function classifyProbe(outcome: ProbeOutcome, ctx: ProbeContext): EraVerdict {
  switch (outcome.kind) {
    case "result":
      return classifyResult(outcome.result, ctx);
    case "rpc-error":
      return classifyRpcError(outcome, ctx);
    case "http-status":
      if (outcome.status === 401 || outcome.status === 403)
        return authRequired(outcome.status, outcome.wwwAuthenticate, outcome.signIn, ctx.server);
      return notModern(`server/discover → HTTP ${outcome.status}`, ctx);
    case "timeout":
      // stdio: a legacy server may ignore what it does not know (initialize already decided).
      // HTTP: every deployed server answers a POST, so silence is an outage, not an era.
      if (ctx.transport === "http")
        return { kind: "failed", rule: "timeout", detail: `no answer to server/discover within ${outcome.ms} ms` };
      return notModern(`no answer to server/discover within ${outcome.ms} ms`, ctx);
    case "transport-failure":
      if (outcome.exited)
        return { kind: "failed", rule: "connection-failed", detail: "the server exited before answering" };
      return { kind: "failed", rule: "connection-failed", detail: outcome.message };
  }
}

function classifyResult(result: unknown, ctx: ProbeContext): EraVerdict {
  const parsed = DiscoverResultSchema.safeParse(result);
  // A result that is no discover result (e.g. a legacy server answering every unknown method with
  // `{}`) is no modern evidence: on to initialize, unless the server already showed itself modern.
  if (!parsed.success) return notModern("server/discover → a result that is not a discover result", ctx);
  const supported = parsed.data.supportedVersions;
  if (ctx.forced)
    return supported.includes(ctx.version)
      ? { kind: "modern", version: ctx.version, discover: parsed.data }
      : noCommonVersion(ctx.version, supported);
  // The best of ours it lists (a remembered 2026-07-28 server may have learned 2026-12-01).
  const best = MODERN_VERSIONS.find((v) => supported.includes(v));
  return best === undefined
    ? noCommonVersion(ctx.version, supported)
    : { kind: "modern", version: best, discover: parsed.data };
}

function classifyRpcError(e: { code: number; message: string; data?: unknown }, ctx: ProbeContext): EraVerdict {
  // A reply refused as malformed (reply-guard.ts) is no modern evidence; initialize may still work.
  if (e.code === REPLY_REFUSED_CODE)
    return notModern(`server/discover → a reply refused as ${MALFORMED_REPLY} (${bounded(e.message, 200)})`, ctx);
  if (MODERN_ERROR_CODES.has(e.code)) {
    // A modern server: select and continue, or a clear error; never initialize.
    if (e.code !== ErrorCode.UnsupportedProtocolVersion)
      return { kind: "failed", rule: "modern-error", detail: `server/discover → ${e.code} ${bounded(e.message, 200)}` };
    const data = UnsupportedVersionErrorDataSchema.safeParse(e.data);
    const supported = data.success ? data.data.supported : [];
    const best = MODERN_VERSIONS.find((v) => supported.includes(v));
    if (ctx.forced || ctx.retried || best === undefined || best === ctx.version)
      return noCommonVersion(ctx.version, supported);
    return { kind: "retry", version: best };
  }
  return notModern(`server/discover → ${e.code} ${bounded(e.message, 200)}`, ctx);
}

/** No modern evidence: legacy, unless the version was forced or the server already showed itself modern. */
function notModern(evidence: string, ctx: ProbeContext): EraVerdict {
  if (ctx.forced)
    return {
      kind: "failed",
      rule: "connection-failed",
      detail: `--protocol ${ctx.version}: server/discover failed: ${evidence}`,
    };
  if (ctx.retried)
    return {
      kind: "failed",
      rule: "connection-failed",
      detail: `server/discover with ${ctx.version} (from its -32022) failed: ${evidence}`,
    };
  return { kind: "legacy", evidence };
}

function noCommonVersion(requested: string, supported: readonly string[]): EraVerdict {
  const list = supported
    .slice(0, 8)
    .map((v) => bounded(v, 20))
    .join(", ");
  return {
    kind: "failed",
    rule: "unsupported-version",
    detail: `does not support protocol ${requested} (it supports ${list || "nothing we know"})`,
  };
}

/** The verdict for an HTTP 401/403, on the probe or on the legacy transport. */
export function authRequired(
  status: number,
  wwwAuthenticate: string | undefined,
  signIn?: string,
  server = "SERVER",
): Extract<EraVerdict, { kind: "auth-required" }> {
  const what = status === 401 ? "needs authorization" : "refused the credentials";
  const said = challenge(wwwAuthenticate);
  // `signIn`: why signing in failed (host-written, bounded); else how to sign in.
  const hint = signIn
    ? `; sign-in failed: ${bounded(signIn, 300)}`
    : status === 401
      ? `; sign-in needed: \`mcp-prism login ${server}\`, or /login ${server} in the app`
      : "";
  return {
    kind: "auth-required",
    rule: "auth-required",
    detail: `HTTP ${status}: the server ${what}${said ? ` (${said})` : ""}${hint}`,
  };
}

/**
 * The parts of a WWW-Authenticate challenge worth one line: the scheme, `realm`, `resource_metadata`
 * (RFC 9728: where the server's OAuth metadata lives) and `error`. Server-controlled: printable
 * ASCII only, each part bounded, nothing else of the header shown.
 */
export function challenge(header: string | undefined): string {
  if (header === undefined) return "";
  const h = header.slice(0, 2048);
  const scheme = /^\s*([A-Za-z][A-Za-z0-9._~+/-]{0,30})(?:\s|$)/.exec(h)?.[1];
  const parts: string[] = scheme ? [scheme] : [];
  for (const key of ["realm", "resource_metadata", "error"]) {
    const m = new RegExp(`(?:^|[\\s,])${key}\\s*=\\s*(?:"([^"]*)"|([^\\s,]*))`, "i").exec(h);
    const value = m?.[1] ?? m?.[2];
    if (value) parts.push(`${key} ${JSON.stringify(bounded(value, 120))}`);
  }
  return parts.join(", ");
}

/** Printable ASCII only (anything else becomes `?`), cut to `max` characters. */
function bounded(s: string, max: number): string {
  const clean = s.replace(/[^\x20-\x7E]/g, "?");
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}
