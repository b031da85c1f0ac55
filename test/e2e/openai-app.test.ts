// The real app under tmux on an OpenAI-compatible model (the real openai SDK against the fake Chat
// Completions endpoint, which enforces the API's rules): a chat turn, /model listing the
// endpoint's models and switching mid-session (the status bar and the next request follow), a
// server's sampling request answered by the NEW model (its messages reach that model, its answer
// only the server), and a 429's wait counted down in the status bar, which Esc ends.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { startApp, type AppTerminal } from "../helpers/tmux.js";
import { ROOT, tempDir } from "../helpers/host-fixtures.js";
import { FakeOpenAI } from "../helpers/fake-openai.js";
import { INPUT_CANARIES, inputLegacyEntry } from "../fixtures/input-legacy-server.js";

const open: AppTerminal[] = [];
const fakes: FakeOpenAI[] = [];
after(async () => {
  open.forEach((t) => t.close());
  await Promise.all(fakes.map((f) => f.stop()));
});

test("OpenAI-compatible in the app: chat, /model switch, sampling by the new model, a retry wait shown and cancelled", async () => {
  const fake = await new FakeOpenAI().start();
  fakes.push(fake);
  // A sampling request (no tools, the server's system prompt) is answered with what it was asked.
  fake.responder = (body) => {
    const msgs: { role: string; content: unknown }[] = body.messages;
    if (!body.tools && msgs[0]?.role === "system" && String(msgs[0].content).includes(INPUT_CANARIES.system))
      return { kind: "reply", text: `summary of: ${JSON.stringify(msgs.at(-1)?.content)}` };
    return { kind: "reply", text: `plain answer from ${body.model}` };
  };
  const cfg = join(tempDir(), "app.json");
  writeFileSync(
    cfg,
    JSON.stringify({
      mcpServers: {
        legacy: inputLegacyEntry(ROOT),
      },
      limits: { discoverTimeoutMs: 15000, connectWaitMs: 60000 },
    }),
  );
  const t = await startApp({
    args: ["--config", cfg, "--model", "openai-compatible:fake-large", "--base-url", fake.baseURL],
    columns: 150,
    rows: 50,
    ready: /legacy 2025-11-25 connected/,
  });
  open.push(t);
  await t.waitFor(/model openai-compatible:fake-large/, "the status bar names the model");

  t.submit("hello there");
  await t.idle(/plain answer from fake-large/, "a turn through the openai SDK");

  t.submit("/model");
  await t.idle(/fake-large[\s\S]*fake-small[\s\S]*fake-notools/, "the endpoint's models listed");
  t.submit("/model fake-small");
  await t.idle(/model openai-compatible:fake-small/, "switched: the status bar follows");
  t.submit("and now?");
  await t.idle(/plain answer from fake-small/, "the next turn goes to the new model");
  const last = fake.chats().at(-1)!.body;
  assert.equal(last.model, "fake-small");
  assert.match(JSON.stringify(last.messages), /hello there[\s\S]*plain answer from fake-large[\s\S]*and now\?/);

  t.submit("/call sample {}");
  await t.waitFor("asks the model for a sample (at most 50 tokens)", "the sampling approval");
  t.keys("y");
  await t.idle(/sampled \d+ chars from fake-small \(it saw the messages\)/, "the new model answered the server");
  const sampled = fake.chats().find((c) => JSON.stringify(c.body).includes(INPUT_CANARIES.sampling));
  assert.ok(sampled, "the sampling request went to the endpoint");
  assert.equal(sampled.body.model, "fake-small");
  assert.equal(sampled.body.tools, undefined, "no tools in a sampling request");
  assert.ok(sampled.body.max_completion_tokens <= 50, "the server's maxTokens bound");

  // A long retry-after: the wait is on the status bar until Esc ends the turn.
  fake.script({ kind: "status", status: 429, message: "Rate limit reached", headers: { "retry-after": "25" } });
  t.submit("one more");
  await t.waitFor(/rate-limited \(429\) · retry 1\/2 in \d+s/, "the wait counted down in the status bar");
  t.keys("Escape");
  await t.idle(/cancelled/, "Esc ends the wait and the turn");
  assert.doesNotMatch(t.screen(), /retry 1\/2 in/, "the bar no longer shows the wait");
  const requests = fake.chats().length;
  t.submit("after the cancel");
  await t.idle(/plain answer from fake-small[\s\S]*plain answer from fake-small/, "the chat goes on");
  assert.equal(fake.chats().length, requests + 1, "the cancelled request was not sent again");
});
