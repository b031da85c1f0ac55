// src/protocol/audience.ts (zod-free, for the app's start-up path) is the one audience vocabulary:
// schemas.ts re-exports it and its zod schema agrees with it.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as light from "../../src/protocol/audience.js";
import * as schemas from "../../src/protocol/schemas.js";

test("schemas.ts re-exports audience.ts, and ToolResultAudienceSchema accepts exactly its audiences", () => {
  assert.equal(schemas.isCoreAudience, light.isCoreAudience);
  assert.equal(schemas.EXTENSION_ID_PATTERN, light.EXTENSION_ID_PATTERN);
  assert.deepEqual(light.CORE_AUDIENCES, schemas.CORE_AUDIENCES);
  assert.equal(light.EXTENSION_ID_PATTERN.source, schemas.EXTENSION_ID_PATTERN.source);
  assert.equal(light.EXTENSION_ID_PATTERN.flags, schemas.EXTENSION_ID_PATTERN.flags);
  const samples = ["assistant", "user", "programmatic", "model", "", "io.modelcontextprotocol/ui", "com.example/x-1", "a/b", "Assistant", "io..x/y", "x/", "/y", "a.b/c.d_e"];
  for (const a of samples) {
    assert.equal(light.isCoreAudience(a), schemas.isCoreAudience(a), a);
    assert.equal(light.isExtensionAudience(a), schemas.isExtensionAudience(a), a);
    assert.equal(light.isCoreAudience(a) || light.EXTENSION_ID_PATTERN.test(a), schemas.ToolResultAudienceSchema.safeParse(a).success, a);
  }
});
