// The 2026-07-28 Streamable HTTP request-metadata headers, both sides: Mcp-Method / Mcp-Name,
// the Mcp-Param-{Name} headers mirrored from `x-mcp-header` tool parameters, the value encoding
// (Base64 sentinel), the annotation rules that make a tool definition invalid, and the server's
// header/body agreement check. Pure: header maps in, header maps or findings out.
import { isObject } from "./is-object.js";

const SENTINEL_PREFIX = "=?base64?";
const SENTINEL_SUFFIX = "?=";
/** What a client sends as is: visible ASCII and inner spaces (no control character, no edge whitespace). */
const PLAIN_VALUE = /^[\x21-\x7E](?:[\x20-\x7E]*[\x21-\x7E])?$/;
/** What a server accepts in a field value (RFC 9110: VCHAR, SP, HTAB). */
const FIELD_VALUE = /^[\x20-\x7E\t]*$/;
const UTF8 = new TextDecoder("utf-8", { fatal: true });
/** RFC 9110 field-name token: 1*tchar. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const SENTINEL = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/;

/** A header-safe value: plain visible ASCII as is, anything else in the Base64 sentinel form. */
export function headerValue(v: string): string {
  const plain = v === "" || (PLAIN_VALUE.test(v) && !(v.startsWith(SENTINEL_PREFIX) && v.endsWith(SENTINEL_SUFFIX)));
  return plain ? v : `${SENTINEL_PREFIX}${Buffer.from(v, "utf8").toString("base64")}${SENTINEL_SUFFIX}`;
}

/** Decodes the `=?base64?…?=` sentinel of Mcp-Name / Mcp-Param-*; undefined when malformed. */
export function decodeHeaderValue(value: string): string | undefined {
  const m = SENTINEL.exec(value);
  if (!m) return value.startsWith(SENTINEL_PREFIX) && value.endsWith(SENTINEL_SUFFIX) ? undefined : value;
  if (m[1].length % 4 !== 0) return undefined;
  try {
    return UTF8.decode(Buffer.from(m[1], "base64"));
  } catch {
    return undefined; // not UTF-8
  }
}

/** Methods whose `params.name` (or `params.uri`) is mirrored into Mcp-Name. */
const NAMED_METHODS: Readonly<Record<string, "name" | "uri">> = {
  "tools/call": "name",
  "resources/read": "uri",
  "prompts/get": "name",
};

type Params = Record<string, unknown> | undefined;

/** Mcp-Method and (for tools/call, resources/read, prompts/get) Mcp-Name, lower-cased names. */
export function standardHeaders(method: string, params: Params): Record<string, string> {
  const h: Record<string, string> = { "mcp-method": method };
  const field = NAMED_METHODS[method];
  const name = field ? params?.[field] : undefined;
  if (typeof name === "string") h["mcp-name"] = headerValue(name);
  return h;
}

// ------------------------------------------------------------------ x-mcp-header annotations

export type ParamType = "string" | "integer" | "boolean";
/** One mirrored parameter: `Mcp-Param-{name}` carries the argument at `path` (a chain of property keys). */
export interface ParamHeader {
  name: string;
  path: readonly string[];
  type: ParamType;
}
/** Why a tool's x-mcp-header annotations make its definition invalid. */
export interface HeaderAnnotationIssue {
  rule:
    | "x-mcp-header-name"
    | "x-mcp-header-type"
    | "x-mcp-header-duplicate"
    | "x-mcp-header-unreachable"
    | "x-mcp-header-too-deep";
  detail: string;
}
export type ParamHeaderPlan = { ok: true; headers: ParamHeader[] } | ({ ok: false } & HeaderAnnotationIssue);

const ANNOTATION = "x-mcp-header";
const MAX_DEPTH = 64;
/** Keywords whose value is one subschema / a map of subschemas / an array of subschemas. */
const ONE = [
  "additionalProperties",
  "items",
  "contains",
  "additionalItems",
  "unevaluatedItems",
  "unevaluatedProperties",
  "propertyNames",
  "not",
  "if",
  "then",
  "else",
];
const MAP = ["patternProperties", "dependentSchemas", "$defs", "definitions", "dependencies"];
const LIST = ["allOf", "anyOf", "oneOf", "prefixItems", "items"];

function primitiveType(schema: Record<string, unknown>): ParamType | undefined {
  const t = schema.type;
  const types = Array.isArray(t) ? t.filter((x) => x !== "null") : [t];
  if (types.length !== 1 || (Array.isArray(t) && t.length - types.length > 1)) return undefined;
  const only = types[0];
  return only === "string" || only === "integer" || only === "boolean" ? only : undefined;
}

/**
 * The Mcp-Param headers a tool's inputSchema designates, or the first rule its annotations break
 * (empty or non-token names, non-primitive or `number` types, case-insensitive duplicates, an
 * annotation not reached through `properties` keys alone). Only schema keywords are walked:
 * `default`, `const`, `enum` and `examples` hold data, not schemas.
 */
