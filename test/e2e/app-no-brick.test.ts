// The real app in tmux on the brick fixture server, its model the REAL Anthropic SDK pointed at
// the fake Messages API (which refuses any request that breaks the real API's rules): a failing
// tool, a declined tool, an undecodable image and a cancelled turn, each followed by a prompt that
// must succeed. The server's stderr shows in /servers and never in a model request.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { startApp, type AppTerminal } from "../helpers/tmux.js";
import { tempDir } from "../helpers/host-fixtures.js";
import { FakeAnthropic, type Responder } from "../helpers/fake-anthropic.js";
import { brickJson, CORRUPT_PNG, STDERR_CANARY } from "../helpers/brick.js";

const open: AppTerminal[] = [];
let fake: FakeAnthropic;
before(async () => {
  fake = await new FakeAnthropic().start();
});
after(async () => {
  open.forEach((t) => t.close());
  await fake.stop();
});

/** "use TOOL" calls TOOL; a message ending in tool results gets "after TOOL"; anything else "plain answer N". */
const byPrompt: Responder = (body, index) => {
  const last = body.messages.at(-1);
  const blocks: { type: string; text?: string; tool_use_id?: string }[] = Array.isArray(last.content)
    ? last.content
    : [{ type: "text", text: last.content }];
  const tail = blocks.at(-1)!;
  if (tail.type === "tool_result") {
    const prev = body.messages.at(-2).content.find((b: { type: string }) => b.type === "tool_use");
    return { kind: "reply", blocks: [{ type: "text", text: `answer after ${prev?.name}` }] };
  }
  const m = /^use (\w+)/.exec(tail.text ?? "");
  if (m)
    return {
      kind: "reply",
      blocks: [
        { type: "text", text: `Calling ${m[1]}.` },
        { type: "tool_use", name: m[1], input: {} },
      ],
    };
  return { kind: "reply", blocks: [{ type: "text", text: `plain answer ${index}` }] };
};

test("after a failing, a declined, an undecodable and a cancelled tool turn, the next prompt succeeds each time", async () => {
  fake.responder = byPrompt;
  const file = join(tempDir(), "mcp-prism.json");
  writeFileSync(
    file,
    JSON.stringify({ mcpServers: { brick: brickJson() }, limits: { callTimeoutMs: 60_000, connectWaitMs: 60_000 } }),
  );
  const t = await startApp({
    args: ["--config", file, "--model", "anthropic:claude-test"],
    columns: 140,
    rows: 50,
    env: { ANTHROPIC_API_KEY: "sk-fake", ANTHROPIC_BASE_URL: fake.url },
    ready: "brick 2026-12-01",
  });
  open.push(t);
  let n = 0;
  const nextPromptWorks = async (after: string) => {
    const before = fake.requests.length;
    t.submit(`hello ${++n}`);
    await t.idle(new RegExp(`plain answer ${before}`), `the prompt after ${after}`, {
      timeoutMs: 30_000,
      history: 300,
    });
  };

  t.submit("use fails");
  await t.idle(/answer after fails/, "the answer after the failing tool", { timeoutMs: 30_000, history: 300 });
  await nextPromptWorks("the failing tool");

  t.submit("use write_note");
  await t.waitFor(/\[y\]es \/ \[n\]o \/ \[a\]lways for this tool/, "the approval prompt");
  t.keys("n");
  await t.idle(/answer after write_note/, "the answer after the declined tool", { timeoutMs: 30_000, history: 300 });
  await nextPromptWorks("the declined tool");

  t.submit("use bad_image");
  const s = await t.idle(/answer after bad_image/, "the answer after the undecodable image", {
    timeoutMs: 30_000,
    history: 300,
  });
  assert.match(
    s.replace(/\s+/g, " "),
    /refused the request \(400: Could not process image\): 1 image from brick\/bad_image, replaced by a note/,
  );
  await nextPromptWorks("the undecodable image");

  t.submit("use slow");
  await t.waitFor("working…", "the slow call running");
  await new Promise((r) => setTimeout(r, 300));
  t.keys("Escape");
  await t.idle(/slow failed \[cancelled\]/, "the cancelled card", { timeoutMs: 15_000, history: 300 });
  await nextPromptWorks("the cancelled turn");

  t.submit("/servers");
  // The user sees the server's stderr in /servers.
  await t.idle(new RegExp(`stderr[^\\n]*:\\n\\s+token=${STDERR_CANARY}`), "/servers with the stderr tail", {
    history: 300,
  });
  assert.deepEqual(
    fake.refused.map((r) => r.message),
    ["Could not process image"],
    "no request broke the API's rules but the one image",
  );
  const bodies = fake.allBodies();
  assert.ok(!bodies.includes(STDERR_CANARY), "the server's stderr reached a model request");
  assert.equal(bodies.split(CORRUPT_PNG).length - 1, 1, "the refused image was sent once, never again");
  t.submit("/quit");
  assert.equal(await t.exitCode(20_000), 0);
});
