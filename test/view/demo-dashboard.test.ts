// The demo dashboard as a real MCP App in headless Chromium: the local View host, the real
// AppBridge, the sandbox proxy; the View draws the ui/structured rows and facets, and its Refresh
// button calls refresh_dashboard back through the host (Host.call, ui outputs requested).
import { test } from "node:test";
import assert from "node:assert/strict";
import { Host } from "../../src/host/host.js";
import { ViewSession, type ViewNote } from "../../src/view/session.js";
import { config, demoStdio, demoTeed, tempDir, wireLines } from "../helpers/host-fixtures.js";
import { appFrame, launchBrowser, screenshot } from "../helpers/browser.js";
import { join } from "node:path";

test("the demo dashboard renders its ui output and calls refresh_dashboard back", async () => {
  const log = join(tempDir(), "wire.jsonl");
  const host = await Host.start({ config: config({ demo: demoTeed(log) }), mode: "app", eraCache: false });
  const notes: ViewNote[] = [];
  const session = new ViewSession(host, { onNote: (n) => notes.push(n) });
  const browser = await launchBrowser();
  try {
    await session.start();
    const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
    await page.goto(session.url);
    const shown = await session.present("refresh_dashboard", {});
    assert.ok(shown.view.ok, JSON.stringify(shown.view));
    const app = await appFrame(page);
    await app.getByText(/Dataset \S+, \d+ customers/).waitFor({ timeout: 20_000 });
    const regions = await app.locator("#regions tr").count();
    assert.ok(regions > 0, "region rows drawn");
    assert.ok((await app.locator("#plans li").count()) > 0, "plan facets drawn");
    await screenshot(page, "demo-dashboard");

    const before = wireLines(log).filter((m) => m.method === "tools/call").length;
    await app.getByRole("button", { name: "Refresh" }).click();
    await app.getByText("refreshed from the View (ok)").waitFor({ timeout: 20_000 });
    const calls = wireLines(log).filter((m) => m.method === "tools/call");
    assert.equal(calls.length, before + 1, "one tools/call from the View");
    const last = calls[calls.length - 1];
    assert.equal(last.params.name, "refresh_dashboard");
    assert.deepEqual(last.params.requestedOutputs, [{ audience: "io.modelcontextprotocol/ui", format: "structured" }]);
    assert.ok(
      notes.some((n) => n.kind === "initialized"),
      "the View's initialized notification reached the host",
    );
    await page.close();
  } finally {
    await browser.close();
    await session.close();
    await host.close();
  }
});

test("search_customers (the reviewer's Apps call) renders its rows and facets in the dashboard App, under both projections", async () => {
  const host = await Host.start({ config: config({ demo: demoStdio() }), mode: "app", eraCache: false });
  const browser = await launchBrowser();
  try {
    for (const projection of ["result", "output"] as const) {
      const session = new ViewSession(host, { projection });
      await session.start();
      const page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
      await page.goto(session.url);
      const shown = await session.present("search_customers", { query: "Globex" });
      assert.ok(shown.view.ok, JSON.stringify(shown.view));
      const app = await appFrame(page);
      await app.getByText(/\d+ customers match/).waitFor({ timeout: 20_000 });
      assert.ok((await app.locator("#rows tr").count()) > 1, "rows under a header");
      assert.match((await app.locator("#rows").textContent()) ?? "", /Globex/);
      assert.match((await app.locator("#facets").textContent()) ?? "", /region: /);
      await screenshot(page, `demo-search-${projection}`);
      await page.close();
      await session.close();
    }
  } finally {
    await browser.close();
    await host.close();
  }
});
