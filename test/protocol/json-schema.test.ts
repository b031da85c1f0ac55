// JSON Schema dialects as the ecosystem writes them: `$schema` picks the Ajv (http or https,
// with or without '#'), none means 2020-12, draft-04 is read as draft-07 after its rewrite,
// anything else does not compile; failures are cached per schema object; remote $refs are
// never fetched.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import {
  compiledSchemaCount,
  compileSchema,
  SchemaCompileError,
  schemaDialect,
  type SchemaDialect,
} from "../../src/protocol/json-schema.js";

const PATHS: Record<SchemaDialect, string> = {
  "2020-12": "json-schema.org/draft/2020-12/schema",
  "2019-09": "json-schema.org/draft/2019-09/schema",
  "draft-07": "json-schema.org/draft-07/schema",
  "draft-06": "json-schema.org/draft-06/schema",
  "draft-04": "json-schema.org/draft-04/schema",
};

test("every dialect URI form: http or https, with or without the trailing '#'", () => {
  for (const [dialect, path] of Object.entries(PATHS)) {
    for (const uri of [`http://${path}`, `https://${path}`, `http://${path}#`, `https://${path}#`]) {
      assert.equal(schemaDialect({ $schema: uri }), dialect, uri);
      assert.equal(typeof compileSchema({ $schema: uri, type: "object" }), "function", uri);
    }
  }
  assert.equal(schemaDialect({ type: "object" }), "2020-12", "no $schema means 2020-12");
});

test("each dialect is validated with its own semantics", () => {
  const v = (schema: object, value: unknown) => compileSchema(schema)(value);
  // 2020-12 (also with no $schema): prefixItems + items:false is a closed tuple.
  for (const $schema of [undefined, "http://json-schema.org/draft/2020-12/schema"]) {
    const s = { ...($schema ? { $schema } : {}), type: "array", prefixItems: [{ type: "string" }], items: false };
    assert.equal(v(s, ["a"]), true);
    assert.equal(v(s, ["a", 1]), false);
  }
  // 2019-09: the array form of items + additionalItems (not 2020-12's), and unevaluatedProperties.
  const tuple19 = {
    $schema: "https://json-schema.org/draft/2019-09/schema#",
    type: "array",
    items: [{ type: "string" }],
    additionalItems: false,
  };
  assert.equal(v(tuple19, ["a"]), true);
  assert.equal(v(tuple19, ["a", "b"]), false);
  const closed19 = {
    $schema: "https://json-schema.org/draft/2019-09/schema",
    type: "object",
    properties: { a: {} },
    unevaluatedProperties: false,
  };
  assert.equal(v(closed19, { a: 1 }), true);
  assert.equal(v(closed19, { a: 1, b: 2 }), false);
  // draft-07 (what zod emits through SDK 1.x): if/then/else and the tuple form of items.
  const cond7 = {
    $schema: "http://json-schema.org/draft-07/schema#",
    if: { properties: { kind: { const: "n" } } },
    then: { properties: { v: { type: "number" } } },
  };
  assert.equal(v(cond7, { kind: "n", v: 1 }), true);
  assert.equal(v(cond7, { kind: "n", v: "x" }), false);
  assert.equal(
    v(
      { $schema: "http://json-schema.org/draft-07/schema#", items: [{ type: "number" }], additionalItems: false },
      [1, 2],
    ),
    false,
  );
  // draft-06: const and contains.
  assert.equal(v({ $schema: "http://json-schema.org/draft-06/schema#", contains: { const: 3 } }, [1, 3]), true);
  assert.equal(v({ $schema: "http://json-schema.org/draft-06/schema#", contains: { const: 3 } }, [1, 2]), false);
  // draft-04: boolean exclusiveMinimum/Maximum, and `id` (which Ajv 8 refuses) tolerated.
  const d4 = {
    $schema: "http://json-schema.org/draft-04/schema#",
    id: "http://example.com/n.json",
    type: "object",
    properties: {
      id: { type: "string" },
      n: { type: "number", minimum: 0, exclusiveMinimum: true, maximum: 10, exclusiveMaximum: false },
    },
  };
  assert.equal(v(d4, { id: "x", n: 10 }), true);
  assert.equal(v(d4, { id: "x", n: 0 }), false, "exclusiveMinimum: true excludes 0");
  assert.equal(v(d4, { id: 1, n: 1 }), false, "a property named id is still a property");
  assert.deepEqual(
    d4.properties.n,
    { type: "number", minimum: 0, exclusiveMinimum: true, maximum: 10, exclusiveMaximum: false },
    "the declaration is not changed",
  );
});

test("any other dialect does not compile, with a reason naming it", () => {
  for (const $schema of ["http://json-schema.org/draft-03/schema#", "https://example.com/my-dialect", 7]) {
    assert.throws(
      () => compileSchema({ $schema }),
      (e: Error) => e instanceof SchemaCompileError && /unsupported JSON Schema dialect/.test(e.message),
    );
  }
});

test("a schema that does not compile is remembered per schema object (not recompiled on every use)", () => {
  const bad = { type: "nonsense" };
  let first: unknown;
  try {
    compileSchema(bad);
  } catch (e) {
    first = e;
  }
  assert.ok(first instanceof SchemaCompileError);
  const count = compiledSchemaCount();
  assert.throws(
    () => compileSchema(bad),
    (e) => e === first,
  );
  assert.equal(compiledSchemaCount(), count);
});

test("equal copies with the same $id both compile (no collision in Ajv's registry)", () => {
  const make = () => ({
    $id: "https://example.com/s.json",
    $schema: "http://json-schema.org/draft-07/schema#",
    type: "string",
  });
  assert.equal(compileSchema(make())("x"), true);
  assert.equal(compileSchema(make())(1), false);
});

test("a remote $ref is never fetched: compiling fails cleanly and the server gets no request", async () => {
  let requests = 0;
  const server = createServer((_req, res) => {
    requests++;
    res.end(JSON.stringify({ type: "string" }));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/schema.json`;
  try {
    for (const $schema of [
      undefined,
      "http://json-schema.org/draft-07/schema#",
      "https://json-schema.org/draft/2019-09/schema",
    ]) {
      assert.throws(
        () => compileSchema({ ...($schema ? { $schema } : {}), $ref: url }),
        (e: Error) => e instanceof SchemaCompileError && /can't resolve reference/.test(e.message),
      );
    }
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(requests, 0);
  } finally {
    await new Promise((r) => server.close(r));
  }
});

test("a compile failure's reason is bounded (Ajv quotes the schema)", () => {
  assert.throws(
    () => compileSchema({ $ref: `https://example.invalid/${"x".repeat(5000)}` }),
    (e: Error) => e instanceof SchemaCompileError && e.message.length <= 301 && e.message.endsWith("…"),
  );
});
