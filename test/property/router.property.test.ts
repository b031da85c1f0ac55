// Property: for random valid declarations, random selections and random (valid or broken) results,
// validate → route either routes every output to exactly its audience's sink or rejects the whole
// result, and no byte of a non-assistant output or of result _meta reaches the model context.
import { test } from "node:test";
import { runProperty } from "./router-property.js";

test("validate → route → buildContext: exact sinks or whole rejection; no canary reaches the model (3,000 cases)", () => {
  runProperty(3000);
});
