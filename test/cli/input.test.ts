// Elicitation and sampling through the built CLI (dist/): a legacy stdio server on the SDK and
// server-everything (its trigger-elicitation-request / trigger-sampling-request need the client
// capabilities) answered by `--answer JSON` / declined with one stderr line, sampling approved
// by `--yes` and answered by the offline model; and the 2026-07-28 MRTR rounds (form, then
// sampling, the request state echoed) over HTTP.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, ROOT, tempDir } from "../helpers/host-fixtures.js";
import { EVERYTHING, startEverythingHttp } from "../helpers/real-servers.js";
import { startMrtrServer } from "../fixtures/input-mrtr-server.js";
import { inputLegacyEntry } from "../fixtures/input-legacy-server.js";

const dir = tempDir();
const CAPS = "io.modelcontextprotocol/clientCapabilities";

function cli(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: dir,
      env: { ...process.env, XDG_CONFIG_HOME: dir, ANTHROPIC_API_KEY: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("close", (code) => resolve({ code, out, err }));
  });
}
const text = (doc: any) => doc.routed.model[0].content.map((c: any) => c.text).join("\n");

describe("elicitation and sampling, one-shot", () => {
  let config: string;
  let http: Awaited<ReturnType<typeof startEverythingHttp>>;
  let mrtr: Awaited<ReturnType<typeof startMrtrServer>>;
  before(async () => {
    [http, mrtr] = await Promise.all([startEverythingHttp(), startMrtrServer()]);
    config = join(dir, "servers.json");
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          legacy: inputLegacyEntry(ROOT),
          everything: { command: process.execPath, args: [EVERYTHING, "stdio"] },
          web: { url: http.url },
          mrtr: { url: mrtr.url },
        },
        limits: { discoverTimeoutMs: 15000, connectWaitMs: 60000 },
      }),
    );
  });
  after(async () => {
    mrtr?.close();
    await http?.stop();
  });
  const call = (server: string, tool: string, ...rest: string[]) =>
    cli(["call", tool, "--server", server, "--config", config, "--json", ...rest]);

  test("legacy elicitation/create: --answer accepts with the schema's defaults filled in; none declines with one line", async () => {
    const yes = await call("legacy", "ask", "--answer", '{"name":"Ada","agree":true}');
    assert.equal(yes.code, 0, yes.err);
    assert.equal(text(JSON.parse(yes.out)), 'action=accept size=3 color="green" name="Ada" agree=true');
    const no = await call("legacy", "ask");
    assert.equal(text(JSON.parse(no.out)), "action=decline");
    assert.match(
      no.err,
      /^mcp-prism: server legacy asked for input \("Who are you\? CANARY-ELICIT-6b1f3d"\); declined \(pass --answer JSON to answer\)$/m,
    );
    const misfit = await call("legacy", "ask", "--answer", '{"name":"Ada","size":99}');
    assert.equal(text(JSON.parse(misfit.out)), "action=decline", "an answer that does not fit is never sent");
    assert.match(misfit.err, /--answer does not fit server legacy's form \(size: at most 10\); declined/);
    const bad = await call("legacy", "ask", "--answer", "[1]");
    assert.equal(bad.code, 2);
    assert.match(bad.err, /--answer: expected a JSON object/);
  });

  test("elicitation string formats (email, uri, date, date-time) are checked before an answer is sent", async () => {
    const good = await call(
      "legacy",
      "contact",
      "--answer",
      '{"email":"ada@example.org","site":"https://example.org/x","day":"2026-02-28","at":"2026-02-28T23:59:60.5+01:00"}',
    );
    assert.equal(good.code, 0, good.err);
    assert.match(text(JSON.parse(good.out)), /^action=accept email="ada@example.org"/);
    for (const [answer, why] of [
      ['{"email":"not-an-email"}', /email: expected an email address/],
      ['{"site":"example.org"}', /site: expected an absolute URI/],
      ['{"day":"2026-02-30"}', /day: expected a date/],
      ['{"at":"2026-02-28 25:00:00Z"}', /at: expected a date and time/],
    ] as const) {
      const r = await call("legacy", "contact", "--answer", answer);
      assert.equal(text(JSON.parse(r.out)), "action=decline", `${answer} is never sent`);
      assert.match(r.err, why, answer);
    }
  });

  test("legacy sampling/createMessage: declined without --yes; with it the offline model answers, only to the server", async () => {
    const no = await call("legacy", "sample");
    assert.equal(JSON.parse(no.out).isError, true);
    assert.match(text(JSON.parse(no.out)), /sampling refused: .*did not approve/);
    assert.match(
      no.err,
      /^mcp-prism: server legacy asked the model for a sample \(1 message, at most 50 tokens\); declined \(pass --yes to approve\)$/m,
    );
    const yes = await call("legacy", "sample", "--yes");
    assert.equal(yes.code, 0, yes.err);
    assert.match(text(JSON.parse(yes.out)), /^sampled \d+ chars from offline \(it saw the messages\)$/);
  });

  test("server-everything (stdio and HTTP): the capability-gated tools are listed and answered", async () => {
    const tools = await cli(["tools", "--json", "--config", config, "--server", "everything"]);
    const names = JSON.parse(tools.out).servers[0].tools.map((t: any) => t.name);
    for (const n of ["trigger-elicitation-request", "trigger-sampling-request", "trigger-url-elicitation"])
      assert.ok(names.includes(n), n);
    for (const server of ["everything", "web"]) {
      const el = await call(
        server,
        "trigger-elicitation-request",
        "--answer",
        '{"name":"Ada Lovelace","check":true,"integer":7}',
      );
      assert.equal(el.code, 0, el.err);
      const got = text(JSON.parse(el.out));
      assert.match(got, /"name": "Ada Lovelace"/, server);
      assert.match(got, /"integer": 7/);
      assert.match(got, /"firstLine": "It was a dark and stormy night\."/, "defaults applied");
      const url = await call(
        server,
        "trigger-url-elicitation",
        "--args",
        '{"url":"https://example.com/consent?x=1","message":"Sign in"}',
        "--answer",
        "{}",
      );
      assert.equal(url.code, 0, url.err);
      assert.match(
        url.err,
        /^mcp-prism: server (everything|web) asks you to open https:\/\/example\.com\/consent\?x=1 \("Sign in"\)$/m,
        "a URL elicitation is printed, never opened",
      );
      assert.match(text(JSON.parse(url.out)), /accept/);
      const sample = await call(server, "trigger-sampling-request", "--args", '{"prompt":"tell me"}', "--yes");
      assert.equal(sample.code, 0, sample.err);
      assert.match(
        text(JSON.parse(sample.out)),
        /Offline sample \(1 message\): the last user said \\"Resource trigger-sampling-request context: tell me\\"/,
      );
    }
  });

  test("2026-07-28 MRTR: a form round then a sampling round, each state echoed, capabilities in the envelope", async () => {
    mrtr.calls.length = 0;
    const r = await call("mrtr", "ask", "--answer", '{"name":"Ada"}', "--yes");
    assert.equal(r.code, 0, r.err);
    assert.match(
      text(JSON.parse(r.out)),
      /^action=accept size=3 color="green" name="Ada"; sampled \d+ chars from offline$/,
    );
    assert.deepEqual(
      mrtr.calls.map((c) => c.requestState),
      [undefined, "round-1 ✓", 'round-2 "action=accept size=3 color=\\"green\\" name=\\"Ada\\""'],
    );
    assert.deepEqual(mrtr.calls[0]._meta[CAPS], {
      sampling: {},
      elicitation: { form: {}, url: {} },
      extensions: { "io.modelcontextprotocol/tasks": {} },
    });
    assert.deepEqual(mrtr.calls[1].inputResponses, {
      who: { action: "accept", content: { size: 3, color: "green", name: "Ada" } },
    });

    // A declined sampling is answered (no response for its key, SEP-2322), not the whole call failed.
    mrtr.calls.length = 0;
    const declined = await call("mrtr", "ask", "--answer", '{"name":"Ada"}');
    assert.equal(declined.code, 0, declined.err);
    assert.match(text(JSON.parse(declined.out)), /name="Ada"; sampled 0 chars from undefined$/);
    assert.deepEqual(mrtr.calls[2].inputResponses, {}, "the declined request is left unanswered");
    assert.match(declined.err, /declined \(pass --yes to approve\)/);
  });

  test("prompts, prompt, resources and read answer a server's questions as call does (--answer, else declined)", async () => {
    const base = ["--server", "mrtr", "--config", config];
    const got = await cli(["prompt", "greet", ...base, "--json", "--answer", '{"name":"Ada"}']);
    assert.equal(got.code, 0, got.err);
    assert.equal(JSON.parse(got.out).messages[0].content.text, 'greet action=accept size=3 color="green" name="Ada"');
    const read = await cli(["read", "mrtr://note", ...base, "--answer", '{"name":"Bo"}']);
    assert.equal(read.code, 0, read.err);
    assert.match(read.out, /note for action=accept size=3 color="green" name="Bo"/);
    const unanswered = await cli(["read", "mrtr://note", ...base]);
    assert.match(unanswered.out, /note for action=decline/);
    assert.match(
      unanswered.err,
      /^mcp-prism: server mrtr asked for input \("Who reads\? CANARY-ELICIT-6b1f3d"\); declined/m,
    );
    for (const cmd of ["prompts", "resources"]) {
      const r = await cli([cmd, ...base, "--answer", "[1]"]);
      assert.equal(r.code, 2, `${cmd} takes --answer`);
      assert.match(r.err, /--answer: expected a JSON object/);
    }
  });
});
