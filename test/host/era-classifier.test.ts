// The era classifier as a table: every probe outcome × context row → the verdict, no process.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  challenge,
  classifyProbe,
  type EraVerdict,
  type ProbeContext,
  type ProbeOutcome,
} from "../../src/host/connection/era-classifier.js";

const discover = (supportedVersions: string[]) => ({ resultType: "complete", supportedVersions, capabilities: {} });
const stdio: ProbeContext = { transport: "stdio", version: "2026-12-01", forced: false, retried: false };
const http: ProbeContext = { ...stdio, transport: "http" };
const forced = (version: string, transport: "stdio" | "http" = "stdio"): ProbeContext => ({
  transport,
  version,
  forced: true,
  retried: false,
});
const retried: ProbeContext = { ...stdio, version: "2026-07-28", retried: true };
const e32022 = (supported: unknown): ProbeOutcome => ({
  kind: "rpc-error",
  code: -32022,
  message: "Unsupported protocol version",
  data: { supported, requested: "2026-12-01" },
});

/** What a verdict is, in one comparable shape (the discover result itself is not compared). */
type Expect =
  | { kind: "modern" | "retry"; version: string }
  | { kind: "legacy"; evidence: RegExp }
  | { kind: "auth-required" | "failed"; rule: string; detail: RegExp };

