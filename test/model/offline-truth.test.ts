// The offline model tells the truth about what reached its context, per mode, on the real demo
// server: a receipt is named as the host's (and where it says the output went), a tool's words
// about what it "displayed" or "showed" are not taken as something the model saw.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { Host } from "../../src/host/host.js";
import { OfflineModel } from "../../src/model/offline.js";
import { Conversation } from "../../src/model/conversation.js";
import { runTurn } from "../../src/model/turn.js";
import type { Mode } from "../../src/host/types.js";
import { config, demoStdioSource } from "../helpers/host-fixtures.js";

let host: Host | undefined;
after(async () => host?.close());

async function answer(prompt: string, mode: Mode): Promise<string> {
  host ??= await Host.start({ config: config({ demo: demoStdioSource() }), eraCache: false });
  const r = await runTurn({
    adapter: new OfflineModel({ chunkDelayMs: 0 }),
    executor: host,
    conversation: new Conversation(),
    prompt,
    mode,
    events: () => {},
  });
  return r.answer;
}

test("code mode search: the host's receipt, where it went, and no word about image data", async () => {
  const a = await answer("search customers Globex", "code");
  assert.match(
    a,
    /None of search_customers's output reached me\. The host's receipt says: search_customers: programmatic\/structured [\d.]+ k?B .*went to program logic, not to you\./,
  );
  assert.ok(!/image/i.test(a), a);
});

test("app mode search: the tool's 'displayed in an interactive table' is its claim, not something the model saw", async () => {
  const a = await answer("search customers Globex", "app");
  assert.match(a, /returned to me: I found 37 Globex customer records/);
  assert.match(a, /What search_customers says was shown or displayed, I did not see: only its text reached me\./);
});

test("chat mode images: no pixels reached the model, and the tool claims only that they were returned for the user", async () => {
  const a = await answer("generate 2 images of a sunrise", "chat");
  assert.match(a, /I received no image data\./);
  assert.match(a, /The images were returned in this call's user output\./);
  assert.ok(!/I received \d+ images?/.test(a));
});

test("minimal mode images: the tool says the images were not returned (nothing claims they were shown)", async () => {
  const a = await answer("generate 2 images of a sunrise", "minimal");
  assert.match(a, /The images themselves were not returned by this call/);
  assert.doesNotMatch(a, /were shown|was shown/);
});

test("chat mode search: the tool's text only, nothing added", async () => {
  const a = await answer("search customers Globex", "chat");
  assert.match(
    a,
    /^search_customers returned to me: I found 37 Globex customer records\. The three most recently active accounts are/,
  );
  assert.ok(!/image|did not see/.test(a), a);
});
