// Checks a tools/call result against the request BEFORE anything is routed. A violation rejects
// the whole result with a named rule; nothing is half-routed. One exception, for legacy results:
// a structuredContent that breaks its outputSchema is dropped with a warning, the content kept.
import {
  compileSchema,
  ContentBlockSchema,
  fastParseOutput,
  isCoreAudience,
  isExtensionAudience,
  sameSelector,
  selectorKey,
  ContentToolResultOutputSchema,
  StructuredToolResultOutputSchema,
  readBase64ImageHeader,
  DEFAULT_MAX_JSON_DEPTH,
  exceedsJsonDepth,
  tooDeepDetail,
  type ContentBlock,
  type JsonSchema,
  type ToolResultOutput,
  type ToolResultOutputSelector,
  type ToolResultVariant,
} from "../../protocol/index.js";
import { isObject } from "../../protocol/is-object.js";
import { firstIssueText } from "../../protocol/issue-text.js";

export type ValidationRule =
  | "invalid-result-type"
  | "malformed-result"
  | "malformed-output"
  | "missing-output"
  | "unrequested-output"
  | "duplicate-output"
  | "schema-violation"
  | "malformed-content"
  | "image-too-large"
  | "too-deep";

export class ResultValidationError extends Error {
  constructor(
    readonly rule: ValidationRule,
    message: string,
  ) {
    super(message);
    this.name = "ResultValidationError";
  }
}

export interface ValidationLimits {
  /** Largest image (header-claimed pixels) accepted in any content block. */
  maxImagePixels?: number;
  /** Deepest nesting of objects and arrays accepted in a result (checked before anything walks it). */
  maxJsonDepth?: number;
}

export interface ValidatedVariantResult {
  outputs: ToolResultOutput[];
  isError: boolean;
  meta: Record<string, unknown> | undefined;
}

/** What a legacy result lost or kept unchecked, and why (the rest of it is routed). */
export interface LegacyResultWarning {
  rule: "schema-violation" | "uncompilable-output-schema";
  detail: string;
}

export interface ValidatedLegacyResult {
  content: ContentBlock[];
  structuredContent?: unknown;
  isError: boolean;
  meta: Record<string, unknown> | undefined;
  warnings?: LegacyResultWarning[];
}

function fail(rule: ValidationRule, message: string): never {
  throw new ResultValidationError(rule, message);
}

function checkEnvelope(raw: unknown, limits: ValidationLimits): Record<string, unknown> {
  if (!isObject(raw)) fail("malformed-result", "result is not an object");
  // First: zod, Ajv, the router and the UI all recurse per level of a value.
  const maxDepth = limits.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH;
  if (exceedsJsonDepth(raw, maxDepth)) fail("too-deep", tooDeepDetail("the result", maxDepth));
  if (raw.resultType !== undefined && raw.resultType !== "complete") {
    fail("invalid-result-type", `resultType ${JSON.stringify(raw.resultType)} is not "complete"`);
  }
  if (raw.isError !== undefined && typeof raw.isError !== "boolean")
    fail("malformed-result", "isError is not a boolean");
  if (raw._meta !== undefined && !isObject(raw._meta)) fail("malformed-result", "_meta is not an object");
  return raw;
}

// Messages may reach the model (a failed call's receipt), so they carry no byte of the rejected
// output: only the request, the declaration and positions. Data-chosen object keys are redacted.
const declaredKeys = new WeakMap<object, Set<string>>();

/** Every property name the schema itself declares (anywhere in it). */
function schemaKeys(schema: JsonSchema): Set<string> {
  let keys = declaredKeys.get(schema);
  if (keys) return keys;
  const found = new Set<string>();
  const walk = (node: unknown, depth: number): void => {
    if (depth > 64 || typeof node !== "object" || node === null) return;
    if (Array.isArray(node)) return node.forEach((n) => walk(n, depth + 1));
    for (const [k, v] of Object.entries(node)) {
      if ((k === "properties" || k === "required") && typeof v === "object" && v !== null) {
        for (const name of Array.isArray(v) ? v : Object.keys(v)) if (typeof name === "string") found.add(name);
      }
      walk(v, depth + 1);
    }
  };
  walk(schema, 0);
  declaredKeys.set(schema, (keys = found));
  return keys;
}

/** The failing location as a JSON pointer in which keys the schema does not declare read `<key>`. */
function safePointer(pointer: string, schema: JsonSchema): string {
  if (pointer === "") return "value";
  const keys = schemaKeys(schema);
  return pointer
    .split("/")
    .slice(1)
    .map((raw) => {
      const seg = raw.replace(/~1/g, "/").replace(/~0/g, "~");
      return /^\d+$/.test(seg) || keys.has(seg) ? `/${raw}` : "/<key>";
    })
    .join("");
}

