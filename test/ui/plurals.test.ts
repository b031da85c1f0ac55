// Counts read as English: "1 resource", "1 template", never "1 resources".
import { test } from "node:test";
import assert from "node:assert/strict";
import { renderResources } from "../../src/cli/output/resources.js";
import { UsageMeter } from "../../src/ui/usage-meter.js";

test("resources: one resource, one template; two of each", () => {
  const one = {
    server: "s",
    offered: true,
    resources: [{ uri: "a://1", name: "one" }],
    templates: [{ uriTemplate: "a://{x}", name: "t" }],
    errors: [],
  };
  assert.match(renderResources([one as never]), /^s · 1 resource, 1 template$/m);
  const two = {
    ...one,
    resources: [...one.resources, { uri: "a://2", name: "two" }],
    templates: [...one.templates, ...one.templates],
  };
  assert.match(renderResources([two as never]), /^s · 2 resources, 2 templates$/m);
});

test("/usage keeps a long prompt's head and says it was cut", () => {
  const meter = new UsageMeter();
  meter.startTurn("x".repeat(500));
  const p = meter.snapshot().turns[0].prompt;
  assert.equal(p.length, 200);
  assert.ok(p.endsWith("…"));
  meter.startTurn("short");
  assert.equal(meter.snapshot().turns[1].prompt, "short");
});
