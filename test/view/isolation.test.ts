// What crosses into a View, and what a View cannot do. A server whose outputs, result `_meta` and
// stderr each carry their own canary: the App's DOM, the postMessage traffic in every frame and the
// host's View endpoints carry only the ui ones. The same App then acts hostile: it cannot navigate
// the top page, reach the host page or the proxy, fetch anything (CSP), call a model-only tool or
// read a non-ui resource, nor see the host's token in any URL it can read. And the View host refuses
// requests without the token or with a foreign Host or Origin, and sends no CORS header.
import { test } from "node:test";
import assert from "node:assert/strict";
import { request } from "node:http";
import { join } from "node:path";
import { Host } from "../../src/host/host.js";
import { ViewSession } from "../../src/view/session.js";
import { config, ROOT } from "../helpers/host-fixtures.js";
import { appFrame, launchBrowser, screenshot } from "../helpers/browser.js";
import { VIEW_CANARIES } from "../fixtures/view-app-server.js";

const SERVER = {
  kind: "stdio" as const,
  command: process.execPath,
  args: ["--import", "tsx", join(ROOT, "test", "fixtures", "view-app-server.ts")],
  cwd: ROOT,
};
const UI = [VIEW_CANARIES.ui, VIEW_CANARIES.uiMeta];
const OTHERS = Object.entries(VIEW_CANARIES)
  .filter(([k]) => k !== "ui" && k !== "uiMeta")
  .map(([, v]) => v);

function raw(
  url: string,
  opts: { method?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: opts.method ?? "GET", headers: opts.headers }, (res) => {
      let body = "";
      res.on("data", (c) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** The host's event stream as a page would read it, for `ms`. */
async function streamText(url: string, ms: number): Promise<string> {
  const ac = new AbortController();
  const res = await fetch(`${url}events`, { signal: ac.signal });
  const reader = res.body!.getReader();
  let text = "";
  const stop = setTimeout(() => ac.abort(), ms);
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += Buffer.from(value).toString("utf8");
    }
  } catch {
    // aborted: the read ends here
  } finally {
    clearTimeout(stop);
  }
  return text;
}

test("only the ui outputs cross into a View, and a hostile View is contained", async () => {
  const host = await Host.start({ config: config({ canary: SERVER }), mode: "app", eraCache: false });
  const session = new ViewSession(host);
  const browser = await launchBrowser();
  try {
    await session.start();
    const page = await browser.newPage();
    // Every frame records every message it receives.
    await page.addInitScript(
      `window.__msgs = []; window.addEventListener("message", (e) => window.__msgs.push(JSON.stringify(e.data)), true);`,
    );
    await page.goto(session.url);
    const shown = await session.present("canary_view", {});
    assert.ok(shown.view.ok, JSON.stringify(shown.view));
    assert.ok(
      shown.outcome?.ok && shown.outcome.routed.model.length > 0,
      "the assistant output went to the model sink",
    );
    const app = await appFrame(page);
    await app.getByText("attempts done").waitFor({ timeout: 30_000 });
    await screenshot(page, "canary-view");
    const dom = (await app.locator("body").textContent()) ?? "";
    for (const c of UI) assert.ok(dom.includes(c), `the View got ${c}`);
    for (const c of OTHERS) assert.ok(!dom.includes(c), `the View's DOM holds ${c}`);

    const traffic = (
      await Promise.all(
        page.frames().map((f) => (f.evaluate("window.__msgs || []") as Promise<string[]>).catch(() => [] as string[])),
      )
    )
      .flat()
      .join("\n");
    assert.ok(traffic.includes(VIEW_CANARIES.ui), "postMessage traffic recorded");
    for (const c of OTHERS) assert.ok(!traffic.includes(c), `postMessage traffic holds ${c}`);
    const stream = await streamText(session.url, 1500);
    assert.ok(stream.includes(VIEW_CANARIES.ui));
    for (const c of OTHERS) assert.ok(!stream.includes(c), `the event stream holds ${c}`);

    // The hostile attempts, as the App itself saw them.
    assert.match(dom, /top-nav: blocked/);
    assert.match(dom, /host-dom: blocked/);
    assert.match(dom, /proxy-dom: blocked/);
    assert.match(dom, /fetch http:\/\/127\.0\.0\.1:\d+: blocked/);
    assert.doesNotMatch(dom, /fetch [^:]+:\/\/[^ ]+: \d/);
    assert.match(dom, /model_only: refused .*not visible to Apps/);
    assert.match(dom, /secret: refused .*only ui:\/\/ resources/);
    assert.match(dom, /callback: .*VCANARY-UI-OUTPUT/);
    assert.equal(page.url(), session.url, "the top page was not navigated");
    // Every URL the App can see (its base URI is its proxy's URL) is free of the host's token.
    const where = /where: (.*)/.exec(dom)?.[1] ?? "";
    assert.match(where, /"base":"http:\/\/127\.0\.0\.1:\d+\/proxy\/[A-Za-z0-9_-]+"/, where);
    assert.ok(!where.includes(session.server.token), `the App sees the token: ${where}`);
    await page.close();

    // The View host's own checks.
    const { hostOrigin, sandboxOrigin, token } = session.server;
    const port = new URL(hostOrigin).port;
    const refusals: [string, Awaited<ReturnType<typeof raw>>, number][] = [
      ["no token", await raw(`${hostOrigin}/`), 404],
      ["wrong token", await raw(`${hostOrigin}/${"x".repeat(token.length)}/`), 404],
      ["foreign Host", await raw(session.url, { headers: { host: `evil.example:${port}` } }), 421],
      ["localhost Host", await raw(session.url, { headers: { host: `localhost:${port}` } }), 421],
      ["foreign Origin", await raw(`${session.url}events`, { headers: { origin: "http://evil.example" } }), 403],
      [
        "the sandbox's Origin",
        await raw(`${session.url}rpc`, {
          method: "POST",
          headers: { origin: sandboxOrigin, "content-type": "application/json" },
        }),
        403,
      ],
      [
        "rpc without Origin",
        await raw(`${session.url}rpc`, { method: "POST", headers: { "content-type": "application/json" } }),
        403,
      ],
      ["CORS preflight", await raw(`${session.url}rpc`, { method: "OPTIONS", headers: { origin: hostOrigin } }), 405],
      [
        "proxy with an Origin",
        await raw(session.server.proxyUrl(shown.view.ok ? shown.view.id : ""), { headers: { origin: hostOrigin } }),
        403,
      ],
      ["proxy at a guessed path", await raw(`${sandboxOrigin}/proxy/v1`), 404],
      ["proxy under the token", await raw(`${sandboxOrigin}/${token}/proxy/v1`), 404],
      ["proxy of no View", await raw(session.server.proxyUrl("v999")), 404],
    ];
    for (const [what, res, status] of refusals) {
      assert.equal(res.status, status, what);
      assert.ok(!Object.keys(res.headers).some((h) => h.startsWith("access-control-")), `${what}: a CORS header`);
      for (const c of [...UI, ...OTHERS]) assert.ok(!res.body.includes(c), `${what}: body holds ${c}`);
    }
    const proxy = await raw(session.server.proxyUrl(shown.view.ok ? shown.view.id : ""));
    assert.equal(proxy.status, 200);
    assert.match(String(proxy.headers["content-security-policy"]), /connect-src 'none'/);
    assert.match(String(proxy.headers["content-security-policy"]), new RegExp(`frame-ancestors ${hostOrigin}`));
  } finally {
    await browser.close();
    await session.close();
    await host.close();
  }
});
