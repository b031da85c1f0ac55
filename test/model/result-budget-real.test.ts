// A 2 MB file read through the real filesystem server and the real Anthropic SDK, against the fake
// Messages API enforcing a 200,000-token window: the request never meets a context-length error,
// the model gets the head and reaches the tail only through read_result, the user's copy (the call
// outcome the card draws) and the conversation the transcript records keep every byte.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Host } from "../../src/host/host.js";
import { AnthropicModel } from "../../src/model/anthropic.js";
import { Conversation, type ToolResultItem } from "../../src/model/conversation.js";
import { runTurn } from "../../src/model/turn.js";
import { FakeAnthropic } from "../helpers/fake-anthropic.js";
import { config } from "../helpers/host-fixtures.js";
import { filesystemStdio, realServerFiles } from "../helpers/real-servers.js";

const HEAD = "HEAD-CANARY-41d9";
const TAIL = "TAIL-CANARY-e07b";
let fake: FakeAnthropic;
let host: Host | undefined;
const files = realServerFiles();

before(async () => {
  fake = await new FakeAnthropic().start();
});
after(async () => {
  await host?.close();
  await fake.stop();
  files.remove();
});

const textOf = (body: any) => JSON.stringify(body.messages);

test("a 2 MB read_text_file: the head reaches the model, the tail only through read_result, nothing over the window", async () => {
  const line = "2026-12-03T08:00:00Z INFO request served in 12 ms from the upstream cache\n";
  const log = `${HEAD}\n${line.repeat(Math.ceil((2 * 1024 * 1024) / line.length))}${TAIL}\n`;
  const path = join(files.files, "big.log");
  writeFileSync(path, log);
  host = await Host.start({
    config: { ...config({ fs: filesystemStdio(files.files) }), roots: [files.files] },
    eraCache: false,
  });
  let handleSeen: { handle: string; offset: number } | undefined;
  fake.responder = (body, index) => {
    if (index === 0) return { kind: "reply", blocks: [{ type: "tool_use", name: "read_text_file", input: { path } }] };
    if (index === 1) {
      const note = /read_result tool: (\{\\"handle\\":\\"[^\\]+\\",\\"offset\\":\d+\})/.exec(textOf(body));
      if (!note) return { kind: "reply", blocks: [{ type: "text", text: "no note" }] };
      handleSeen = JSON.parse(note[1].replace(/\\"/g, '"'));
      return {
        kind: "reply",
        blocks: [
          { type: "tool_use", name: "read_result", input: { handle: handleSeen!.handle, offset: log.length - 200 } },
        ],
      };
    }
    return { kind: "reply", blocks: [{ type: "text", text: "The log ends normally." }] };
  };
  const conversation = new Conversation();
  const notices: string[] = [];
  const r = await runTurn({
    adapter: new AnthropicModel({ apiKey: "sk-test", baseURL: fake.url, model: "claude-test", maxRetries: 0 }),
    executor: host,
    conversation,
    prompt: "what does the end of big.log say?",
    mode: "chat",
    events: (e) => void (e.type === "notice" && notices.push(e.text)),
  });
  assert.equal(r.ok, true, r.error?.message);
  assert.deepEqual(fake.refused, []);
  assert.equal(fake.requests.length, 3);
  assert.ok(fake.peakTokens <= fake.contextWindow, `peak ${fake.peakTokens}`);
  // Request 1: the head and the note, no tail; read_result offered from then on.
  const second = fake.requests[1].body;
  assert.ok(textOf(second).includes(HEAD));
  assert.ok(!textOf(second).includes(TAIL));
  assert.ok(second.tools.some((t: { name: string }) => t.name === "read_result"));
  assert.ok(!fake.requests[0].body.tools.some((t: { name: string }) => t.name === "read_result"));
  assert.ok(handleSeen);
  // Request 2: the tail, inside read_result's tool_result only.
  const third = fake.requests[2].body;
  const last = third.messages.at(-1).content[0];
  assert.equal(last.type, "tool_result");
  assert.ok(JSON.stringify(last).includes(TAIL));
  assert.equal(
    third.messages.slice(0, -1).some((m: unknown) => JSON.stringify(m).includes(TAIL)),
    false,
  );
  // The user's copy and the conversation (the transcript's record) are whole.
  const outcome = r.toolCalls[0].outcome;
  assert.ok(outcome?.ok);
  const userText = JSON.stringify(outcome.routed);
  assert.ok(userText.includes(HEAD) && userText.includes(TAIL));
  const item = conversation.items.find((i): i is ToolResultItem => i.role === "tool")!;
  const kept = JSON.stringify(item.result);
  assert.ok(kept.includes(TAIL) && kept.length >= log.length);
  assert.equal(notices.filter((n) => /over the 25,000-token budget/.test(n)).length, 1);
});
