// Builds call arguments from a tool's inputSchema: every required property gets a plausible
// value (default, examples, enum, const, then a type-based sample). Bounded recursion.
import { isObject } from "./wire.js";

const MAX_DEPTH = 6;

export function sampleArguments(inputSchema: unknown): Record<string, unknown> {
  const v = sampleValue(inputSchema, 0);
  return isObject(v) ? v : {};
}

function firstOf(schema: Record<string, unknown>): unknown {
  if ("default" in schema) return schema.default;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  return undefined;
}

function typeOf(schema: Record<string, unknown>): string | undefined {
  const t = schema.type;
  if (typeof t === "string") return t;
  if (Array.isArray(t)) return (t.find((x) => x !== "null") ?? t[0]) as string | undefined;
  if (isObject(schema.properties)) return "object";
  if (isObject(schema.items)) return "array";
  return undefined;
}

function sampleValue(schema: unknown, depth: number): unknown {
  if (!isObject(schema) || depth > MAX_DEPTH) return "test";
  const given = firstOf(schema);
  if (given !== undefined) return given;
  for (const key of ["anyOf", "oneOf", "allOf"] as const) {
    const list = schema[key];
    if (Array.isArray(list) && list.length > 0) {
      const pick = list.find((s) => !(isObject(s) && s.type === "null")) ?? list[0];
      return sampleValue({ ...schema, [key]: undefined, ...(pick as object) }, depth + 1);
    }
  }
  switch (typeOf(schema)) {
    case "object": {
      const out: Record<string, unknown> = {};
      const props = isObject(schema.properties) ? schema.properties : {};
      const required = Array.isArray(schema.required)
        ? schema.required.filter((r): r is string => typeof r === "string")
        : [];
      for (const name of required) out[name] = sampleValue(props[name], depth + 1);
      return out;
    }
    case "array": {
      const min = typeof schema.minItems === "number" ? Math.min(schema.minItems, 10) : 0;
      return Array.from({ length: min }, () => sampleValue(schema.items, depth + 1));
    }
    case "integer":
    case "number":
      return sampleNumber(schema);
    case "boolean":
      return false;
    case "null":
      return null;
    default:
      return sampleString(schema);
  }
}

function sampleNumber(schema: Record<string, unknown>): number {
  const int = schema.type === "integer";
  let n = 1;
  if (typeof schema.minimum === "number") n = schema.minimum;
  else if (typeof schema.exclusiveMinimum === "number")
    n = int ? Math.floor(schema.exclusiveMinimum) + 1 : schema.exclusiveMinimum + 1;
  if (typeof schema.maximum === "number" && n > schema.maximum) n = schema.maximum;
  return int ? Math.ceil(n) : n;
}

function sampleString(schema: Record<string, unknown>): string {
  const formats: Record<string, string> = {
    date: "2026-01-01",
    "date-time": "2026-01-01T00:00:00Z",
    time: "00:00:00Z",
    email: "test@example.com",
    uri: "https://example.com/",
    uuid: "00000000-0000-4000-8000-000000000000",
  };
  let s = typeof schema.format === "string" && formats[schema.format] ? formats[schema.format] : "test";
  const min = typeof schema.minLength === "number" ? schema.minLength : 0;
  while (s.length < min) s += "x";
  if (typeof schema.maxLength === "number") s = s.slice(0, Math.max(schema.maxLength, min));
  return s;
}