const ROWS: [string, ProbeOutcome, ProbeContext, Expect][] = [
  // A DiscoverResult
  [
    "result with our version",
    { kind: "result", result: discover(["2026-12-01", "2026-07-28"]) },
    stdio,
    { kind: "modern", version: "2026-12-01" },
  ],
  [
    "result without our version: the best one it has",
    { kind: "result", result: discover(["2026-07-28"]) },
    stdio,
    { kind: "modern", version: "2026-07-28" },
  ],
  [
    "result probed with 2026-07-28 (remembered) that offers 2026-12-01: the best",
    { kind: "result", result: discover(["2026-12-01", "2026-07-28"]) },
    { ...stdio, version: "2026-07-28" },
    { kind: "modern", version: "2026-12-01" },
  ],
  [
    "result, forced version supported",
    { kind: "result", result: discover(["2026-12-01", "2026-07-28"]) },
    forced("2026-07-28"),
    { kind: "modern", version: "2026-07-28" },
  ],
  [
    "result, forced version not supported",
    { kind: "result", result: discover(["2026-07-28"]) },
    forced("2026-12-01"),
    {
      kind: "failed",
      rule: "unsupported-version",
      detail: /^does not support protocol 2026-12-01 \(it supports 2026-07-28\)$/,
    },
  ],
  [
    "result with no version we know",
    { kind: "result", result: discover(["2099-01-01"]) },
    stdio,
    { kind: "failed", rule: "unsupported-version", detail: /it supports 2099-01-01/ },
  ],
  // A legacy server may answer any method it does not know with an empty result: no modern evidence.
  [
    "a result that is no discover result",
    { kind: "result", result: {} },
    stdio,
    { kind: "legacy", evidence: /a result that is not a discover result/ },
  ],
  [
    "a malformed discover result, forced version",
    { kind: "result", result: { supportedVersions: "all" } },
    forced("2026-12-01"),
    {
      kind: "failed",
      rule: "connection-failed",
      detail: /^--protocol 2026-12-01: server\/discover failed: .*not a discover result/,
    },
  ],
  [
    "a malformed discover result after a -32022 retry",
    { kind: "result", result: { supportedVersions: "all" } },
    retried,
    { kind: "failed", rule: "connection-failed", detail: /not a discover result/ },
  ],
  // JSON-RPC errors
  ["-32022 with a shared version: retry", e32022(["2026-07-28"]), stdio, { kind: "retry", version: "2026-07-28" }],
  [
    "-32022 naming only the version just refused",
    e32022(["2026-12-01"]),
    stdio,
    { kind: "failed", rule: "unsupported-version", detail: /2026-12-01/ },
  ],
  [
    "-32022 with nothing shared",
    e32022(["2099-01-01"]),
    stdio,
    { kind: "failed", rule: "unsupported-version", detail: /it supports 2099-01-01/ },
  ],
  [
    "-32022 with malformed data",
    e32022("nope"),
    stdio,
    { kind: "failed", rule: "unsupported-version", detail: /nothing we know/ },
  ],
  [
    "-32022 when forced: no retry",
    e32022(["2026-07-28"]),
    forced("2026-12-01"),
    { kind: "failed", rule: "unsupported-version", detail: /it supports 2026-07-28/ },
  ],
  [
    "-32022 again after a retry: no loop",
    e32022(["2026-12-01"]),
    retried,
    { kind: "failed", rule: "unsupported-version", detail: /^does not support protocol 2026-07-28/ },
  ],
  [
    "-32020 (header mismatch): modern, a clear error",
    { kind: "rpc-error", code: -32020, message: "header mismatch" },
    http,
    { kind: "failed", rule: "modern-error", detail: /-32020 header mismatch/ },
  ],
  [
    "-32021 (missing capability): modern, a clear error",
    { kind: "rpc-error", code: -32021, message: "needs x" },
    stdio,
    { kind: "failed", rule: "modern-error", detail: /-32021 needs x/ },
  ],
  [
    "-32601 (method not found): legacy",
    { kind: "rpc-error", code: -32601, message: "Method not found" },
    stdio,
    { kind: "legacy", evidence: /-32601 Method not found/ },
  ],
  [
    "-32600 over HTTP: legacy",
    { kind: "rpc-error", code: -32600, message: "Bad Request" },
    http,
    { kind: "legacy", evidence: /-32600/ },
  ],
  [
    "-32601 when forced: fails, no fallback",
    { kind: "rpc-error", code: -32601, message: "Method not found" },
    forced("2026-07-28"),
    { kind: "failed", rule: "connection-failed", detail: /^--protocol 2026-07-28: server\/discover failed: .*-32601/ },
  ],
  [
    "-32601 after a -32022 retry: never legacy",
    { kind: "rpc-error", code: -32601, message: "Method not found" },
    retried,
    { kind: "failed", rule: "connection-failed", detail: /from its -32022/ },
  ],
  // HTTP statuses
  [
    "HTTP 400 without a JSON-RPC error: legacy",
    { kind: "http-status", status: 400, body: "Bad Request" },
    http,
    { kind: "legacy", evidence: /HTTP 400/ },
  ],
  ["HTTP 404: legacy", { kind: "http-status", status: 404 }, http, { kind: "legacy", evidence: /HTTP 404/ }],
  [
    "HTTP 405 when forced: fails",
    { kind: "http-status", status: 405 },
    forced("2026-12-01", "http"),
    { kind: "failed", rule: "connection-failed", detail: /--protocol 2026-12-01: .*HTTP 405/ },
  ],
  [
    "HTTP 401: authorization needed, never legacy",
    {
      kind: "http-status",
      status: 401,
      body: '{"error":"invalid_token"}',
      wwwAuthenticate: 'Bearer realm="mcp", resource_metadata="https://a.example/.well-known/oauth-protected-resource"',
    },
    http,
    {
      kind: "auth-required",
      rule: "auth-required",
      detail:
        /^HTTP 401: the server needs authorization \(Bearer, realm "mcp", resource_metadata "https:\/\/a\.example\/\.well-known\/oauth-protected-resource"\); sign-in needed: `mcp-prism login SERVER`/,
    },
  ],
  [
    "HTTP 401 after a failed sign-in: why it failed",
    { kind: "http-status", status: 401, signIn: "the authorization response has no code" },
    http,
    {
      kind: "auth-required",
      rule: "auth-required",
      detail: /^HTTP 401: the server needs authorization; sign-in failed: the authorization response has no code$/,
    },
  ],
  [
    "HTTP 401 without a challenge",
    { kind: "http-status", status: 401 },
    http,
    { kind: "auth-required", rule: "auth-required", detail: /^HTTP 401: the server needs authorization; / },
  ],
  [
    "HTTP 403 when forced: still auth, not a version problem",
    { kind: "http-status", status: 403, wwwAuthenticate: 'Bearer error="insufficient_scope"' },
    forced("2026-12-01", "http"),
    {
      kind: "auth-required",
      rule: "auth-required",
      detail: /^HTTP 403: the server refused the credentials \(Bearer, error "insufficient_scope"\)/,
    },
  ],
  // Silence
  [
    "stdio timeout (initialize answered meanwhile): legacy",
    { kind: "timeout", ms: 3000 },
    stdio,
    { kind: "legacy", evidence: /no answer to server\/discover within 3000 ms/ },
  ],
  [
    "HTTP timeout: an outage, not an era",
    { kind: "timeout", ms: 10000 },
    http,
    { kind: "failed", rule: "timeout", detail: /within 10000 ms/ },
  ],
  [
    "stdio timeout when forced: fails",
    { kind: "timeout", ms: 60000 },
    forced("2026-12-01"),
    { kind: "failed", rule: "connection-failed", detail: /^--protocol 2026-12-01/ },
  ],
  [
    "stdio timeout after a retry: fails",
    { kind: "timeout", ms: 3000 },
    retried,
    { kind: "failed", rule: "connection-failed", detail: /from its -32022/ },
  ],
  // The exchange broke
  [
    "the process exited",
    { kind: "transport-failure", message: "the connection closed", exited: true },
    stdio,
    { kind: "failed", rule: "connection-failed", detail: /^the server exited before answering$/ },
  ],
  [
    "network failure over HTTP",
    { kind: "transport-failure", message: "connect ECONNREFUSED 127.0.0.1:9" },
    http,
    { kind: "failed", rule: "connection-failed", detail: /ECONNREFUSED/ },
  ],
];

