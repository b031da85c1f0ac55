// An elicitation's requestedSchema (a flat object of primitive properties, the spec's restricted
// JSON Schema) read into form fields, bounded and sanitized; the defaults it names; and the check
// that an answer fits it before anything is sent back.
import type { Rule } from "../../protocol/rules.js";
import { isObject } from "../../protocol/is-object.js";
import { sanitizeInline, truncateChars } from "../../protocol/sanitize.js";

const MAX_FIELDS = 64;
const MAX_OPTIONS = 100;
const MAX_TEXT = 500;
const MAX_VALUE = 10_000;

export type FormValue = string | number | boolean | string[];
export interface FieldOption {
  value: string;
  label: string;
}
interface FieldBase {
  key: string;
  title: string;
  description?: string;
  required: boolean;
}
export type FormField = FieldBase &
  (
    | { kind: "string"; format?: string; minLength?: number; maxLength?: number; default?: string }
    | { kind: "number" | "integer"; minimum?: number; maximum?: number; default?: number }
    | { kind: "boolean"; default?: boolean }
    | { kind: "enum"; options: FieldOption[]; default?: string }
    | { kind: "multi"; options: FieldOption[]; minItems?: number; maxItems?: number; default?: string[] }
  );

export type Parsed<T> = { ok: true; value: T } | { ok: false; detail: string; rule?: Rule };

const text = (v: unknown): string | undefined =>
  typeof v === "string" ? truncateChars(sanitizeInline(v), MAX_TEXT) : undefined;
const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

/** `enum` (+ legacy `enumNames`), `oneOf`/`anyOf` of {const, title}: the choices, or undefined. */
function optionsOf(p: Record<string, unknown>): FieldOption[] | undefined | string {
  const titled = Array.isArray(p.oneOf) ? p.oneOf : Array.isArray(p.anyOf) ? p.anyOf : undefined;
  const list: unknown[] | undefined = Array.isArray(p.enum) ? p.enum : titled;
  if (!list) return undefined;
  if (list.length > MAX_OPTIONS) return `${list.length} choices (at most ${MAX_OPTIONS})`;
  const names = Array.isArray(p.enumNames) ? p.enumNames : [];
  const out: FieldOption[] = [];
  for (const [i, o] of list.entries()) {
    const value = titled && !Array.isArray(p.enum) ? (isObject(o) ? o.const : undefined) : o;
    if (typeof value !== "string") return "a choice that is not a string";
    out.push({
      value: truncateChars(value, MAX_TEXT),
      label: text(titled && isObject(o) ? o.title : names[i]) ?? sanitizeInline(truncateChars(value, MAX_TEXT)),
    });
  }
  return out;
}

function fieldOf(key: string, p: unknown, required: boolean): Parsed<FormField> {
  const bad = (why: string): Parsed<FormField> => ({
    ok: false,
    detail: `field ${JSON.stringify(sanitizeInline(truncateChars(key, 64)))}: ${why}`,
  });
  if (!isObject(p)) return bad("not a schema object");
  const base: FieldBase = { key, title: text(p.title) ?? sanitizeInline(truncateChars(key, 64)), required };
  const description = text(p.description);
  if (description) base.description = description;
  const type = p.type;
  if (type === "array") {
    const items = isObject(p.items) ? optionsOf(p.items) : undefined;
    if (typeof items === "string") return bad(items);
    if (!items) return bad("an array without enum items");
    const def =
      Array.isArray(p.default) && p.default.every((d) => typeof d === "string" && items.some((o) => o.value === d))
        ? (p.default as string[])
        : undefined;
    return {
      ok: true,
      value: {
        ...base,
        kind: "multi",
        options: items,
        minItems: num(p.minItems),
        maxItems: num(p.maxItems),
        default: def,
      },
    };
  }
  if (type === "string") {
    const options = optionsOf(p);
    if (typeof options === "string") return bad(options);
    if (options) {
      const def = typeof p.default === "string" && options.some((o) => o.value === p.default) ? p.default : undefined;
      return { ok: true, value: { ...base, kind: "enum", options, default: def } };
    }
    const def = typeof p.default === "string" ? truncateChars(p.default, MAX_VALUE) : undefined;
    return {
      ok: true,
      value: {
        ...base,
        kind: "string",
        format: text(p.format),
        minLength: num(p.minLength),
        maxLength: num(p.maxLength),
        default: def,
      },
    };
  }
  if (type === "number" || type === "integer")
    return {
      ok: true,
      value: { ...base, kind: type, minimum: num(p.minimum), maximum: num(p.maximum), default: num(p.default) },
    };
  if (type === "boolean")
    return {
      ok: true,
      value: { ...base, kind: "boolean", default: typeof p.default === "boolean" ? p.default : undefined },
    };
  return bad(
    `type ${JSON.stringify(typeof type === "string" ? sanitizeInline(truncateChars(type, 20)) : (type ?? null))} is not a form type`,
  );
}