/** An output's selector as text: the audience only when core, requested or declared. */
function describeSelector(out: ToolResultOutputSelector, known: readonly ToolResultOutputSelector[]): string {
  if (isCoreAudience(out.audience) || known.some((k) => k.audience === out.audience)) return selectorKey(out);
  return `an undeclared extension audience (${out.audience.length} chars)/${out.format}`;
}

// Where a failure is (`where`) is worded only when the check fails: every call runs these checks,
// and a closure or string made up front would be made for nothing.

/** Validates a structured value against its variant's schema (compiled once per schema object). */
function checkStructured(where: ToolResultOutputSelector, schema: JsonSchema | undefined, value: unknown): void {
  if (!schema) return;
  let fn;
  try {
    fn = compileSchema(schema);
  } catch (e) {
    fail("schema-violation", `${selectorKey(where)}: the declared schema does not compile: ${(e as Error).message}`);
  }
  if (!runValidator(fn, value)) {
    const e = fn.errors?.[0];
    const why = e ? `${safePointer(e.instancePath, schema)} ${e.message ?? "is invalid"}` : "does not match its schema";
    fail("schema-violation", `${selectorKey(where)}: ${why}`);
  }
}

/**
 * Runs a validator. The value's depth is bounded before this, so only a schema whose $ref
 * recursion never descends into the value (`{"$ref": "#"}`) can exhaust the stack: that is
 * the schema's fault, reported as `too-deep` instead of a crash.
 */
function runValidator(fn: (v: unknown) => boolean, value: unknown): boolean {
  try {
    return fn(value);
  } catch (e) {
    if (e instanceof RangeError)
      fail("too-deep", "validation exhausted the stack: the schema's $ref recursion does not descend into the value");
    throw e;
  }
}

/**
 * Rejects an image whose header claims more pixels than the limit, or whose header cannot be
 * trusted (two PNG IHDRs, two JPEG frame sizes, a GIF without an image): read in place by the one
 * header reader, the same one the terminal's decoders obey. Formats it does not know pass.
 */
function checkImages(
  output: { index: number; selector: ToolResultOutputSelector } | "result",
  blocks: readonly ContentBlock[],
  maxPixels: number | undefined,
): void {
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i];
    if (b.type !== "image") continue;
    const verdict = readBase64ImageHeader(b.data);
    if (!verdict) continue;
    const where = () =>
      `${output === "result" ? "result" : `outputs[${output.index}] (${selectorKey(output.selector)})`} content[${i}]`;
    if (!verdict.ok) fail("malformed-content", `${where()}: ${verdict.reason}`);
    const size = verdict.header;
    if (maxPixels === undefined || size.width * size.height <= maxPixels) continue;
    const mp = (n: number) => `${(n / 1e6).toFixed(1)} MP`;
    fail(
      "image-too-large",
      `${where()}: ${size.format.toUpperCase()} header claims ${size.width}×${size.height} pixels (${mp(size.width * size.height)}; limit ${mp(maxPixels)})`,
    );
  }
}

/** The general (zod) parse of one output; it words the error of a malformed one. */
function parseOutput(o: unknown, i: number): ToolResultOutput {
  const format = isObject(o) ? o.format : undefined;
  const schema =
    format === "content"
      ? ContentToolResultOutputSchema
      : format === "structured"
        ? StructuredToolResultOutputSchema
        : undefined;
  if (!schema) fail("malformed-output", `outputs[${i}]: format must be "content" or "structured"`);
  const parsed = schema.safeParse(o);
  if (!parsed.success) fail("malformed-output", `outputs[${i}]: ${firstIssueText(parsed.error)}`);
  return parsed.data as ToolResultOutput;
}

/**
 * A 2026-12-01 result: exactly one output per requested selector (the fallback when none was
 * sent), none unrequested, none twice, each well-formed and valid against THAT variant's schema.
 * isError results may omit selectors the server could not represent, and skip success schemas.
 */
