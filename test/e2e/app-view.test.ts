// The real app in tmux with the App View: /view says where the View host is (conversation and App
// pane), an app-mode call of refresh_dashboard shows the dashboard App in headless Chromium with its
// data, and /quit tears the View down.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { startApp, type AppTerminal } from "../helpers/tmux.js";
import { appFrame, launchBrowser, screenshot } from "../helpers/browser.js";

const open: AppTerminal[] = [];
after(() => open.forEach((t) => t.close()));

test("/view in the chat app: the App pane says where the View is, and the call's View renders", async () => {
  const t = await startApp({ columns: 200, rows: 50 });
  open.push(t);
  const browser = await launchBrowser();
  try {
    t.submit("/mode app");
    await t.waitFor("mode app · model offline", "app mode in the status bar");
    t.submit("/view");
    const s = await t.idle(/App View: http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]{32}\//, "the View's URL");
    const url = /App View: (http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]{32}\/)/.exec(s)?.[1] as string;
    assert.match(s, /App View host: http/, "the App pane says where the View is");
    const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
    await page.goto(url);
    t.submit("/call refresh_dashboard {}");
    const app = await appFrame(page);
    await app.getByText(/Dataset \S+, \d+ customers/).waitFor({ timeout: 30_000 });
    await screenshot(page, "chat-app-view");
    await t.idle(/view v1 · initialized/, "the View's initialized note in the App pane");
    t.submit("/quit");
    assert.equal(await t.exitCode(), 0);
    await page.locator("section[data-view]").waitFor({ state: "detached", timeout: 10_000 }).catch(() => {});
    assert.equal(await page.locator("section[data-view]").count(), 0, "the View was torn down");
  } finally {
    await browser.close();
  }
});
