// What a View may ask the host, at the View host's rpc endpoint (as the page relays it): ui/message
// only after the user says yes, ui/update-model-context kept for the model's next request,
// ui/open-link asked first (http(s) only), logs and sizes as notes; and the View sink's two
// projections and the legacy resourceUri keys, unit by unit.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { Host } from "../../src/host/host.js";
import { appResourceUri, callableFromApp } from "../../src/host/catalog/app-only.js";
import { route, toView } from "../../src/host/result/router.js";
import { UI_EXTENSION } from "../../src/protocol/index.js";
import { ViewSession, viewQuestionText, type ViewNote, type ViewQuestion } from "../../src/view/session.js";
import { viewPolicy } from "../../src/view/csp.js";
import { CallGate, type ApprovalAnswer, type ApprovalRequest } from "../../src/host/call/gate.js";
import { CallLifecycle } from "../../src/host/call/lifecycle.js";
import { config, ROOT } from "../helpers/host-fixtures.js";

const SERVER = {
  kind: "stdio" as const,
  command: process.execPath,
  args: ["--import", "tsx", join(ROOT, "test", "fixtures", "view-app-server.ts")],
  cwd: ROOT,
};

test("ui/message, ui/update-model-context, ui/open-link and notes go through the host's rules", async () => {
  const host = await Host.start({ config: config({ canary: SERVER }), mode: "app", eraCache: false });
  const asked: ViewQuestion[] = [];
  let answer = true;
  const turns: string[] = [];
  const opened: string[] = [];
  const notes: ViewNote[] = [];
  const session = new ViewSession(host, {
    confirm: async (q) => (asked.push(q), answer),
    onUserTurn: (t) => turns.push(t),
    openLink: (u) => opened.push(u),
    onNote: (n) => notes.push(n),
  });
  try {
    await session.start();
    const shown = await session.present("canary_view", {});
    assert.ok(shown.view.ok);
    const id = shown.view.ok ? shown.view.id : "";
    const rpc = async (method: string, params: unknown) => {
      const res = await fetch(`${session.url}rpc`, {
        method: "POST",
        headers: { origin: session.server.hostOrigin, "content-type": "application/json" },
        body: JSON.stringify({ view: id, method, params }),
      });
      return (await res.json()) as { result?: Record<string, unknown>; error?: { code: number; message: string } };
    };
    assert.deepEqual(
      await rpc("ui/message", { role: "user", content: [{ type: "text", text: "hello from the View" }] }),
      { result: {} },
    );
    assert.deepEqual(turns, ["hello from the View"]);
    assert.deepEqual(
      asked[0],
      { kind: "message", view: id, server: "canary", tool: "canary_view", text: "hello from the View" },
      "what the App asks, from which server",
    );
    assert.equal(
      viewQuestionText(asked[0]),
      "The App of canary_view (server canary) asks to send this message as you:\nhello from the View\nSend it as your next turn?",
    );
    answer = false;
    assert.deepEqual(await rpc("ui/message", { role: "user", content: [{ type: "text", text: "again" }] }), {
      result: { isError: true },
    });
    assert.deepEqual(turns, ["hello from the View"], "a declined message is no turn");

    await rpc("ui/update-model-context", { content: [{ type: "text", text: "the user picked Q3" }] });
    assert.deepEqual(session.takeModelContext(), [
      { server: "canary", tool: "canary_view", text: "the user picked Q3" },
    ]);
    assert.deepEqual(session.takeModelContext(), [], "taken once");

    answer = true;
    asked.length = 0;
    assert.deepEqual(await rpc("ui/open-link", { url: "https://example.com/docs" }), { result: {} });
    assert.deepEqual(opened, ["https://example.com/docs"]);
    assert.deepEqual(asked[0], {
      kind: "open-link",
      view: id,
      server: "canary",
      tool: "canary_view",
      text: "https://example.com/docs",
      host: "example.com",
    });
    assert.equal(
      viewQuestionText(asked[0]),
      "The App of canary_view (server canary) asks to open a link\nhost: example.com\nhttps://example.com/docs\nOpen it in the browser?",
    );
    // A link that reads as a github.com login but goes to аpple.com (Cyrillic а, U+2215 slashes in
    // the userinfo): asked and opened as the browser reads it, its real host on a line of its own.
    const spoof = "https://gіthub.com∕login∕oauth@аpple.com/";
    asked.length = 0;
    assert.deepEqual(await rpc("ui/open-link", { url: spoof }), { result: {} });
    const real = new URL(spoof).href;
    assert.equal(asked[0].host, "xn--pple-43d.com");
    assert.equal(asked[0].text, real);
    assert.ok(!asked[0].text.includes("github") && !asked[0].text.includes("∕"), asked[0].text);
    assert.match(viewQuestionText(asked[0]), /\nhost: xn--pple-43d\.com\n/);
    assert.equal(opened.at(-1), real, "the normalised href is opened, never the App's string");
    opened.length = 0;
    opened.push("https://example.com/docs");
    answer = false;
    assert.deepEqual(
      await rpc("ui/open-link", { url: "https://example.com/other" }),
      { result: { isError: true } },
      "declined: not opened",
    );
    assert.equal(asked.length, 2);
    assert.deepEqual(await rpc("ui/open-link", { url: "javascript:alert(1)" }), { result: { isError: true } });
    assert.equal(asked.length, 2, "a non-http link is not even asked");
    assert.deepEqual(await rpc("ui/open-link", { url: " javascript:alert(1)" }), { result: { isError: true } });
    assert.deepEqual(await rpc("ui/open-link", { url: "file:///etc/passwd" }), { result: { isError: true } });
    assert.deepEqual(await rpc("ui/open-link", { url: "https://[not a host" }), { result: { isError: true } });
    assert.equal(asked.length, 2, "nor one new URL() refuses");
    assert.deepEqual(opened, ["https://example.com/docs"]);

    await rpc("notifications/message", { level: "info", data: "a log line" });
    await rpc("ui/notifications/size-changed", { width: 300, height: 200 });
    assert.ok(notes.some((n) => n.kind === "log" && n.text.includes("a log line")));
    assert.ok(notes.some((n) => n.kind === "size" && n.text === "300×200"));
    assert.equal((await rpc("sampling/createMessage", {})).error?.code, -32601);
    assert.equal((await rpc("tools/call", { name: "no_such_tool" })).error?.code, -32602);
    const other = await fetch(`${session.url}rpc`, {
      method: "POST",
      headers: { origin: session.server.hostOrigin },
      body: JSON.stringify({ view: "v999", method: "tools/call", params: {} }),
    });
    assert.match(((await other.json()) as { error: { message: string } }).error.message, /no such View/);
  } finally {
    await session.close();
    await host.close();
  }
});