export function paramHeaderPlan(inputSchema: unknown): ParamHeaderPlan {
  const headers: ParamHeader[] = [];
  const seen = new Map<string, string>();
  let issue: HeaderAnnotationIssue | undefined;
  const fail = (rule: HeaderAnnotationIssue["rule"], detail: string) => void (issue ??= { rule, detail });
  const where = (path: readonly string[] | undefined) =>
    path === undefined
      ? "a schema not reached through properties alone"
      : path.length
        ? `property ${path.join(".")}`
        : "the schema root";

  const visit = (node: unknown, path: readonly string[] | undefined, depth: number): void => {
    if (issue || !isObject(node)) return;
    if (depth > MAX_DEPTH) return fail("x-mcp-header-too-deep", `inputSchema nests deeper than ${MAX_DEPTH} levels`);
    if (ANNOTATION in node) {
      const name = node[ANNOTATION];
      const at = where(path);
      if (path === undefined || path.length === 0)
        return fail(
          "x-mcp-header-unreachable",
          `x-mcp-header on ${at}: only properties reached through a chain of properties keys may be mirrored`,
        );
      if (typeof name !== "string" || !TOKEN.test(name)) {
        return fail(
          "x-mcp-header-name",
          `x-mcp-header ${JSON.stringify(name)} on ${at} is not an HTTP field-name token (non-empty; letters, digits, !#$%&'*+-.^_\`|~)`,
        );
      }
      const type = primitiveType(node);
      if (type === undefined)
        return fail(
          "x-mcp-header-type",
          `x-mcp-header ${name} on ${at} has type ${JSON.stringify(node.type ?? null)}: only string, integer or boolean may be mirrored`,
        );
      const key = name.toLowerCase();
      const other = seen.get(key);
      if (other !== undefined)
        return fail(
          "x-mcp-header-duplicate",
          `x-mcp-header ${name} on ${at} repeats ${other} (names are compared case-insensitively)`,
        );
      seen.set(key, `${name} on ${at}`);
      headers.push({ name, path, type });
    }
    if (isObject(node.properties))
      for (const [k, v] of Object.entries(node.properties))
        visit(v, path === undefined ? undefined : [...path, k], depth + 1);
    for (const k of ONE) visit(node[k], undefined, depth + 1);
    for (const k of MAP)
      if (isObject(node[k])) for (const v of Object.values(node[k] as object)) visit(v, undefined, depth + 1);
    for (const k of LIST)
      if (Array.isArray(node[k])) for (const v of node[k] as unknown[]) visit(v, undefined, depth + 1);
  };
  visit(inputSchema, [], 0);
  return issue ? { ok: false, ...issue } : { ok: true, headers };
}

/** The argument at a property path; undefined when absent. */
function valueAt(args: unknown, path: readonly string[]): unknown {
  let v = args;
  for (const k of path) {
    if (!isObject(v) || !Object.hasOwn(v, k)) return undefined;
    v = v[k];
  }
  return v;
}

/** A primitive argument as header text (string as is, integer decimal, boolean lower-case). */
function valueText(v: unknown): string | undefined {
  if (typeof v === "string") return v;
  if (typeof v === "boolean") return v ? "true" : "false";
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  return undefined;
}

/** Mcp-Param-{Name} headers for one call (lower-cased names); null or absent values are omitted. */
export function paramHeaders(plan: readonly ParamHeader[], args: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of plan) {
    const text = valueText(valueAt(args, p.path));
    if (text !== undefined) out[`mcp-param-${p.name.toLowerCase()}`] = headerValue(text);
  }
  return out;
}

// ------------------------------------------------------------------ server-side agreement check

/** Request headers as node:http gives them: lower-cased names. */
export type ReceivedHeaders = Readonly<Record<string, string | string[] | undefined>>;

const one = (h: ReceivedHeaders, name: string): string | undefined => {
  const v = h[name];
  return Array.isArray(v) ? v.join(", ") : v;
};

/**
 * The header/body mismatch of a modern request, as the text after "Header mismatch: ", or
 * undefined when the headers agree: MCP-Protocol-Version, Mcp-Method, Mcp-Name, and, when the
 * tool's plan is given, every Mcp-Param header whose parameter has a value in the body.
 */
export function headerMismatch(
  h: ReceivedHeaders,
  method: string,
  params: Params,
  version: string,
  plan?: readonly ParamHeader[],
): string | undefined {
  const pv = one(h, "mcp-protocol-version");
  if (pv === undefined) return "MCP-Protocol-Version header is missing";
  if (pv !== version) return `MCP-Protocol-Version header value '${pv}' does not match body value '${version}'`;
  const m = one(h, "mcp-method");
  if (m === undefined) return "Mcp-Method header is missing";
  if (m !== method) return `Mcp-Method header value '${m}' does not match body value '${method}'`;
  const field = NAMED_METHODS[method];
  if (field) {
    const source = params?.[field];
    const raw = one(h, "mcp-name");
    if (raw === undefined) return "Mcp-Name header is missing";
    const name = decodeHeaderValue(raw);
    if (name === undefined) return `Mcp-Name header value '${raw}' is not a valid Base64 sentinel`;
    if (name !== source) return `Mcp-Name header value '${name}' does not match body value '${String(source)}'`;
  }
  if (!plan) return undefined;
  const args = params?.arguments;
  for (const p of plan) {
    const header = `Mcp-Param-${p.name}`;
    const body = valueAt(args, p.path);
    const raw = one(h, `mcp-param-${p.name.toLowerCase()}`);
    if (body === undefined || body === null) {
      if (raw !== undefined) return `${header} header is present but ${p.path.join(".")} has no value in the body`;
      continue;
    }
    if (raw === undefined) return `${header} header is missing (the body has ${p.path.join(".")})`;
    if (!FIELD_VALUE.test(raw)) return `${header} header value contains invalid characters`;
    const text = decodeHeaderValue(raw);
    if (text === undefined) return `${header} header value '${raw}' is not a valid Base64 sentinel`;
    if (!sameValue(text, body))
      return `${header} header value '${text}' does not match body value ${JSON.stringify(body)}`;
  }
  return undefined;
}

/** Header text vs body value; numbers compare numerically ("42.0" equals 42). */
function sameValue(text: string, body: unknown): boolean {
  if (typeof body === "number") return text.trim() !== "" && Number(text) === body;
  return valueText(body) === text;
}
