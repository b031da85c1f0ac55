// JSON Schema as the ecosystem writes it, compiled once per schema object with Ajv. The dialect
// comes from `$schema` (http or https, with or without the trailing '#'); none means 2020-12, the
// MCP default. SDK 1.x servers built with zod emit draft-07, so every common dialect is read:
//   2020-12 → Ajv2020 · 2019-09 → Ajv2019 · draft-07 and draft-06 → Ajv (draft-07; draft-06 is a
//   subset of it) · draft-04 → Ajv (draft-07) after rewriting what draft-07 reads differently:
//   boolean exclusiveMinimum/exclusiveMaximum become the numeric form, and `id` (a base URI Ajv 8
//   refuses) is dropped, so a $ref relative to it fails to compile (Ajv 8 has no draft-04 mode).
//   Any other `$schema` does not compile.
// Network $refs are never dereferenced (no loadSchema): a remote $ref fails to compile.
// `pattern` and `patternProperties` run on RE2 (re2js), whose matching is linear in the value's
// length whatever the pattern: a server's schema must not be able to freeze the host with a
// catastrophic regular expression (`^(a+)+$`). What RE2 cannot express (backreferences,
// lookahead, lookbehind) makes the schema uncompilable; there is no fallback to backtracking.
import { Ajv, type ValidateFunction, type ErrorObject } from "ajv/dist/ajv.js";
import type { RegExpEngine } from "ajv/dist/types/index.js";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import { RE2JS } from "re2js";

export class SchemaCompileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SchemaCompileError";
  }
}

export type SchemaDialect = "2020-12" | "2019-09" | "draft-07" | "draft-06" | "draft-04";

const DIALECT_PATHS: Record<string, SchemaDialect> = {
  "json-schema.org/draft/2020-12/schema": "2020-12",
  "json-schema.org/draft/2019-09/schema": "2019-09",
  "json-schema.org/draft-07/schema": "draft-07",
  "json-schema.org/draft-06/schema": "draft-06",
  "json-schema.org/draft-04/schema": "draft-04",
};

/** The dialect a schema's `$schema` names (undefined `$schema` = 2020-12); throws SchemaCompileError for any other. */
export function schemaDialect(schema: object): SchemaDialect {
  const uri = (schema as { $schema?: unknown }).$schema;
  if (uri === undefined) return "2020-12";
  const m = typeof uri === "string" ? /^https?:\/\/(.*?)#?$/.exec(uri) : null;
  const dialect = m ? DIALECT_PATHS[m[1]] : undefined;
  if (dialect === undefined) {
    const shown = typeof uri === "string" && uri.length > 120 ? `${uri.slice(0, 120)}…` : JSON.stringify(uri);
    throw new SchemaCompileError(
      `unsupported JSON Schema dialect ${shown} (2020-12, 2019-09, draft-07, draft-06 and draft-04 are read)`,
    );
  }
  return dialect;
}

/**
 * Ajv's regular-expression engine: ECMAScript syntax translated to RE2, matched in linear time.
 * Throws (so the schema does not compile) on a pattern RE2 cannot run. `test` searches, as
 * JSON Schema's `pattern` does (unanchored); the `u` flag is implied (RE2 matches code points).
 */
export const linearRegExp: RegExpEngine = Object.assign(
  (pattern: string): { test(s: string): boolean; toString(): string } => {
    let re: RE2JS;
    try {
      re = RE2JS.compile(RE2JS.translateRegExp(pattern));
    } catch (e) {
      const shown = pattern.length > 80 ? `${pattern.slice(0, 80)}…` : pattern;
      const why = String((e as Error)?.message ?? e).replace(/^error parsing regexp: /, "");
      throw new SchemaCompileError(
        `pattern ${JSON.stringify(shown)} is not supported (${why}): patterns run on a linear-time engine without backreferences or lookaround`,
      );
    }
    // Ajv keys compiled patterns by toString(): the source keeps distinct patterns apart.
    return { test: (s: string) => re.test(s), toString: () => pattern };
  },
  { code: "linearRegExp" },
);

// strict: false so unknown keywords (vendor annotations) do not break a declaration;
// no loadSchema: network $refs are never dereferenced; formats are not checked (ajv-formats is
// not loaded, and a format is an annotation here); patterns run on linearRegExp.
const OPTIONS = { strict: false, allErrors: false, validateFormats: false, code: { regExp: linearRegExp } } as const;
type AnyAjv = Ajv | Ajv2019 | Ajv2020;
let instances: Partial<Record<"2020-12" | "2019-09" | "draft-07", AnyAjv>> = {};

