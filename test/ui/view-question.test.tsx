// An App View's ui/message and ui/open-link get their own dialog (components/ViewQuestion.tsx), not
// the tool-approval one: what the App asks, which App, which server; only [y] says yes (Enter does
// not: the App would speak as the user), [n]/Esc declines. UiInput.askView asks it in turn with the
// servers' questions and records the answer.
import "./env.js";
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { IssuerQuestion, ViewQuestion } from "../../src/ui/components/ViewQuestion.js";
import { InputDialog } from "../../src/ui/components/InputDialog.js";
import { UiInput } from "../../src/ui/input-dialogs.js";
import { SessionStore } from "../../src/ui/state.js";
import { OfflineModel } from "../../src/model/offline.js";
import type { ViewQuestion as Question } from "../../src/view/session.js";
import { renderAt, tick, stripAnsi, type Harness } from "./harness.js";

const open: Harness[] = [];
after(() => open.forEach((h) => h.unmount()));

const MESSAGE: Question = {
  kind: "message",
  view: "v1",
  server: "demo",
  tool: "refresh_dashboard",
  text: "Tell me about the 170 customers in EMEA.\nAnd their plans.",
};
const LINK: Question = {
  kind: "open-link",
  view: "v2",
  server: "basic",
  tool: "get-time",
  text: "https://example.com/docs",
  host: "example.com",
};

function dialog(req: Question) {
  const answers: boolean[] = [];
  const h = renderAt(<ViewQuestion req={req} width={90} onAnswer={(a) => answers.push(a)} />, 90);
  open.push(h);
  return { h, answers, frame: () => stripAnsi(h.lastFrame()) };
}

test("ui/message: the App, its server and the whole message; Enter does not send, y does", async () => {
  const { h, answers, frame } = dialog(MESSAGE);
  const f = frame();
  assert.match(f, /The App of refresh_dashboard \(server demo\) asks to send a message as you/);
  assert.match(f, /Tell me about the 170 customers in EMEA\./);
  assert.match(f, /And their plans\./);
  assert.match(f, /Send it as your next turn\? \[y\]es \/ \[n\]o/);
  assert.doesNotMatch(f, /Run tool|\[a\]lways/, "not the tool-approval wording");
  h.stdin.write("\r");
  await tick(15);
  assert.deepEqual(answers, [], "Enter is no answer");
  h.stdin.write("y");
  await tick(15);
  assert.deepEqual(answers, [true]);
});

test("ui/open-link: the link and who asks; n declines, Esc declines", async () => {
  const { h, answers, frame } = dialog(LINK);
  assert.match(frame(), /The App of get-time \(server basic\) asks to open a link/);
  assert.match(frame(), /https:\/\/example\.com\/docs/);
  assert.match(frame(), /Open it in the browser\? \[y\]es \/ \[n\]o/);
  h.stdin.write("n");
  await tick(15);
  h.stdin.write("\x1b");
  await tick(60);
  assert.deepEqual(answers, [false, false]);
});

test("ui/open-link: the host the browser will reach is on a line of its own (punycode)", () => {
  const spoof = new URL("https://gіthub.com∕login∕oauth@аpple.com/");
  const { frame } = dialog({ ...LINK, text: spoof.href, host: spoof.hostname });
  const lines = frame()
    .split("\n")
    .map((l) => l.replace(/[│┌┐└┘─]/g, "").trim());
  assert.ok(lines.includes("host: xn--pple-43d.com"), frame());
  assert.doesNotMatch(frame(), /github\.com|∕/, "the App's raw string is not what is shown");
});

test("what the App sends is sanitized: no terminal escapes reach the screen", () => {
  const { h } = dialog({ ...MESSAGE, tool: "evil\x1b]0;title\x07", text: "hi\x1b[2J there" });
  const raw = h.lastFrame() ?? "";
  assert.ok(!raw.includes("\x1b[2J") && !raw.includes("\x1b]0;"), JSON.stringify(raw));
  assert.match(stripAnsi(raw), /hi.*there/);
});

test("UiInput.askView: the dialog above the prompt, the answer, and a transcript record", async () => {
  const store = new SessionStore();
  const records: Record<string, unknown>[] = [];
  store.onRecord((r) => records.push(r));
  const input = new UiInput(new OfflineModel());
  input.attach(store);
  const asked = input.askView(MESSAGE);
  await tick(5);
  const pending = store.getState().input;
  assert.equal(pending?.kind, "view");
  const h = renderAt(<InputDialog input={pending!} width={90} />, 90);
  open.push(h);
  assert.match(stripAnsi(h.lastFrame()), /asks to send a message as you/);
  h.stdin.write("n");
  assert.equal(await asked, false);
  assert.equal(store.getState().input, undefined, "the dialog is gone");
  assert.deepEqual(
    records.map(({ at: _at, turn: _turn, ...r }) => r),
    [
      {
        kind: "view-question",
        server: "demo",
        tool: "refresh_dashboard",
        asks: "message",
        text: MESSAGE.text,
        action: "decline",
      },
    ],
  );
});

test("a configured OAuth client's new issuer: the issuer, its host, what is sent; only y says yes, in the dialog queue", async () => {
  const answers: boolean[] = [];
  const req = {
    server: "acme",
    issuer: "https://xn--gthub-n4a.com/",
    host: "xn--gthub-n4a.com",
    clientId: "prism-app",
    secret: true,
  };
  const h = renderAt(<IssuerQuestion req={req} width={100} onAnswer={(a) => answers.push(a)} />, 100);
  open.push(h);
  const f = stripAnsi(h.lastFrame());
  assert.match(f, /Sign-in to acme: a new authorization server/);
  assert.match(f, /host: xn--gthub-n4a\.com/);
  assert.match(f, /Send the configured client id and secret \(prism-app\) there\? \[y\]es \/ \[n\]o/);
  h.stdin.write("\r");
  await tick(15);
  assert.deepEqual(answers, []);
  h.stdin.write("y");
  await tick(15);
  assert.deepEqual(answers, [true]);
  // Through the app's InputProvider: the dialog is the store's pending input until answered.
  const store = new SessionStore();
  const input = new UiInput(new OfflineModel({ chunkDelayMs: 0 }));
  input.attach(store);
  const asked = input.confirmIssuer(req);
  await tick(5);
  const pending = store.getState().input;
  assert.equal(pending?.kind, "issuer");
  (pending as { resolve: (v: boolean) => void }).resolve(false);
  assert.equal(await asked, false);
});
