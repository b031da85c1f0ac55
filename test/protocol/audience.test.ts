// src/protocol/audience.ts (zod-free, for the app's start-up path) is the one audience vocabulary:
// schemas.ts re-exports it (the same objects, not copies) and its zod schema accepts exactly it.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as light from "../../src/protocol/audience.js";
import * as schemas from "../../src/protocol/schemas.js";

test("schemas.ts re-exports audience.ts itself", () => {
  assert.equal(schemas.isCoreAudience, light.isCoreAudience);
  assert.equal(schemas.isExtensionAudience, light.isExtensionAudience);
  assert.equal(schemas.EXTENSION_ID_PATTERN, light.EXTENSION_ID_PATTERN);
  assert.equal(schemas.CORE_AUDIENCES, light.CORE_AUDIENCES);
});

test("each audience is core, an extension identifier, or refused, and ToolResultAudienceSchema agrees", () => {
  const table: [string, "core" | "extension" | "refused"][] = [
    ["assistant", "core"],
    ["user", "core"],
    ["programmatic", "core"],
    ["io.modelcontextprotocol/ui", "extension"],
    ["com.example/x-1", "extension"],
    ["a/b", "extension"],
    ["a.b/c.d_e", "extension"],
    ["model", "refused"],
    ["", "refused"],
    ["Assistant", "refused"],
    ["io..x/y", "refused"],
    ["x/", "refused"],
    ["/y", "refused"],
    ["1a/b", "refused"],
    ["a-/b", "refused"],
    ["a/-b", "refused"],
    ["a/b/c", "refused"],
  ];
  for (const [audience, kind] of table) {
    assert.equal(light.isCoreAudience(audience), kind === "core", audience);
    assert.equal(light.isExtensionAudience(audience), kind === "extension", audience);
    assert.equal(schemas.ToolResultAudienceSchema.safeParse(audience).success, kind !== "refused", audience);
  }
});
