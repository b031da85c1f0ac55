// Saved sessions across processes, in the real built app under tmux: a chat with the offline
// model and a tool call, then `--continue` in a second process shows that conversation and the
// model's next request (the REAL Anthropic SDK against the fake Messages API, which enforces the
// API's rules) carries the earlier turns; `mcp-prism sessions` lists it; the prompt history is
// recalled with ↑ after a restart.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { appendFileSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, startApp, type AppTerminal } from "../helpers/tmux.js";
import { FakeAnthropic } from "../helpers/fake-anthropic.js";

const open: AppTerminal[] = [];
let fake: FakeAnthropic;
before(async () => {
  fake = await new FakeAnthropic().start();
});
after(async () => {
  open.reverse().forEach((t) => t.close());
  await fake.stop();
});
const BIN = join(ROOT, "bin", "mcp-prism.js");
const cli = (stateHome: string, ...args: string[]) =>
  spawnSync(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, XDG_STATE_HOME: stateHome },
  });

test("--continue in a second process: the conversation is shown and the model's next request holds the earlier turns", async () => {
  const first = await startApp({ columns: 120, rows: 50 });
  open.push(first);
  first.submit("search customers Globex");
  await first.idle(/returned to me: I found 37 Globex customer records/, "the first process's answer", {
    timeoutMs: 30_000,
  });
  first.submit("/quit");
  assert.equal(await first.exitCode(), 0);

  // `sessions` through the built CLI: this one, with its directory, first prompt and turn count.
  const listed = cli(first.stateDir, "sessions", "--json");
  assert.equal(listed.status, 0, listed.stderr);
  const sessions = JSON.parse(listed.stdout);
  assert.equal(sessions.length, 1);
  assert.equal(sessions[0].cwd, ROOT);
  assert.equal(sessions[0].firstPrompt, "search customers Globex");
  assert.equal(sessions[0].turns, 1);
  assert.equal(sessions[0].mode, "chat");
  const text = cli(first.stateDir, "sessions");
  assert.equal(text.status, 0, text.stderr);
  assert.ok(
    text.stdout.includes(sessions[0].id) &&
      text.stdout.includes("search customers Globex") &&
      text.stdout.includes("1 turn"),
    text.stdout,
  );
  // A damaged line in the file: refused with one line, the rest restored.
  const dir = join(first.stateDir, "mcp-prism");
  const [file] = readdirSync(dir).filter((n) => n.startsWith("session-"));
  appendFileSync(join(dir, file), "{this is not json\n");

  fake.responder = (_body, index) => ({
    kind: "reply",
    blocks: [{ type: "text", text: `second process answer ${index}` }],
  });
  const second = await startApp({
    args: ["--continue", "--model", "anthropic:claude-test"],
    columns: 120,
    rows: 50,
    env: { XDG_STATE_HOME: first.stateDir, ANTHROPIC_API_KEY: "sk-fake", ANTHROPIC_BASE_URL: fake.url },
  });
  open.push(second);
  const s = await second.waitFor(/resumed session/, "the resume line", { history: 200 });
  const flat = s.replace(/\s+/g, " ");
  assert.match(flat, /search customers Globex/);
  assert.match(flat, /I found 37 Globex customer records/);
  assert.match(flat, /✓ demo · search_customers/);
  assert.match(flat, /line \d+: not JSON .*; skipped/);
  assert.match(flat, /resumed session \S+ \(.*\): 1 prompt; the model's context holds its 4 items; mode chat/);

  second.submit("what did you find?");
  await second.idle(/second process answer/, "the second process's answer", { timeoutMs: 30_000, history: 200 });
  assert.deepEqual(fake.refused, []);
  const body = fake.requests.at(-1)!.body;
  const roles = body.messages.map((m: { role: string }) => m.role);
  assert.deepEqual(roles, ["user", "assistant", "user", "assistant", "user"]);
  const raw = JSON.stringify(body.messages);
  assert.ok(raw.includes("search customers Globex"), "the first prompt");
  assert.ok(
    body.messages[1].content.some(
      (b: { type: string; name?: string }) => b.type === "tool_use" && /search_customers/.test(b.name ?? ""),
    ),
    "the model's tool call",
  );
  assert.ok(
    body.messages[2].content[0].type === "tool_result" && /Globex/.test(JSON.stringify(body.messages[2].content[0])),
    "its result",
  );
  assert.ok(raw.includes("I found 37 Globex customer records"), "the model's answer");
  assert.ok(raw.includes("what did you find?"), "the new prompt");
  // The resumed session goes on in the same file.
  assert.deepEqual(
    readdirSync(dir).filter((n) => n.startsWith("session-")),
    [file],
  );
  second.submit("/quit");
  assert.equal(await second.exitCode(), 0);
  const again = JSON.parse(cli(first.stateDir, "sessions", "--json").stdout);
  assert.equal(again[0].turns, 2);
});

test("the prompt history is recalled with ↑ after a restart; /resume lists the saved sessions and goes on with one", async () => {
  const first = await startApp({ columns: 100, rows: 30 });
  open.push(first);
  first.submit("remember this prompt 42");
  await first.idle(/remember this prompt 42[\s\S]*mode chat/, "the first prompt's turn", { timeoutMs: 30_000 });
  first.submit("/quit");
  assert.equal(await first.exitCode(), 0);
  const second = await startApp({ columns: 100, rows: 30, env: { XDG_STATE_HOME: first.stateDir } });
  open.push(second);
  assert.ok(!second.screen().includes("remember this prompt 42"));
  second.keys("Up");
  await second.waitFor("› /quit", "the last line recalled");
  second.keys("Up");
  await second.waitFor("› remember this prompt 42", "the earlier prompt recalled");
  second.keys("C-u");
  await second.waitFor((x) => !x.includes("› remember"), "the prompt cleared");

  second.submit("/resume");
  const list = await second.waitFor(/ 1\. \S+ .* 1 turn +remember/, "the session list");
  assert.match(list, /\/resume N \(or an id\) goes on with one/);
  second.submit("/resume 1");
  const flat = (x: string) => x.replace(/\s+/g, " ");
  const s = await second.waitFor(
    (x) => /resumed session \S+ \(.*\): 1 prompt; the model's context holds its \d+ items; mode chat/.test(flat(x)),
    "the resumed session",
    { history: 100 },
  );
  assert.match(s, /─ \/resume \S+ ─[\s\S]*› remember this prompt 42/);
  // It goes on in the first session's file.
  second.submit("and one more");
  await second.idle(/and one more[\s\S]*mode chat/, "the next turn");
  const dir = join(first.stateDir, "mcp-prism");
  const files = readdirSync(dir)
    .filter((n) => n.startsWith("session-"))
    .map((n) => readFileSync(join(dir, n), "utf8"));
  const holder = files.filter((f) => f.includes("remember this prompt 42"));
  assert.equal(holder.length, 1);
  assert.ok(
    holder[0].includes('"kind":"context","item":{"role":"user","text":"and one more"}'),
    "the new prompt's context record in the resumed file",
  );
});

test("--resume with an unknown id says so in one line and exits 1", async () => {
  const t = await startApp({ args: ["--resume", "no-such-session"], ready: /no session/ });
  open.push(t);
  assert.match(t.screen(), /mcp-prism: --resume: no session "no-such-session" \(mcp-prism sessions lists them\)/);
  assert.equal(await t.exitCode(), 1);
});
