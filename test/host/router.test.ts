// route() makes each sink array at its final length and fills it: every output lands in its
// audience's sink once, in the order the result gave, with no hole left.
import { test } from "node:test";
import assert from "node:assert/strict";
import { route, RoutingError } from "../../src/host/result/router.js";
import type { ToolResultOutput } from "../../src/protocol/index.js";

const UI = "io.modelcontextprotocol/ui";
const text = (audience: string, t: string) =>
  ({ audience, format: "content", content: [{ type: "text", text: t }] }) as ToolResultOutput;
const data = (audience: string, n: number) =>
  ({ audience, format: "structured", structuredContent: { n } }) as ToolResultOutput;

test("route: each output in its audience's sink, in result order, no holes", () => {
  const outputs = [
    data("user", 1),
    text("assistant", "a"),
    data(UI, 2),
    text("user", "u"),
    data("programmatic", 3),
    data("assistant", 4),
  ];
  const routed = route(outputs, { appExtensions: [UI], meta: { [UI]: { k: 1 }, other: 2 } });
  assert.deepEqual(routed.model, [outputs[1], outputs[5]]);
  assert.deepEqual(routed.user, [outputs[0], outputs[3]]);
  assert.deepEqual(routed.programmatic, [outputs[4]]);
  assert.deepEqual(routed.app, [outputs[2]]);
  assert.deepEqual(routed.appMeta, { [UI]: { k: 1 } });
  for (const sink of [routed.model, routed.user, routed.programmatic, routed.app])
    assert.equal(Object.keys(sink).length, sink.length, "no hole");
});

test("route: an output no sink takes is refused whole, wherever it stands", () => {
  const outputs = [text("assistant", "a"), data(UI, 2), text("user", "u")];
  assert.throws(
    () => route(outputs, { appExtensions: [] }),
    (e) => e instanceof RoutingError && /no sink for io\.modelcontextprotocol\/ui\/structured/.test(e.message),
  );
});