test("the View sink: a reduced CallToolResult or the ui output alone, never another audience", () => {
  const outputs = [
    { audience: "assistant", format: "content", content: [{ type: "text", text: "A" }] },
    { audience: UI_EXTENSION, format: "structured", structuredContent: { rows: [1] } },
    { audience: UI_EXTENSION, format: "content", content: [{ type: "text", text: "U" }] },
  ] as never;
  const routed = route(outputs, { appExtensions: [UI_EXTENSION], meta: { [UI_EXTENSION]: { v: 1 }, other: "x" } });
  assert.deepEqual(toView(routed, UI_EXTENSION, "result").payload, {
    content: [{ type: "text", text: "U" }],
    structuredContent: { rows: [1] },
    _meta: { [UI_EXTENSION]: { v: 1 } },
  });
  assert.deepEqual(toView(routed, UI_EXTENSION, "output").payload, {
    audience: UI_EXTENSION,
    format: "structured",
    structuredContent: { rows: [1] },
  });
  const none = route([{ audience: "assistant", format: "content", content: [] }] as never, {
    appExtensions: [UI_EXTENSION],
  });
  assert.deepEqual(toView(none, UI_EXTENSION, "result", true).payload, { content: [], isError: true });
});

test("Apps are found under both resourceUri keys; visibility decides what a View may call", () => {
  assert.equal(appResourceUri({ _meta: { ui: { resourceUri: "ui://a/x.html" } } }), "ui://a/x.html");
  assert.equal(appResourceUri({ _meta: { "ui/resourceUri": "ui://b/y.html" } }), "ui://b/y.html");
  assert.equal(appResourceUri({ _meta: { ui: { resourceUri: "https://evil.example/" } } }), undefined);
  assert.equal(callableFromApp({ _meta: { ui: { visibility: ["app"] } } }), true);
  assert.equal(callableFromApp({ _meta: { ui: { visibility: ["model"] } } }), false);
  assert.equal(callableFromApp({}), true);
});

