// The 2026-07-28 request-metadata header rules (protocol/http-headers.ts), against the examples
// and constraints of the Streamable HTTP transport page.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  decodeHeaderValue,
  headerMismatch,
  headerValue,
  paramHeaderPlan,
  paramHeaders,
  standardHeaders,
  type ParamHeader,
} from "../../src/protocol/http-headers.js";

test("value encoding: the page's examples, plus empty, internal space and a leading tab", () => {
  assert.equal(headerValue("us-west1"), "us-west1");
  assert.equal(headerValue("Hello, 世界"), "=?base64?SGVsbG8sIOS4lueVjA==?=");
  assert.equal(headerValue(" padded "), "=?base64?IHBhZGRlZCA=?=");
  assert.equal(headerValue("line1\nline2"), "=?base64?bGluZTEKbGluZTI=?=");
  assert.equal(headerValue("=?base64?literal?="), "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=");
  assert.equal(headerValue(""), "");
  assert.equal(headerValue("us west 1"), "us west 1");
  assert.equal(headerValue("\tindented"), `=?base64?${Buffer.from("\tindented").toString("base64")}?=`);
  assert.equal(
    headerValue("a\tb"),
    `=?base64?${Buffer.from("a\tb").toString("base64")}?=`,
    "a tab is a control character",
  );
  // Only a value that is the whole sentinel pattern needs encoding.
  assert.equal(headerValue("=?base64?abc"), "=?base64?abc");
});

test("decoding: sentinel values round-trip; malformed Base64 or non-UTF-8 is undefined; plain values pass", () => {
  for (const v of ["Hello, 世界", " padded ", "line1\r\nline2", "=?base64?literal?=", "x"])
    assert.equal(decodeHeaderValue(headerValue(v)), v);
  assert.equal(decodeHeaderValue("plain"), "plain");
  assert.equal(decodeHeaderValue("=?base64?abc?="), undefined, "length not a multiple of 4");
  assert.equal(decodeHeaderValue("=?base64?a$b=?="), undefined);
  assert.equal(decodeHeaderValue(`=?base64?${Buffer.from([0xff, 0xfe]).toString("base64")}?=`), undefined, "not UTF-8");
});

test("standard headers: Mcp-Method always, Mcp-Name for tools/call, resources/read, prompts/get", () => {
  assert.deepEqual(standardHeaders("tools/list", {}), { "mcp-method": "tools/list" });
  assert.deepEqual(standardHeaders("tools/call", { name: "get_weather" }), {
    "mcp-method": "tools/call",
    "mcp-name": "get_weather",
  });
  assert.deepEqual(standardHeaders("resources/read", { uri: "file:///a b" }), {
    "mcp-method": "resources/read",
    "mcp-name": "file:///a b",
  });
  assert.deepEqual(standardHeaders("prompts/get", { name: "résumé" }), {
    "mcp-method": "prompts/get",
    "mcp-name": headerValue("résumé"),
  });
});

const schema = (props: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: "object",
  properties: props,
  ...extra,
});

test("plan: annotated primitive properties, nested through properties chains; data keywords are not schemas", () => {
  const plan = paramHeaderPlan(
    schema(
      {
        region: { type: "string", "x-mcp-header": "Region" },
        n: { type: "integer", "x-mcp-header": "N" },
        flag: { type: ["boolean", "null"], "x-mcp-header": "Flag" },
        where: { type: "object", properties: { zone: { type: "string", "x-mcp-header": "Zone" } } },
        query: { type: "string", default: { "x-mcp-header": "NotASchema" } },
      },
      { examples: [{ "x-mcp-header": 1 }] },
    ),
  );
  assert.deepEqual(plan, {
    ok: true,
    headers: [
      { name: "Region", path: ["region"], type: "string" },
      { name: "N", path: ["n"], type: "integer" },
      { name: "Flag", path: ["flag"], type: "boolean" },
      { name: "Zone", path: ["where", "zone"], type: "string" },
    ],
  });
  assert.deepEqual(paramHeaderPlan({ type: "object" }), { ok: true, headers: [] });
  assert.deepEqual(paramHeaderPlan(undefined), { ok: true, headers: [] });
});

