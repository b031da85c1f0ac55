// The real example Apps of @modelcontextprotocol/ext-apps (devDependencies, over stdio) in headless
// Chromium, under each View projection: what they draw from the tool result is the evidence for
// SEP-3279's question on how a View reads the ui output (docs/view.md). Both are legacy-era servers:
// in app mode their structuredContent is the View's data.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { Host } from "../../src/host/host.js";
import type { ServerConfig } from "../../src/host/config/config.js";
import type { ViewProjection } from "../../src/host/types.js";
import { ViewSession, type ViewNote } from "../../src/view/session.js";
import { CallLifecycle } from "../../src/host/call/lifecycle.js";
import { CallGate } from "../../src/host/call/gate.js";
import { config, ROOT } from "../helpers/host-fixtures.js";
import { appFrame, launchBrowser, screenshot } from "../helpers/browser.js";

const example = (name: string): ServerConfig => ({
  kind: "stdio",
  command: process.execPath,
  args: [join(ROOT, "node_modules", "@modelcontextprotocol", name, "dist", "index.js"), "--stdio"],
});

for (const projection of ["result", "output"] as ViewProjection[]) {
  test(`server-basic-vanillajs renders the time and calls get-time back (projection ${projection})`, async () => {
    const host = await Host.start({
      config: config({ basic: example("server-basic-vanillajs") }),
      mode: "app",
      eraCache: false,
    });
    const notes: ViewNote[] = [];
    // get-time is not marked read-only: the App's call back goes through the gate, approved as with --yes.
    const session = new ViewSession(host, {
      projection,
      onNote: (n) => notes.push(n),
      calls: new CallLifecycle(new CallGate({ yes: true })),
    });
    const browser = await launchBrowser();
    try {
      await session.start();
      const page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
      await page.goto(session.url);
      const shown = await session.present("get-time", {});
      assert.ok(shown.view.ok, JSON.stringify(shown.view));
      assert.ok(shown.outcome?.ok, "the call succeeded");
      const app = await appFrame(page);
      const time = app.locator("#server-time");
      // Polled from here, not with waitForFunction: a string predicate is an eval in the App's
      // frame, which the App's CSP (no 'unsafe-eval') may refuse.
      const first = await until(
        () => time.textContent(),
        (t) => /^\d{4}-\d\d-\d\dT/.test(t ?? ""),
      );
      await screenshot(page, `basic-vanillajs-${projection}`);
      await new Promise((r) => setTimeout(r, 20));
      await app.locator("#get-time-btn").click();
      await until(
        () => time.textContent(),
        (t) => /^\d{4}-/.test(t ?? "") && t !== first,
      );
      assert.ok(
        notes.some((n) => n.kind === "log" && n.text.startsWith("tools/call get-time from the View: ok")),
        JSON.stringify(notes),
      );
      await page.close();
    } finally {
      await browser.close();
      await session.close();
      await host.close();
    }
  });

  test(`server-budget-allocator renders its budget data (projection ${projection})`, async () => {
    const host = await Host.start({
      config: config({ budget: example("server-budget-allocator") }),
      mode: "app",
      eraCache: false,
    });
    const session = new ViewSession(host, { projection });
    const browser = await launchBrowser();
    try {
      await session.start();
      const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
      await page.goto(session.url);
      const shown = await session.present("get-budget-data", {});
      assert.ok(shown.view.ok, JSON.stringify(shown.view));
      const app = await appFrame(page);
      await app.getByText("Marketing").first().waitFor({ timeout: 20_000 });
      await app.getByText(/Allocated: \$100,000/).waitFor({ timeout: 20_000 });
      const text = (await app.locator("body").textContent()) ?? "";
      for (const c of ["Marketing", "Engineer", "Operations", "Sales", "R&D"])
        assert.ok(text.includes(c), `category ${c} drawn`);
      assert.match(text, /25\.0%[\s\S]*35\.0%/, "the allocations from the tool result");
      assert.ok((await app.locator("svg, canvas").count()) > 0, "the chart is drawn");
      await screenshot(page, `budget-allocator-${projection}`);
      await page.close();
    } finally {
      await browser.close();
      await session.close();
      await host.close();
    }
  });
}

/** Reads `read` every 100 ms until `ok` holds (at most 20 s); returns the value that held. */
async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  const end = Date.now() + 20_000;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`timed out; last value ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