function ajvFor(dialect: SchemaDialect): AnyAjv {
  const key = dialect === "2020-12" || dialect === "2019-09" ? dialect : "draft-07";
  let ajv = instances[key];
  if (ajv === undefined) {
    ajv = key === "2020-12" ? new Ajv2020(OPTIONS) : key === "2019-09" ? new Ajv2019(OPTIONS) : new Ajv(OPTIONS);
    instances[key] = ajv;
  }
  return ajv;
}

// Keywords whose values are data, not subschemas: a draft-04 rewrite never walks into them.
const DATA_KEYWORDS = new Set(["enum", "const", "default", "examples"]);

/** A draft-04 schema as draft-07 reads it: numeric exclusiveMinimum/exclusiveMaximum, no `id`. */
function fromDraft04(node: unknown, depth = 0): unknown {
  if (depth > 64 || typeof node !== "object" || node === null) return node;
  if (Array.isArray(node)) return node.map((n) => fromDraft04(n, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = DATA_KEYWORDS.has(k) ? v : fromDraft04(v, depth + 1);
  if (typeof out.id === "string") delete out.id; // `properties: {id: {…}}` is an object: kept
  for (const [flag, bound] of [
    ["exclusiveMinimum", "minimum"],
    ["exclusiveMaximum", "maximum"],
  ] as const) {
    if (typeof out[flag] !== "boolean") continue;
    if (out[flag] === true && typeof out[bound] === "number") {
      out[flag] = out[bound];
      delete out[bound];
    } else delete out[flag];
  }
  return out;
}

// Validators, and compile failures, per schema object: a schema that does not compile is not
// recompiled on every call that would use it.
const cache = new WeakMap<object, ValidateFunction | SchemaCompileError>();
const MAX_MESSAGE = 300;
let compiledCount = 0;

/** Compiles (or returns the cached validator of) a schema object. Throws SchemaCompileError. */
export function compileSchema(schema: object): ValidateFunction {
  const hit = cache.get(schema);
  if (hit instanceof SchemaCompileError) throw hit;
  if (hit) return hit;
  let fn: ValidateFunction;
  try {
    const dialect = schemaDialect(schema);
    // The dialect picked the Ajv, which validates the schema against its own meta-schema: the
    // copy compiled has no `$schema` (its http/https spelling would otherwise have to match
    // Ajv's registered one) and no `$id` (it would collide on recompiling an equal copy).
    const { $id: _id, $schema: _dialect, ...rest } = schema as Record<string, unknown>;
    fn = ajvFor(dialect).compile(dialect === "draft-04" ? (fromDraft04(rest) as object) : rest);
  } catch (e) {
    // Ajv's messages quote the schema (a $ref, a keyword path): bounded, they are shown to the user.
    const why = e instanceof SchemaCompileError ? e.message : String((e as Error)?.message ?? e);
    const err =
      e instanceof SchemaCompileError
        ? e
        : new SchemaCompileError(why.length > MAX_MESSAGE ? `${why.slice(0, MAX_MESSAGE)}…` : why);
    cache.set(schema, err);
    throw err;
  }
  cache.set(schema, fn);
  compiledCount++;
  if (compiledCount % 5000 === 0) instances = {}; // bound Ajv's internal caches on long runs
  return fn;
}

/** How many schemas were compiled so far (benchmarks check validators are not compiled per call). */
export function compiledSchemaCount(): number {
  return compiledCount;
}

/** The reason a schema does not compile, or undefined when it does. */
export function schemaCompileIssue(schema: object): string | undefined {
  try {
    compileSchema(schema);
    return undefined;
  } catch (e) {
    return e instanceof SchemaCompileError ? e.message : String(e);
  }
}

export function formatSchemaErrors(errors: ErrorObject[] | null | undefined): string {
  if (!errors || errors.length === 0) return "does not match its schema";
  const e = errors[0];
  const where = e.instancePath === "" ? "value" : e.instancePath;
  return `${where} ${e.message ?? "is invalid"}`;
}

/** Validates a value; returns undefined when valid, else a short reason. */
export function checkAgainstSchema(schema: object, value: unknown): string | undefined {
  const fn = compileSchema(schema);
  return fn(value) ? undefined : formatSchemaErrors(fn.errors);
}