for (const [name, outcome, ctx, want] of ROWS) {
  test(`classifyProbe: ${name}`, () => {
    const v: EraVerdict = classifyProbe(outcome, ctx);
    assert.equal(v.kind, want.kind, JSON.stringify(v));
    if (want.kind === "modern" || want.kind === "retry") assert.equal((v as { version: string }).version, want.version);
    else if (want.kind === "legacy") assert.match((v as { evidence: string }).evidence, want.evidence);
    else if (want.kind === "auth-required" || want.kind === "failed") {
      const f = v as { rule: string; detail: string };
      assert.equal(f.rule, want.rule);
      assert.match(f.detail, want.detail);
      assert.doesNotMatch(f.detail, /invalid_token/, "the body is never shown");
    }
  });
}

test("every outcome kind and verdict kind appears in the table", () => {
  const outcomes = new Set(ROWS.map((r) => r[1].kind));
  assert.deepEqual([...outcomes].sort(), ["http-status", "result", "rpc-error", "timeout", "transport-failure"]);
  const verdicts = new Set(ROWS.map((r) => classifyProbe(r[1], r[2]).kind));
  assert.deepEqual([...verdicts].sort(), ["auth-required", "failed", "legacy", "modern", "retry"]);
});

test("challenge(): scheme, realm, resource_metadata and error only; server text bounded and printable", () => {
  assert.equal(challenge(undefined), "");
  assert.equal(
    challenge('Bearer realm="x", scope="a b", resource_metadata=https://r/m'),
    'Bearer, realm "x", resource_metadata "https://r/m"',
  );
  const hostile = challenge(`Bearer realm="\u001b[31m${"A".repeat(500)}"`);
  assert.doesNotMatch(hostile, /\u001b/);
  assert.ok(hostile.length < 160, hostile);
  assert.equal(challenge("\u001b]0;title\u0007"), "");
});

test("the sign-in hint names the server when the probe knows it", () => {
  const v = classifyProbe(
    { kind: "http-status", status: 401, body: "", wwwAuthenticate: "Bearer" },
    { ...http, server: "crm" },
  );
  assert.equal(v.kind, "auth-required");
  if (v.kind === "auth-required")
    assert.match(v.detail, /sign-in needed: `mcp-prism login crm`, or \/login crm in the app$/);
});
