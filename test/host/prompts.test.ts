// Prompts through the Host against real processes: the raw prompt fixture in both eras (pages,
// a malformed entry, arguments checked before sending, input_required answered, content kinds,
// completion; the modern envelope required by the fixture) and server-everything's prompts.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { Host } from "../../src/host/host.js";
import { config, ROOT, tempDir, wireLines } from "../helpers/host-fixtures.js";
import { everythingStdio, startEverythingHttp } from "../helpers/real-servers.js";
import type { ServerConfig } from "../../src/host/config/config.js";

const FIXTURE = join(ROOT, "test", "fixtures", "prompt-server.mjs");
const TEE = join(ROOT, "test", "fixtures", "wire-tee.mjs");
const promptServer = (era: "modern" | "legacy", log?: string): ServerConfig => ({
  kind: "stdio",
  command: process.execPath,
  args: [...(log ? [TEE, log, process.execPath] : []), FIXTURE, ...(era === "legacy" ? ["--era", "legacy"] : [])],
});

const hosts: Host[] = [];
after(async () => {
  await Promise.all(hosts.map((h) => h.close()));
});
async function start(servers: Record<string, ServerConfig>, roots?: string[]): Promise<Host> {
  const host = await Host.start({ config: { ...config(servers), ...(roots ? { roots } : {}) }, eraCache: false });
  hosts.push(host);
  return host;
}

for (const era of ["modern", "legacy"] as const) {
  test(`prompts (${era}): both pages listed, the malformed entry named, arguments checked, get and complete`, async () => {
    const log = join(tempDir(), "wire.jsonl");
    const host = await start({ p: promptServer(era, log) });
    const { prompts, errors } = await host.prompts.all();
    assert.deepEqual(
      prompts.map((p) => p.name),
      ["greet", "mixed", "ask", "fails"],
    );
    assert.deepEqual(prompts[0].arguments, [
      { name: "name", title: undefined, description: "who", required: true },
      { name: "style", title: undefined, description: undefined, required: false },
    ]);
    assert.equal(errors.length, 1);
    assert.equal(errors[0].rule, "malformed-prompt");
    assert.match(errors[0].message, /^server p, prompt bad name: the name contains white space/);

    const found = await host.prompts.find("p:greet");
    assert.ok(found.ok);
    const missing = await host.prompts.get(found.entry, { style: "formal" });
    assert.ok(!missing.ok);
    assert.equal(missing.error.rule, "missing-argument");
    const notString = await host.prompts.get(found.entry, { name: 5 });
    assert.ok(!notString.ok && notString.error.rule === "invalid-argument");
    const unknown = await host.prompts.get(found.entry, { name: "Ada", colour: "red" });
    assert.ok(!unknown.ok && unknown.error.rule === "unknown-argument");

    const got = await host.prompts.get(found.entry, { name: "Ada", style: "formal" });
    assert.ok(got.ok, JSON.stringify(got));
    assert.deepEqual(got.prompt.messages, [
      {
        role: "user",
        content: { type: "text", text: `Good day, Ada! (era ${era === "legacy" ? "legacy" : "2026-07-28"})` },
      },
    ]);

    const completion = await host.prompts.complete(found.entry, "name", "a");
    assert.deepEqual(completion.values, ["Ada", "Alan"]);
    const styles = await host.prompts.complete(found.entry, "style", "c", { name: "Ada" });
    assert.deepEqual(styles.values, ["casual"]);

    const fails = await host.prompts.find("fails");
    assert.ok(fails.ok);
    const failed = await host.prompts.get(fails.entry, {});
    assert.ok(!failed.ok);
    assert.equal(failed.error.rule, "server-error");
    assert.match(failed.error.message, /^server p, prompt fails: .*the prompt broke/);

    // Only the invalid calls never went out: exactly one prompts/get for greet.
    const sent = wireLines(log);
    assert.equal(sent.filter((m) => m.method === "prompts/get" && m.params.name === "greet").length, 1);
    const list = sent.filter((m) => m.method === "prompts/list");
    assert.deepEqual(
      list.map((m) => m.params.cursor),
      [undefined, "page2"],
    );
    for (const m of sent.filter((m) => ["prompts/list", "prompts/get", "completion/complete"].includes(m.method))) {
      if (era === "modern") assert.equal(m.params._meta?.["io.modelcontextprotocol/protocolVersion"], "2026-07-28");
      else assert.equal(m.params._meta, undefined);
    }
  });
}