test("the View's CSP: restrictive by default, widened only by declared origins", () => {
  const def = viewPolicy(undefined, "http://127.0.0.1:1");
  assert.match(def.csp, /default-src 'none'/);
  assert.match(def.csp, /connect-src 'none'/);
  assert.equal(def.allow, "");
  const p = viewPolicy(
    {
      csp: {
        connectDomains: ["https://api.example.com", "https://x.example; script-src *"],
        resourceDomains: ["https://cdn.example.com"],
      },
      permissions: { camera: {}, teleport: {} },
    },
    "http://127.0.0.1:1",
  );
  assert.match(p.csp, /connect-src 'self' https:\/\/api\.example\.com;/);
  assert.match(p.csp, /script-src 'self' 'unsafe-inline' https:\/\/cdn\.example\.com;/);
  assert.doesNotMatch(p.csp, /script-src \*/);
  assert.equal(p.allow, "camera");
  assert.equal(p.dropped.length, 2);
});

const WIPE = { path: "/home/user/important", recursive: true };

/** A View's tools/call of `wipe`, as the page relays it. */
async function viewCall(session: ViewSession, id: string) {
  const res = await fetch(`${session.url}rpc`, {
    method: "POST",
    headers: { origin: session.server.hostOrigin },
    body: JSON.stringify({ view: id, method: "tools/call", params: { name: "wipe", arguments: WIPE } }),
  });
  return (await res.json()) as { result?: Record<string, unknown>; error?: { code: number; message: string } };
}

test("a View's tools/call goes through the gate with its real arguments: declined, an error; always, asked once", async () => {
  const host = await Host.start({ config: config({ canary: SERVER }), mode: "app", eraCache: false });
  const asked: ApprovalRequest[] = [];
  let answer: ApprovalAnswer = "no";
  const calls = new CallLifecycle(new CallGate({ ask: async (r) => (asked.push(r), answer) }));
  const session = new ViewSession(host, { calls });
  try {
    await session.start();
    const shown = await session.present("canary_view", {});
    assert.equal(asked.length, 0, "the person's own call (and a read-only tool) is not asked");
    const id = shown.view.ok ? shown.view.id : "";
    const no = await viewCall(session, id);
    assert.match(no.error?.message ?? "", /^tools\/call wipe: not approved: the user declined this call$/);
    // 27.4: what the person is asked about is the call the server would get.
    assert.deepEqual(asked[0], { server: "canary", tool: "wipe", args: WIPE, source: "view", detail: undefined });
    answer = "always";
    const ok = await viewCall(session, id);
    assert.equal(ok.error, undefined);
    assert.ok(
      JSON.stringify(ok.result).includes('"run":1'),
      `the declined call never reached the server: ${JSON.stringify(ok.result)}`,
    );
    const again = await viewCall(session, id);
    assert.ok(JSON.stringify(again.result).includes('"run":2'));
    assert.equal(asked.length, 2, "after always: not asked again");
  } finally {
    await session.close();
    await host.close();
  }
});

test("27.3: a View session with nobody to ask refuses a destructive call unless --yes; the server never runs it", async () => {
  const host = await Host.start({ config: config({ canary: SERVER }), mode: "app", eraCache: false });
  const refusing = new ViewSession(host);
  try {
    await refusing.start();
    const shown = await refusing.present("canary_view", {});
    const no = await viewCall(refusing, shown.view.ok ? shown.view.id : "");
    assert.match(
      no.error?.message ?? "",
      /^tools\/call wipe: not approved: not marked read-only; the user did not approve it \(pass --yes to allow\)$/,
    );
  } finally {
    await refusing.close();
  }
  const yes = new ViewSession(host, { calls: new CallLifecycle(new CallGate({ yes: true })) });
  try {
    await yes.start();
    const shown = await yes.present("canary_view", {});
    const ok = await viewCall(yes, shown.view.ok ? shown.view.id : "");
    assert.ok(
      JSON.stringify(ok.result).includes('"run":1'),
      `--yes runs it, and it is the first run: ${JSON.stringify(ok.result)}`,
    );
  } finally {
    await yes.close();
    await host.close();
  }
});