export function validateVariantResult(
  raw: unknown,
  requested: readonly ToolResultOutputSelector[],
  variants: readonly ToolResultVariant[],
  limits: ValidationLimits = {},
): ValidatedVariantResult {
  const r = checkEnvelope(raw, limits);
  if (!Array.isArray(r.outputs)) fail("malformed-result", "outputs is not an array");
  const isError = r.isError === true;
  // Plain loops: this runs for every output of every call. The array is made at its final length
  // (a first push would give it room for 17); a failure throws before any hole is seen.
  const outputs = new Array<ToolResultOutput>(r.outputs.length);
  for (let i = 0; i < outputs.length; i++) {
    const out = fastParseOutput(r.outputs[i]) ?? parseOutput(r.outputs[i], i);
    if (indexOfSelector(requested, out) < 0) {
      fail(
        "unrequested-output",
        `outputs[${i}] is ${describeSelector(out, [...requested, ...variants])}, which was not requested`,
      );
    }
    if (indexOfSelector(outputs, out, i) >= 0)
      fail("duplicate-output", `outputs[${i}]: ${selectorKey(out)} appears more than once`);
    outputs[i] = out;
  }
  for (let i = 0; i < outputs.length; i++) {
    const o = outputs[i];
    if (o.format === "content" && hasImage(o.content))
      checkImages({ index: i, selector: o }, o.content, limits.maxImagePixels);
  }
  if (outputs.length < requested.length) {
    const missing = requested.filter((s) => indexOfSelector(outputs, s) < 0);
    if (missing.length > 0 && (!isError || outputs.length === 0)) {
      fail("missing-output", `no output for requested ${missing.map(selectorKey).join(", ")}`);
    }
  }
  if (!isError) {
    for (const out of outputs) {
      if (out.format !== "structured") continue;
      const v = variants[indexOfSelector(variants, out)];
      checkStructured(out, v && v.format === "structured" ? v.schema : undefined, out.structuredContent);
    }
  }
  return { outputs, isError, meta: r._meta as Record<string, unknown> | undefined };
}

function hasImage(blocks: readonly ContentBlock[]): boolean {
  for (let i = 0; i < blocks.length; i++) if (blocks[i].type === "image") return true;
  return false;
}

/** The index of `s` among the first `end` selectors of `list` (all of them by default), or -1. */
function indexOfSelector(
  list: readonly ToolResultOutputSelector[],
  s: ToolResultOutputSelector,
  end = list.length,
): number {
  for (let i = 0; i < end; i++) if (sameSelector(list[i], s)) return i;
  return -1;
}

/**
 * A legacy result's structuredContent against its outputSchema: undefined when it passes (or
 * there is no schema), else the warning. A schema that does not compile leaves the value
 * unvalidated; a value that breaks it is dropped.
 */
function checkLegacyStructured(schema: JsonSchema | undefined, value: unknown): LegacyResultWarning | undefined {
  if (!schema) return undefined;
  let fn;
  try {
    fn = compileSchema(schema);
  } catch (e) {
    return {
      rule: "uncompilable-output-schema",
      detail: `structuredContent passed on unvalidated: the outputSchema does not compile: ${(e as Error).message}`,
    };
  }
  let valid: boolean;
  try {
    valid = runValidator(fn, value);
  } catch (e) {
    if (!(e instanceof ResultValidationError)) throw e;
    return { rule: "uncompilable-output-schema", detail: `structuredContent passed on unvalidated: ${e.message}` };
  }
  if (valid) return undefined;
  const e = fn.errors?.[0];
  const why = e ? `${safePointer(e.instancePath, schema)} ${e.message ?? "is invalid"}` : "does not match its schema";
  return {
    rule: "schema-violation",
    detail: `structuredContent dropped: ${why} (outputSchema); the content is routed`,
  };
}

/**
 * A 2026-07-28-or-earlier result: a well-formed content array. A structuredContent that breaks
 * the outputSchema costs only itself (dropped, with a warning): content is the legacy result's
 * primary part, and the model's share does not depend on the structured one.
 */
export function validateLegacyResult(
  raw: unknown,
  outputSchema: JsonSchema | undefined,
  limits: ValidationLimits = {},
): ValidatedLegacyResult {
  const r = checkEnvelope(raw, limits);
  if (!Array.isArray(r.content)) fail("malformed-content", "content is not an array");
  const content: ContentBlock[] = r.content.map((b, i) => {
    const parsed = ContentBlockSchema.safeParse(b);
    if (!parsed.success) fail("malformed-content", `content[${i}]: ${firstIssueText(parsed.error)}`);
    return parsed.data;
  });
  checkImages("result", content, limits.maxImagePixels);
  const isError = r.isError === true;
  const warning =
    !isError && r.structuredContent !== undefined
      ? checkLegacyStructured(outputSchema, r.structuredContent)
      : undefined;
  const result: ValidatedLegacyResult = { content, isError, meta: r._meta as Record<string, unknown> | undefined };
  if (warning) result.warnings = [warning];
  if (r.structuredContent !== undefined && warning?.rule !== "schema-violation")
    result.structuredContent = r.structuredContent;
  return result;
}

/** Extension ids among the requested selectors (their namespaced `_meta` may reach the App sink). */
export function requestedExtensions(requested: readonly ToolResultOutputSelector[]): string[] {
  return [...new Set(requested.filter((s) => isExtensionAudience(s.audience)).map((s) => s.audience))];
}
