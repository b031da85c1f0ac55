import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { buildToolNameMap, MODEL_TOOL_NAME } from "../../src/model/tool-names.js";
import { tool } from "./support.js";

test("clean unique names are kept as they are", () => {
  const map = buildToolNameMap([tool("search_customers"), tool("generate-images")]);
  assert.deepEqual(
    map.tools.map((t) => t.name),
    ["search_customers", "generate-images"],
  );
  assert.equal(map.resolve("search_customers")?.name, "search_customers");
  assert.equal(map.resolve("nope"), undefined);
});

test("invalid characters are sanitized; a clash gets a short hash; each maps back exactly", () => {
  const a = tool("get.weather", { server: "one", qualifiedName: "one__get.weather" });
  const b = tool("get weather", { server: "two", qualifiedName: "one__get weather" });
  const c = tool("one__get_weather", { server: "three" });
  const map = buildToolNameMap([a, b, c]);
  const names = map.tools.map((t) => t.name);
  assert.equal(new Set(names).size, 3);
  for (const n of names) assert.match(n, MODEL_TOOL_NAME);
  // The one that needed no change keeps its name.
  assert.equal(map.tools[2].name, "one__get_weather");
  for (const t of map.tools) assert.equal(map.resolve(t.name), t.entry);
  assert.equal(map.resolve(map.tools[0].name), a);
  assert.equal(map.resolve(map.tools[1].name), b);
});

test("names over 64 characters are truncated with a hash", () => {
  const long = "x".repeat(100);
  const map = buildToolNameMap([
    tool(long, { server: "s1" }),
    tool(long, { server: "s2", qualifiedName: `s2__${long}` }),
  ]);
  for (const t of map.tools) {
    assert.match(t.name, MODEL_TOOL_NAME);
    assert.equal(map.resolve(t.name), t.entry);
  }
  assert.notEqual(map.tools[0].name, map.tools[1].name);
});

test("property: any set of tools gets valid, unique names that map back to the same entry", () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.record({
          server: fc.string({ minLength: 1, maxLength: 8 }),
          name: fc.string({ minLength: 1, maxLength: 90 }),
        }),
        {
          maxLength: 12,
        },
      ),
      (specs) => {
        const entries = specs.map((s, i) =>
          tool(s.name, { server: s.server, qualifiedName: `${s.server}__${s.name}__${i}` }),
        );
        const map = buildToolNameMap(entries);
        const names = map.tools.map((t) => t.name);
        assert.equal(new Set(names).size, entries.length);
        for (const t of map.tools) {
          assert.match(t.name, MODEL_TOOL_NAME);
          assert.equal(map.resolve(t.name), t.entry);
        }
        // Deterministic.
        assert.deepEqual(
          buildToolNameMap(entries).tools.map((t) => t.name),
          names,
        );
      },
    ),
    { numRuns: 200 },
  );
});
