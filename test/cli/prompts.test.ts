// `mcp-prism prompts` and `mcp-prism prompt NAME` through the built CLI over stdio: server-everything
// (its prompts, one with arguments, one with an embedded resource) and the raw prompt fixture in
// both eras (a rejected entry, arguments checked, escapes sanitized, errors as fields).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, ROOT, tempDir } from "../helpers/host-fixtures.js";
import { EVERYTHING } from "../helpers/real-servers.js";

const FIXTURE = join(ROOT, "test", "fixtures", "prompt-server.mjs");

function setup(): string {
  const dir = tempDir();
  writeFileSync(
    join(dir, "config.json"),
    JSON.stringify({
      mcpServers: {
        everything: { command: process.execPath, args: [EVERYTHING, "stdio"] },
        p: { command: process.execPath, args: [FIXTURE] },
        old: { command: process.execPath, args: [FIXTURE, "--era", "legacy"] },
      },
      limits: { discoverTimeoutMs: 15000 },
    }),
  );
  return dir;
}
const DIR = setup();

function cli(args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args, "--config", join(DIR, "config.json")], {
    cwd: DIR,
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, XDG_CONFIG_HOME: tempDir() },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

test("prompts lists every server's prompts with their arguments and the rejected entry", () => {
  const r = cli(["prompts"]);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^everything · 4 prompts$/m);
  assert.match(r.out, /^ {2}everything:args-prompt <city> \[state\] {2}— Arguments Prompt: /m);
  assert.match(r.out, /^ {6}city \(required\): Name of the city$/m);
  assert.match(r.out, /^p · 4 prompts, 1 rejected$/m);
  assert.match(r.out, /^old · 4 prompts, 1 rejected$/m);
  assert.match(r.out, /✗ rejected \[malformed-prompt\]: server p, prompt bad name: the name contains white space/);
  const doc = JSON.parse(cli(["prompts", "--server", "p", "--json"]).out);
  assert.deepEqual(
    doc.servers.map((s: any) => s.name),
    ["p"],
  );
  assert.deepEqual(
    doc.servers[0].prompts.map((p: any) => p.name),
    ["greet", "mixed", "ask", "fails"],
  );
  assert.equal(doc.servers[0].rejected[0].rule, "malformed-prompt");
});

test("prompt NAME --args gets the prompt (server-everything, both eras of the fixture)", () => {
  const r = cli(["prompt", "args-prompt", "--args", JSON.stringify({ city: "Paris", state: "TX" })]);
  assert.equal(r.code, 0, r.err);
  assert.equal(r.out, "[user] What's weather in Paris, TX?\n");
  const doc = JSON.parse(
    cli(["prompt", "resource-prompt", "--args", JSON.stringify({ resourceType: "Text", resourceId: "2" }), "--json"])
      .out,
  );
  assert.equal(doc.server, "everything");
  assert.equal(doc.messages[1].content.type, "resource");
  for (const [server, era] of [
    ["p", "2026-07-28"],
    ["old", "legacy"],
  ]) {
    const g = cli(["prompt", `${server}:greet`, "--args", JSON.stringify({ name: "Ada", style: "formal" })]);
    assert.equal(g.code, 0, g.err);
    assert.equal(g.out, `# a greeting\n[user] Good day, Ada! (era ${era})\n`);
  }
});

test("prompt shows other content kinds as one line each and sanitizes server text", () => {
  const r = cli(["prompt", "mixed", "--server", "p"]);
  assert.equal(r.code, 0, r.err);
  assert.ok(!r.out.includes("\u001b"), "no raw escape reaches the terminal");
  assert.match(r.out, /^\[user\] look at ␛\[31mthis␛\[0m$/m);
  assert.match(r.out, /^\[user\] \(image image\/png, \d+ B: not sent\)$/m);
  assert.match(
    r.out,
    /^\[assistant\] \(resource file:\/\/\/notes\.txt, text\/plain \(its text is part of the turn\)\)\nthe notes$/m,
  );
});

test("prompt failures are one line (human) or the error's fields (--json), exit 1; usage errors exit 2", () => {
  const ambiguous = cli(["prompt", "greet"]);
  assert.equal(ambiguous.code, 1);
  assert.match(
    ambiguous.err,
    /^mcp-prism prompt: prompt greet: servers p, old all list it: name one with --server or SERVER:greet\n$/,
  );
  const missing = JSON.parse(cli(["prompt", "greet", "--server", "old", "--json"]).out);
  assert.deepEqual(missing.error, {
    server: "old",
    prompt: "greet",
    rule: "missing-argument",
    detail: "missing required argument name",
    message: "server old, prompt greet: missing required argument name",
  });
  const broke = cli(["prompt", "p:fails"]);
  assert.equal(broke.code, 1);
  assert.match(broke.err, /^mcp-prism prompt: server p, prompt fails: .*the prompt broke\n$/);
  const notString = JSON.parse(cli(["prompt", "p:greet", "--args", '{"name":1}', "--json"]).out);
  assert.equal(notString.error.rule, "invalid-argument");
  const usage = cli(["prompt"]);
  assert.equal(usage.code, 2);
  assert.match(usage.err, /^mcp-prism prompt: missing the prompt name\n$/);
});
