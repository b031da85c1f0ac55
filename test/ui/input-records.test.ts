// The app's InputProvider keeps every question and its answer in the transcript (an
// `elicitation` / `sampling` record: sanitized, bounded, the sampled text itself never kept),
// accept, decline and cancel alike.
import { test } from "node:test";
import assert from "node:assert/strict";
import { UiInput } from "../../src/ui/input-dialogs.js";
import { SessionStore } from "../../src/ui/state.js";
import { OfflineModel } from "../../src/model/offline.js";
import { parseElicit, parseSample } from "../../src/host/input/input-provider.js";

const CANARY = "CANARY-RECORD-51c0";

function setup() {
  const store = new SessionStore();
  const input = new UiInput(new OfflineModel());
  input.attach(store);
  /** Answers the dialog once it is shown. */
  const answer = async (a: unknown) => {
    for (let i = 0; i < 50 && !store.getState().input; i++) await new Promise((r) => setTimeout(r, 5));
    const pending = store.getState().input!;
    (pending.resolve as (v: unknown) => void)(a);
  };
  return { store, input, answer };
}

test("a form's question and its answer (accept with content, decline, cancel) are transcript records, bounded", async () => {
  const { store, input, answer } = setup();
  const form = parseElicit("crm", {
    message: `Subject?\u001b[31m ${CANARY} ${"x".repeat(3000)}`,
    requestedSchema: { type: "object", properties: { subject: { type: "string" }, n: { type: "integer" } } },
  });
  assert.ok(form.ok);
  const accepted = input.elicit(form.value);
  await answer({ action: "accept", content: { subject: "y".repeat(2000), n: 3 } });
  assert.equal((await accepted).action, "accept");
  for (const action of ["decline", "cancel"]) {
    const p = input.elicit(form.value);
    await answer({ action });
    assert.equal((await p).action, action);
  }
  const url = parseElicit("crm", {
    mode: "url",
    message: "Sign in",
    url: "https://example.com/x",
    elicitationId: "e1",
  });
  assert.ok(url.ok);
  const u = input.elicit(url.value);
  await answer({ action: "accept" });
  await u;
  const recs = store.transcript().filter((r) => r.kind === "elicitation");
  assert.deepEqual(
    recs.map((r) => r.action),
    ["accept", "decline", "cancel", "accept"],
  );
  const first = recs[0] as any;
  assert.equal(first.server, "crm");
  assert.deepEqual(first.fields, ["subject", "n"]);
  assert.ok(!first.message.includes("\u001b"), "sanitized");
  assert.ok(first.message.length <= 501, "bounded");
  assert.ok(first.content.subject.length <= 501);
  assert.equal(first.content.n, "3");
  assert.equal(recs[1].content, undefined, "a decline carries no content");
  assert.equal((recs[3] as any).url, "https://example.com/x");
});

test("a sampling request and its answer are transcript records: approved (the size, not the text), declined", async () => {
  const { store, input, answer } = setup();
  const req = parseSample("crm", {
    messages: [{ role: "user", content: { type: "text", text: `Summarise ${CANARY}` } }],
    systemPrompt: "Be brief",
    maxTokens: 50,
    includeContext: "allServers",
  });
  assert.ok(req.ok);
  const yes = input.sample(req.value);
  await answer(true);
  const got = await yes;
  assert.equal(got.action, "accept");
  const no = input.sample(req.value);
  await answer(false);
  assert.equal((await no).action, "decline");
  const recs = store.transcript().filter((r) => r.kind === "sampling") as any[];
  assert.deepEqual(
    recs.map((r) => r.action),
    ["accept", "decline"],
  );
  assert.equal(recs[0].sampledChars, got.action === "accept" ? got.text.length : -1);
  assert.equal(recs[0].model, "offline");
  assert.equal(recs[0].ignored, "ignored: includeContext allServers (no server context is sent)");
  assert.deepEqual(recs[0].messages, [{ role: "user", text: `Summarise ${CANARY}` }]);
  assert.ok(!JSON.stringify(recs).includes("Offline sample"), "the sampled text is never kept");
});
