// JSON Schema 2020-12 (the MCP default dialect) compiled once per schema object with Ajv.
// The SDK's default Ajv is draft-07 and mis-validates 2020-12 keywords, so it is not used.
import { Ajv2020, type ValidateFunction, type ErrorObject } from "ajv/dist/2020.js";

export class SchemaCompileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SchemaCompileError";
  }
}

const DRAFT_2020 = "https://json-schema.org/draft/2020-12/schema";

function newAjv(): Ajv2020 {
  // strict: false so unknown keywords (vendor annotations) do not break a declaration;
  // no loadSchema: network $refs are never dereferenced.
  return new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
}

let ajv = newAjv();
const cache = new WeakMap<object, ValidateFunction>();
let compiledCount = 0;

/** Compiles (or returns the cached validator of) a schema object. Throws SchemaCompileError. */
export function compileSchema(schema: object): ValidateFunction {
  const hit = cache.get(schema);
  if (hit) return hit;
  const dialect = (schema as { $schema?: unknown }).$schema;
  if (dialect !== undefined && dialect !== DRAFT_2020 && dialect !== `${DRAFT_2020}#`) {
    throw new SchemaCompileError(`unsupported JSON Schema dialect ${JSON.stringify(dialect)} (2020-12 is supported)`);
  }
  let fn: ValidateFunction;
  try {
    // A schema's own $id would collide on recompiling an equal copy: compile a fresh copy without it.
    const { $id: _ignored, ...rest } = schema as Record<string, unknown>;
    fn = ajv.compile(rest);
  } catch (e) {
    throw new SchemaCompileError((e as Error).message);
  }
  cache.set(schema, fn);
  compiledCount++;
  if (compiledCount % 5000 === 0) ajv = newAjv(); // bound Ajv's internal cache on long runs
  return fn;
}

/** How many schemas were compiled so far (benchmarks check validators are not compiled per call). */
export function compiledSchemaCount(): number {
  return compiledCount;
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