test("plan: every invalid annotation of the page (and of the official client scenario) names its rule", () => {
  const cases: [string, unknown, string][] = [
    ["empty name", schema({ v: { type: "string", "x-mcp-header": "" } }), "x-mcp-header-name"],
    ["space", schema({ v: { type: "string", "x-mcp-header": "My Region" } }), "x-mcp-header-name"],
    ["colon", schema({ v: { type: "string", "x-mcp-header": "Region:Primary" } }), "x-mcp-header-name"],
    ["non-ASCII", schema({ v: { type: "string", "x-mcp-header": "Région" } }), "x-mcp-header-name"],
    ["control char", schema({ v: { type: "string", "x-mcp-header": "Region\t1" } }), "x-mcp-header-name"],
    ["CR LF", schema({ v: { type: "string", "x-mcp-header": "A\r\nB" } }), "x-mcp-header-name"],
    ["not a string", schema({ v: { type: "string", "x-mcp-header": 7 } }), "x-mcp-header-name"],
    ["object", schema({ v: { type: "object", "x-mcp-header": "Data" } }), "x-mcp-header-type"],
    [
      "array",
      schema({ v: { type: "array", items: { type: "string" }, "x-mcp-header": "Items" } }),
      "x-mcp-header-type",
    ],
    ["null", schema({ v: { type: "null", "x-mcp-header": "Nil" } }), "x-mcp-header-type"],
    ["number", schema({ v: { type: "number", "x-mcp-header": "Score" } }), "x-mcp-header-type"],
    ["no type", schema({ v: { "x-mcp-header": "Any" } }), "x-mcp-header-type"],
    ["two types", schema({ v: { type: ["string", "integer"], "x-mcp-header": "Two" } }), "x-mcp-header-type"],
    [
      "same case",
      schema({ a: { type: "string", "x-mcp-header": "Region" }, b: { type: "string", "x-mcp-header": "Region" } }),
      "x-mcp-header-duplicate",
    ],
    [
      "other case",
      schema({ a: { type: "string", "x-mcp-header": "MyField" }, b: { type: "string", "x-mcp-header": "myfield" } }),
      "x-mcp-header-duplicate",
    ],
    [
      "nested duplicate",
      schema({
        a: { type: "string", "x-mcp-header": "X" },
        o: { type: "object", properties: { b: { type: "string", "x-mcp-header": "x" } } },
      }),
      "x-mcp-header-duplicate",
    ],
    ["root", { type: "object", "x-mcp-header": "Root" }, "x-mcp-header-unreachable"],
    [
      "items",
      schema({ list: { type: "array", items: { type: "string", "x-mcp-header": "Item" } } }),
      "x-mcp-header-unreachable",
    ],
    [
      "prefixItems",
      schema({ t: { type: "array", prefixItems: [{ type: "string", "x-mcp-header": "P" }] } }),
      "x-mcp-header-unreachable",
    ],
    [
      "oneOf",
      { type: "object", oneOf: [schema({ v: { type: "string", "x-mcp-header": "V" } })] },
      "x-mcp-header-unreachable",
    ],
    [
      "anyOf inside a property",
      schema({ v: { anyOf: [{ type: "string", "x-mcp-header": "V" }] } }),
      "x-mcp-header-unreachable",
    ],
    [
      "if/then",
      { type: "object", if: {}, then: schema({ v: { type: "string", "x-mcp-header": "V" } }) },
      "x-mcp-header-unreachable",
    ],
    [
      "$defs behind $ref",
      schema({ v: { $ref: "#/$defs/s" } }, { $defs: { s: { type: "string", "x-mcp-header": "S" } } }),
      "x-mcp-header-unreachable",
    ],
    [
      "additionalProperties",
      { type: "object", additionalProperties: { type: "string", "x-mcp-header": "A" } },
      "x-mcp-header-unreachable",
    ],
  ];
  for (const [what, s, rule] of cases) {
    const plan = paramHeaderPlan(s);
    assert.equal(plan.ok, false, what);
    if (!plan.ok) {
      assert.equal(plan.rule, rule, `${what}: ${plan.detail}`);
      assert.ok(plan.detail.length > 0);
    }
  }
  let deep: Record<string, unknown> = { type: "string", "x-mcp-header": "Deep" };
  for (let i = 0; i < 100; i++) deep = { type: "object", properties: { p: deep } };
  assert.equal((paramHeaderPlan(deep) as { rule?: string }).rule, "x-mcp-header-too-deep");
});

