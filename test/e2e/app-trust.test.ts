// The real app in tmux, started in a "cloned repository" whose ./mcp-prism.json runs a server that
// leaves a marker file and points the model at a fake Messages API, with ANTHROPIC_API_KEY set.
// The app asks before anything of that config runs (no marker while the question is on screen);
// answered n, it starts on the built-in demo server and says why; answered y, the repo's server
// runs, the endpoint gets the prompt, and the next start does not ask again.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FakeAnthropic } from "../helpers/fake-anthropic.js";
import { BIN, tempDir } from "../helpers/host-fixtures.js";
import { startApp, type AppTerminal } from "../helpers/tmux.js";

const open: AppTerminal[] = [];
let fake: FakeAnthropic;
before(async () => {
  fake = await new FakeAnthropic().start();
  fake.responder = () => ({ kind: "reply", blocks: [{ type: "text", text: "hello from the repo endpoint" }] });
});
after(async () => {
  open.forEach((t) => t.close());
  await fake.stop();
});

const KEY = "sk-ant-secret-e2e";

function repo() {
  const dir = tempDir();
  const marker = join(dir, "SERVER-RAN");
  const file = join(dir, "mcp-prism.json");
  const server = { command: "sh", args: ["-c", `touch '${marker}'; exec '${process.execPath}' '${BIN}' demo-server`] };
  writeFileSync(
    file,
    JSON.stringify({ mcpServers: { repo: server }, model: { provider: "anthropic", baseURL: fake.url } }),
  );
  return { dir, file, marker };
}

const QUESTION = /Trust this file\? The answer is remembered until the file changes\. \[y\/N\]/;

async function ask(r: ReturnType<typeof repo>, state?: string): Promise<AppTerminal> {
  const t = await startApp({
    cwd: r.dir,
    ready: QUESTION,
    columns: 220,
    env: {
      ANTHROPIC_API_KEY: KEY,
      ANTHROPIC_BASE_URL: "",
      MCP_PRISM_ERA_CACHE: "0",
      ...(state ? { XDG_STATE_HOME: state } : {}),
    },
  });
  open.push(t);
  const s = t.screen();
  assert.match(
    s,
    new RegExp(
      `mcp-prism: ${r.file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} is a config found in this directory\\. Trusting it runs:`,
    ),
  );
  assert.match(s, /repo: sh -c "touch .*demo-server"/);
  assert.ok(s.includes(`model endpoint: ${fake.url} (it would receive ANTHROPIC_API_KEY)`), s);
  await new Promise((res) => setTimeout(res, 500));
  assert.equal(existsSync(r.marker), false, "a server of the config ran before the answer");
  return t;
}

test("answered n: nothing of the config runs; the app starts on the built-in demo and says why", async () => {
  const r = repo();
  const before = fake.requests.length;
  const t = await ask(r);
  t.submit("n");
  const s = await t.waitFor(/● demo 2026-12-01 connected/, "the built-in demo server");
  assert.ok(s.includes(`${r.file} not used: you did not trust it (pass --config ${r.file} to use it)`), s);
  assert.equal(existsSync(r.marker), false);
  assert.equal(fake.requests.length, before);
  const answers = JSON.parse(readFileSync(join(t.stateDir, "mcp-prism", "trusted-configs.json"), "utf8"));
  assert.equal(answers.configs[r.file].answer, "declined");
  t.submit("/quit");
  assert.equal(await t.exitCode(), 0);
});

test("answered y: the repo's server runs, its endpoint gets the key; the next start does not ask", async () => {
  const r = repo();
  const before = fake.requests.length;
  const t = await ask(r);
  t.submit("y");
  const s = await t.waitFor(/● repo 2026-12-01 connected/, "the repo's server");
  assert.ok(s.includes(`using ${r.file} (trusted)`), s);
  assert.ok(existsSync(r.marker));
  t.submit("hello");
  await t.idle(/hello from the repo endpoint/, "the reply from the trusted endpoint");
  assert.equal(fake.requests.length, before + 1);
  assert.ok(JSON.stringify(fake.requests[before].headers).includes(KEY));
  const file = join(t.stateDir, "mcp-prism", "trusted-configs.json");
  assert.equal(statSync(file).mode & 0o777, 0o600);
  t.submit("/quit");
  assert.equal(await t.exitCode(), 0);

  // Same state dir, same content: no question, straight to the app.
  const again = await startApp({
    cwd: r.dir,
    ready: /● repo 2026-12-01 connected/,
    env: { ANTHROPIC_API_KEY: KEY, XDG_STATE_HOME: t.stateDir, MCP_PRISM_ERA_CACHE: "0" },
  });
  open.push(again);
  assert.ok(!QUESTION.test(again.screen()));
  again.submit("/quit");
  assert.equal(await again.exitCode(), 0);
});

test("a one-shot command on a terminal asks too (here `tools`, answered y)", async () => {
  const r = repo();
  const t = await startApp({
    cwd: r.dir,
    args: ["tools"],
    ready: QUESTION,
    columns: 220,
    env: { MCP_PRISM_ERA_CACHE: "0" },
  });
  open.push(t);
  assert.equal(existsSync(r.marker), false);
  t.submit("y");
  assert.equal(await t.exitCode(30_000), 0);
  const s = t.screen(300); // the listing (a description and args per tool) scrolls the first line away
  assert.ok(s.includes(`mcp-prism: using ${r.file} (trusted)`), s);
  assert.match(s, /^repo · protocol 2026-12-01 · \d+ tools$/m);
  assert.ok(existsSync(r.marker));
});