test("prompts (modern): an input_required prompts/get is answered and retried with its requestState", async () => {
  // Without roots offered, the fixture's roots/list round fails the prompt with a rule.
  const none = await start({ p: promptServer("modern") });
  const found = await none.prompts.find("ask");
  assert.ok(found.ok);
  const refused = await none.prompts.get(found.entry, {});
  assert.ok(!refused.ok && refused.error.rule === "roots-not-offered", JSON.stringify(refused));
  const host = await start({ p: promptServer("modern") }, [ROOT]);
  const ask = await host.prompts.find("ask");
  assert.ok(ask.ok);
  const got = await host.prompts.get(ask.entry, {});
  assert.ok(got.ok, JSON.stringify(got));
  // The fixture asks for roots: the configured ones.
  const roots = JSON.stringify(host.roots());
  assert.equal(host.roots().length, 1);
  assert.deepEqual(got.prompt.messages[0].content, { type: "text", text: `answered: {"r1":{"roots":${roots}}}` });
});

test("prompts: every content kind is read (text, image, embedded resource); text is kept raw for the sink to sanitize", async () => {
  const host = await start({ p: promptServer("modern") });
  const mixed = await host.prompts.find("mixed");
  assert.ok(mixed.ok);
  const got = await host.prompts.get(mixed.entry, {});
  assert.ok(got.ok);
  assert.deepEqual(
    got.prompt.messages.map((m) => [m.role, m.content.type]),
    [
      ["user", "text"],
      ["user", "image"],
      ["assistant", "resource"],
    ],
  );
});

test("prompts: an unknown or ambiguous name is one error naming the servers", async () => {
  const host = await start({ a: promptServer("modern"), b: promptServer("legacy") });
  const ambiguous = await host.prompts.find("greet");
  assert.ok(!ambiguous.ok);
  assert.equal(ambiguous.error.rule, "ambiguous-prompt");
  assert.match(ambiguous.error.detail, /servers a, b/);
  const onB = await host.prompts.find("greet", "b");
  assert.ok(onB.ok && onB.entry.server === "b");
  const none = await host.prompts.find("nope");
  assert.ok(!none.ok && none.error.rule === "unknown-prompt");
  const rejected = await host.prompts.find("a:bad name");
  assert.ok(!rejected.ok && rejected.error.rule === "malformed-prompt");
});

test("prompts: server-everything's prompts, one with arguments and completion (stdio)", async () => {
  const host = await start({ everything: everythingStdio() });
  const { prompts } = await host.prompts.all();
  const names = prompts.map((p) => p.name);
  for (const n of ["simple-prompt", "args-prompt", "completable-prompt", "resource-prompt"])
    assert.ok(names.includes(n), names.join(","));
  const args = await host.prompts.find("args-prompt");
  assert.ok(args.ok);
  const got = await host.prompts.get(args.entry, { city: "Paris", state: "TX" });
  assert.ok(got.ok, JSON.stringify(got));
  assert.deepEqual(got.prompt.messages[0].content, { type: "text", text: "What's weather in Paris, TX?" });
  const team = await host.prompts.find("completable-prompt");
  assert.ok(team.ok);
  assert.deepEqual((await host.prompts.complete(team.entry, "department", "S")).values, ["Sales", "Support"]);
  assert.deepEqual((await host.prompts.complete(team.entry, "name", "", { department: "Sales" })).values, [
    "David",
    "Eve",
    "Frank",
  ]);
  const resource = await host.prompts.find("resource-prompt");
  assert.ok(resource.ok);
  const embedded = await host.prompts.get(resource.entry, { resourceType: "Text", resourceId: "1" });
  assert.ok(embedded.ok, JSON.stringify(embedded));
  assert.equal(embedded.prompt.messages[1].content.type, "resource");
});

test("prompts: server-everything over Streamable HTTP (legacy era): list, get with arguments, complete", async () => {
  const server = await startEverythingHttp();
  try {
    const host = await start({ everything: { kind: "http", url: server.url } });
    const { prompts } = await host.prompts.all();
    assert.ok(prompts.some((p) => p.name === "completable-prompt"));
    const team = await host.prompts.find("completable-prompt");
    assert.ok(team.ok);
    assert.deepEqual((await host.prompts.complete(team.entry, "department", "E")).values, ["Engineering"]);
    const got = await host.prompts.get(team.entry, { department: "Engineering", name: "Alice" });
    assert.ok(got.ok, JSON.stringify(got));
    assert.deepEqual(got.prompt.messages[0].content, {
      type: "text",
      text: "Please promote Alice to the head of the Engineering team.",
    });
    await host.close();
  } finally {
    await server.stop();
  }
});