const PLAN: ParamHeader[] = [
  { name: "Region", path: ["region"], type: "string" },
  { name: "Priority", path: ["priority"], type: "integer" },
  { name: "Verbose", path: ["verbose"], type: "boolean" },
  { name: "Zone", path: ["where", "zone"], type: "string" },
];

test("Mcp-Param headers for a call: encoded values, nested paths, null and absent values omitted", () => {
  assert.deepEqual(
    paramHeaders(PLAN, {
      region: "Hello, 世界",
      priority: 42,
      verbose: false,
      where: { zone: "b" },
      query: "SELECT 1",
    }),
    {
      "mcp-param-region": "=?base64?SGVsbG8sIOS4lueVjA==?=",
      "mcp-param-priority": "42",
      "mcp-param-verbose": "false",
      "mcp-param-zone": "b",
    },
  );
  assert.deepEqual(paramHeaders(PLAN, { region: "us", priority: -7, verbose: null }), {
    "mcp-param-region": "us",
    "mcp-param-priority": "-7",
  });
  assert.deepEqual(paramHeaders(PLAN, undefined), {});
  assert.deepEqual(paramHeaders(PLAN, { region: { not: "primitive" }, where: "not an object" }), {});
});

test("server check: standard headers and Mcp-Param headers must agree with the body", () => {
  const args = { region: "us-west1", priority: 42, where: { zone: "Hello, 世界" } };
  const params = { name: "execute", arguments: args };
  const good = {
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": "tools/call",
    "mcp-name": "execute",
    ...paramHeaders(PLAN, args),
  };
  const check = (h: Record<string, string | undefined>, p: Record<string, unknown> = params) =>
    headerMismatch(h, "tools/call", p, "2026-07-28", PLAN);
  assert.equal(check(good), undefined);
  assert.equal(check({ ...good, "mcp-param-priority": "42.0" }), undefined, "integers compare numerically");
  assert.match(check({ ...good, "mcp-protocol-version": undefined }) ?? "", /MCP-Protocol-Version header is missing/);
  assert.match(
    check({ ...good, "mcp-protocol-version": "2026-12-01" }) ?? "",
    /does not match body value '2026-07-28'/,
  );
  assert.match(check({ ...good, "mcp-method": "tools/list" }) ?? "", /^Mcp-Method header value 'tools\/list'/);
  assert.match(check({ ...good, "mcp-name": undefined }) ?? "", /Mcp-Name header is missing/);
  assert.match(
    check({ ...good, "mcp-name": "other" }) ?? "",
    /Mcp-Name header value 'other' does not match body value 'execute'/,
  );
  assert.match(check({ ...good, "mcp-name": "=?base64?!!?=" }) ?? "", /not a valid Base64 sentinel/);
  assert.match(check({ ...good, "mcp-param-region": undefined }) ?? "", /^Mcp-Param-Region header is missing/);
  assert.match(
    check({ ...good, "mcp-param-region": "eu-west1" }) ?? "",
    /^Mcp-Param-Region header value 'eu-west1' does not match body value "us-west1"/,
  );
  assert.match(check({ ...good, "mcp-param-priority": "41" }) ?? "", /^Mcp-Param-Priority/);
  assert.match(
    check({ ...good, "mcp-param-zone": "Hello, 世界" }) ?? "",
    /^Mcp-Param-Zone header value contains invalid characters/,
  );
  assert.match(
    check({ ...good, "mcp-param-verbose": "true" }) ?? "",
    /^Mcp-Param-Verbose header is present but verbose has no value/,
  );
  assert.equal(check({ ...good, "mcp-param-unknown": "x" }), undefined, "an unrecognized Mcp-Param header is ignored");
  // Without a plan (another method, an unknown tool) only the standard headers are checked.
  assert.equal(
    headerMismatch(
      { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/list" },
      "tools/list",
      {},
      "2026-07-28",
    ),
    undefined,
  );
  assert.match(
    headerMismatch(
      { "mcp-protocol-version": "2026-07-28", "mcp-method": "prompts/get" },
      "prompts/get",
      { name: "p" },
      "2026-07-28",
    ) ?? "",
    /Mcp-Name header is missing/,
  );
});
