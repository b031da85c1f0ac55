// One server never acts as another: qualified names are unique by construction, and a call runs
// exactly the tool it was resolved (and approved) for.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { Host } from "../../src/host/host.js";
import { qualifyNames } from "../../src/host/catalog/tools.js";
import type { ToolEntry } from "../../src/host/types.js";
import { config } from "../helpers/host-fixtures.js";
import { trustServer } from "../helpers/trust.js";

const entry = (server: string, name: string): ToolEntry => ({
  server,
  name,
  qualifiedName: name,
  inputSchema: { type: "object" },
  era: "legacy",
  variants: [],
});
const names = (tools: ToolEntry[]) => tools.map((t) => `${t.server}:${t.name}=${t.qualifiedName}`);

test("a tool named like another server's qualified name never takes that name", () => {
  const out = qualifyNames([[entry("a", "x")], [entry("b", "x"), entry("b", "a__x")]], ["a", "b"]);
  assert.deepEqual(names(out), ["a:x=a__x", "b:x=b__x", "b:a__x=b__a__x"]);
  // Whichever order the servers come in.
  const rev = qualifyNames([[entry("b", "a__x"), entry("b", "x")], [entry("a", "x")]], ["b", "a"]);
  assert.equal(rev.find((t) => t.server === "a")!.qualifiedName, "a__x");
});

test("a name shaped like a configured server's prefix is qualified even before that server lists anything", () => {
  const out = qualifyNames([[], [entry("b", "a__x"), entry("b", "y")]], ["a", "b"]);
  assert.deepEqual(names(out), ["b:a__x=b__a__x", "b:y=y"]);
});

test("server names containing __ still give unique names, none first-come-first-served", () => {
  const lists = [[entry("a", "b__x"), entry("a", "x")], [entry("a__b", "x")], [entry("c", "x"), entry("c", "b__x")]];
  const out = qualifyNames(lists, ["a", "a__b", "c"]);
  const q = out.map((t) => t.qualifiedName);
  assert.equal(new Set(q).size, q.length, q.join(" "));
  // Both contenders for `a__b__x` are disambiguated; neither keeps the bare contested name.
  assert.ok(!q.includes("a__b__x"), q.join(" "));
  const again = qualifyNames([...lists].reverse(), ["c", "a__b", "a"]);
  const key = (ts: ToolEntry[]) => ts.map((t) => `${t.server}:${t.name}=${t.qualifiedName}`).sort();
  assert.deepEqual(key(again), key(out), "deterministic whatever the order");
});

let host: Host;
before(async () => {
  host = await Host.start({ config: config({ a: trustServer("a", ["x"]), b: trustServer("b", ["x", "a__x"]) }) });
});
after(() => host.close());

const answered = (out: Awaited<ReturnType<Host["call"]>>) => {
  assert.ok(out.ok, JSON.stringify(!out.ok && out.error));
  return out.ok ? JSON.stringify(out.routed) : "";
};

test("two real servers: a__x runs on server a, b's tool named a__x is b__a__x", async () => {
  const tools = await host.tools();
  const q = tools.map((t) => t.qualifiedName);
  assert.equal(new Set(q).size, q.length);
  assert.equal(tools.find((t) => t.qualifiedName === "a__x")?.server, "a");
  const out = await host.call("a__x", { secret: "for-a" });
  assert.match(answered(out), /answered-by=a tool=x/);
  assert.ok(out.ok && out.plan.server === "a" && out.plan.tool === "x");
  assert.match(answered(await host.call("b__a__x", {})), /answered-by=b tool=a__x/);
  assert.match(answered(await host.call("b__x", {})), /answered-by=b tool=x/);
});

test("a call bound to the tool it was approved for is refused if the name means another", async () => {
  const out = await host.call("b__x", {}, { target: { server: "a", tool: "x" } });
  assert.equal(out.ok, false);
  if (!out.ok) assert.equal(out.error.rule, "tool-moved");
  const ok = await host.call("a__x", {}, { target: { server: "a", tool: "x" } });
  assert.match(answered(ok), /answered-by=a/);
});