/** The form a requestedSchema describes, or why it cannot be drawn. */
export function parseForm(schema: unknown): Parsed<FormField[]> {
  if (!isObject(schema) || (schema.type !== undefined && schema.type !== "object"))
    return { ok: false, detail: "requestedSchema is not an object schema" };
  const props = schema.properties ?? {};
  if (!isObject(props)) return { ok: false, detail: "requestedSchema.properties is not an object" };
  const keys = Object.keys(props);
  if (keys.length > MAX_FIELDS) return { ok: false, detail: `${keys.length} fields (at most ${MAX_FIELDS})` };
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === "string") : []);
  const fields: FormField[] = [];
  for (const key of keys) {
    const f = fieldOf(key, props[key], required.has(key));
    if (!f.ok) return f;
    fields.push(f.value);
  }
  return { ok: true, value: fields };
}

/** The values the schema's defaults give (a field without one is left out). */
export function formDefaults(fields: readonly FormField[]): Record<string, FormValue> {
  const out: Record<string, FormValue> = {};
  for (const f of fields) if (f.default !== undefined) out[f.key] = f.default;
  return out;
}

/** Why `value` does not fit `f`, or undefined. */
export function fieldProblem(f: FormField, value: unknown): string | undefined {
  switch (f.kind) {
    case "string":
      if (typeof value !== "string") return "expected text";
      if (value.length > MAX_VALUE) return `longer than ${MAX_VALUE} characters`;
      if (f.minLength !== undefined && value.length < f.minLength) return `at least ${f.minLength} characters`;
      if (f.maxLength !== undefined && value.length > f.maxLength) return `at most ${f.maxLength} characters`;
      return f.format === undefined ? undefined : formatProblem(f.format, value);
    case "number":
    case "integer":
      if (typeof value !== "number" || !Number.isFinite(value)) return "expected a number";
      if (f.kind === "integer" && !Number.isInteger(value)) return "expected an integer";
      if (f.minimum !== undefined && value < f.minimum) return `at least ${f.minimum}`;
      if (f.maximum !== undefined && value > f.maximum) return `at most ${f.maximum}`;
      return undefined;
    case "boolean":
      return typeof value === "boolean" ? undefined : "expected true or false";
    case "enum":
      return typeof value === "string" && f.options.some((o) => o.value === value)
        ? undefined
        : `expected one of ${f.options.map((o) => o.value).join(", ")}`;
    case "multi":
      if (!Array.isArray(value) || !value.every((v) => typeof v === "string" && f.options.some((o) => o.value === v)))
        return `expected a list of ${f.options.map((o) => o.value).join(", ")}`;
      if (f.minItems !== undefined && value.length < f.minItems) return `at least ${f.minItems} choices`;
      if (f.maxItems !== undefined && value.length > f.maxItems) return `at most ${f.maxItems} choices`;
      return undefined;
  }
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;

function isCalendarDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
}

/**
 * The string formats an elicitation schema may name (email, uri, date, date-time; RFC 3339 for
 * the dates): why `value` is not one, or undefined. A format it does not know is not checked.
 */
export function formatProblem(format: string, value: string): string | undefined {
  switch (format) {
    case "email":
      return /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(value) ? undefined : "expected an email address";
    case "uri":
      return URL.canParse(value) ? undefined : "expected an absolute URI (scheme:…)";
    case "date":
      return isCalendarDate(value) ? undefined : "expected a date, YYYY-MM-DD";
    case "date-time": {
      const m = DATE_TIME.exec(value);
      const ok =
        m !== null &&
        isCalendarDate(m[1]) &&
        Number(m[2]) < 24 &&
        Number(m[3]) < 60 &&
        Number(m[4]) < 61 &&
        (m[5] === undefined || (Number(m[5]) < 24 && Number(m[6]) < 60));
      return ok ? undefined : "expected a date and time, YYYY-MM-DDTHH:MM:SSZ (or an offset)";
    }
    default:
      return undefined;
  }
}

/** The answer with the schema's defaults filled in, checked against the form; or the first problem. */
export function checkAnswer(fields: readonly FormField[], answer: unknown): Parsed<Record<string, FormValue>> {
  if (!isObject(answer)) return { ok: false, detail: "the answer is not a JSON object" };
  const known = new Set(fields.map((f) => f.key));
  const extra = Object.keys(answer).find((k) => !known.has(k));
  if (extra !== undefined)
    return { ok: false, detail: `no field ${JSON.stringify(sanitizeInline(truncateChars(extra, 64)))} in the form` };
  const content: Record<string, FormValue> = { ...formDefaults(fields), ...(answer as Record<string, FormValue>) };
  for (const f of fields) {
    if (!(f.key in content)) {
      if (f.required) return { ok: false, detail: `${f.key}: required` };
      continue;
    }
    const problem = fieldProblem(f, content[f.key]);
    if (problem) return { ok: false, detail: `${f.key}: ${problem}` };
  }
  return { ok: true, value: content };
}
