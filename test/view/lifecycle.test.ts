// A legacy server's Apps, declared under the older `_meta["ui/resourceUri"]` and under
// `_meta.ui.resourceUri`, in headless Chromium: the extension is advertised to it in app mode
// (initialize), its structuredContent is the View's data and its content is not; the handshake
// order (nothing before ui/notifications/initialized, then tool-input, then tool-result, or
// tool-cancelled when the call failed; the Views in order on one page; the host
// context with theme and size, and host-context-changed on resize); the View cannot call another
// server's tool or read another server's ui:// resource; and ui/resource-teardown reaches the App
// before its View is removed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { Host } from "../../src/host/host.js";
import { UI_EXTENSION } from "../../src/protocol/index.js";
import { ViewSession, type ViewNote } from "../../src/view/session.js";
import { config, demoStdio, ROOT, tempDir, wireLines } from "../helpers/host-fixtures.js";
import { appFrame, launchBrowser, screenshot } from "../helpers/browser.js";

const TEE = join(ROOT, "test", "fixtures", "wire-tee.mjs");
const LEGACY = join(ROOT, "test", "fixtures", "legacy-app-server.mjs");

test("a legacy server's Apps under both resourceUri keys: handshake, data, containment, teardown", async () => {
  const log = join(tempDir(), "wire.jsonl");
  const host = await Host.start({
    config: config({
      legacy: { kind: "stdio", command: process.execPath, args: [TEE, log, process.execPath, LEGACY], cwd: ROOT },
      demo: demoStdio(),
    }),
    mode: "app",
    eraCache: false,
  });
  const notes: ViewNote[] = [];
  const session = new ViewSession(host, { onNote: (n) => notes.push(n) });
  const browser = await launchBrowser();
  try {
    const init = wireLines(log).find((m) => m.method === "initialize");
    assert.ok(
      init?.params.capabilities.extensions?.[UI_EXTENSION],
      `the ui extension advertised in initialize: ${JSON.stringify(init?.params.capabilities)}`,
    );
    await session.start();
    const page = await browser.newPage({ viewport: { width: 900, height: 1200 } });
    await page.goto(session.url);
    const ids: string[] = [];
    for (const [n, tool] of ["old_key_view", "new_key_view"].entries()) {
      const shown = await session.present(tool, {});
      assert.ok(shown.view.ok, `${tool}: ${JSON.stringify(shown.view)}`);
      ids.push(shown.view.ok ? shown.view.id : "");
      const app = await appFrame(page, n);
      await app.getByText("attempts done").waitFor({ timeout: 30_000 });
      const dom = (await app.locator("#log").textContent()) ?? "";
      assert.doesNotMatch(dom, /EARLY/, `${tool}: nothing before initialized:\n${dom}`);
      const order = ["got ui/notifications/tool-input", "got ui/notifications/tool-result"].map((l) => dom.indexOf(l));
      assert.ok(order[0] >= 0 && order[1] > order[0], `${tool}: tool-input, then tool-result:\n${dom}`);
      assert.match(dom, new RegExp(`host-context: theme (light|dark), width \\d+, tool ${tool}`));
      assert.match(
        dom,
        new RegExp(`data: \\{"data":"LEGACY-UI-DATA from ${tool}"\\} content: \\[\\]`),
        "structuredContent is the View's data; content is the model's",
      );
      assert.doesNotMatch(dom, /LEGACY-MODEL-TEXT/);
      assert.match(dom, /other-tool: refused .*no such tool on server legacy/);
      assert.match(
        dom,
        /other-resource: refused server legacy, resource ui:\/\/dashboard\/index\.html/,
        "asked of its own server only",
      );
      assert.equal(
        shown.outcome?.ok && shown.outcome.routed.model.some((o) => JSON.stringify(o).includes("LEGACY-MODEL-TEXT")),
        true,
        "the model got the content",
      );
    }
    const broken = await session.present("broken_view", {});
    assert.ok(broken.view.ok && broken.outcome && !broken.outcome.ok, "the call failed, its View is open");
    const cancelled = await appFrame(page, 2);
    await cancelled.getByText("got ui/notifications/tool-cancelled").waitFor({ timeout: 20_000 });
    assert.doesNotMatch((await cancelled.locator("#log").textContent()) ?? "", /EARLY|tool-result/);
    assert.deepEqual(
      await page.locator("section[data-view] h2").allTextContents(),
      ["legacy · old_key_view", "legacy · new_key_view", "legacy · broken_view"],
      "one page, the Views in order",
    );
    await screenshot(page, "legacy-apps");
    await page.setViewportSize({ width: 700, height: 1200 });
    await (await appFrame(page, 0)).getByText("got ui/notifications/host-context-changed").waitFor({ timeout: 20_000 });

    await session.teardown(ids[0]);
    const got = notes.findIndex((n) => n.view === ids[0] && n.kind === "log" && n.text.includes("teardown received"));
    const gone = notes.findIndex((n) => n.view === ids[0] && n.kind === "teardown");
    assert.ok(
      got >= 0 && gone > got,
      `ui/resource-teardown reached the App before the View was removed: ${JSON.stringify(notes.slice(-4))}`,
    );
    await page.locator(`section[data-view="${ids[0]}"]`).waitFor({ state: "detached", timeout: 10_000 });
    assert.equal(await page.locator("section[data-view]").count(), 2, "the other Views stay");
    await page.close();
  } finally {
    await browser.close();
    await session.close();
    await host.close();
  }
});
