// The real app in tmux with the App View: /view says where the View host is (conversation and App
// pane), an app-mode call of refresh_dashboard shows the dashboard App in headless Chromium with its
// data, and /quit tears the View down; the picture of the terminal beside the View (the README's)
// is a test artifact. Then a View's ui/message: the App's own question in the terminal (not the
// tool-approval dialog); declined, the App gets an error result and no turn runs; accepted, it is
// the user's next turn, and what the App kept with ui/update-model-context reaches the model with it.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startApp, type AppTerminal } from "../helpers/tmux.js";
import { appFrame, ARTIFACTS, launchBrowser, screenshot } from "../helpers/browser.js";
import { besideHtml } from "../helpers/terminal-html.js";

const open: AppTerminal[] = [];
after(() => open.forEach((t) => t.close()));

const URL_RE = /App View: (http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]{32}\/)/;

async function appWithView(columns: number, rows: number, env?: Record<string, string>) {
  const t = await startApp({ columns, rows, env });
  open.push(t);
  t.submit("/mode app");
  await t.waitFor("mode app · model offline", "app mode in the status bar");
  t.submit("/view");
  const s = await t.idle(URL_RE, "the View's URL");
  return { t, s, url: URL_RE.exec(s)?.[1] as string };
}

test("/view in the chat app: the App pane says where the View is, and the call's View renders", async () => {
  // $BROWSER: a script that only writes down what it was asked to open.
  const dir = mkdtempSync(join(tmpdir(), "prism-browser-"));
  const opened = join(dir, "opened");
  const fake = join(dir, "browser.sh");
  writeFileSync(fake, `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`);
  chmodSync(fake, 0o755);
  const { t, s, url } = await appWithView(150, 42, { BROWSER: fake });
  const browser = await launchBrowser();
  try {
    assert.match(s, /App View host: http/, "the App pane says where the View is");
    t.submit("/view open");
    await t.idle(/opened http:\/\/127\.0\.0\.1\S* in the browser/, "/view open");
    const deadline = Date.now() + 10_000;
    while (!existsSync(opened) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.equal(readFileSync(opened, "utf8"), url, "/view open gave $BROWSER the View's URL");
    const page = await browser.newPage({ viewport: { width: 760, height: 640 } });
    await page.goto(url);
    t.submit("/call refresh_dashboard {}");
    const app = await appFrame(page);
    await app.getByText(/Dataset \S+, \d+ customers/).waitFor({ timeout: 30_000 });
    assert.ok((await app.locator("#regions tr").count()) > 0, "region rows drawn");
    await t.idle(/view v1 · initialized/, "the View's initialized note in the App pane");
    const shot = await screenshot(page, "chat-app-view");
    // The terminal beside the View, as the README shows it.
    const screen = t.tmux("capture-pane", "-p", "-e", "-t", "e2e");
    const composite = await browser.newPage({ viewport: { width: 1200, height: 600 } });
    await composite.setContent(besideHtml(screen, readFileSync(shot), "the App View: http://127.0.0.1:PORT/TOKEN/"));
    const beside = join(ARTIFACTS, "dashboard-beside-terminal.png");
    await composite.screenshot({ path: beside, fullPage: true });
    assert.match(
      (await composite.locator(".term").textContent()) ?? "",
      /view v1 · initialized/,
      "the terminal in the picture",
    );
    await composite.close();
    writeFileSync(join(ARTIFACTS, "dashboard-beside-terminal.txt"), screen);

    t.submit("/quit");
    assert.equal(await t.exitCode(), 0);
    await page.locator("section[data-view]").waitFor({ state: "detached", timeout: 10_000 });
    assert.equal(await page.locator("section[data-view]").count(), 0, "the View was torn down");
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a View's ui/message is asked in the terminal: declined it is an error for the App, accepted it is the user's turn", async () => {
  const { t, url } = await appWithView(200, 50);
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
    await page.goto(url);
    t.submit("/call refresh_dashboard {}");
    const app = await appFrame(page);
    await app.getByText(/Dataset \S+, \d+ customers/).waitFor({ timeout: 30_000 });
    await t.idle(/view v1 · initialized/, "the View initialized");

    await app.locator('button[data-region="EMEA"]').click();
    let screen = await t.waitFor(/asks to send a message as you/, "the App's question");
    assert.match(screen, /The App of refresh_dashboard \(server demo\) asks to send a message as you/);
    assert.match(screen, /Tell me about the \d+ customers in EMEA\./);
    assert.match(screen, /Send it as your next turn\? \[y\]es \/ \[n\]o/);
    assert.doesNotMatch(screen, /Run tool|\[a\]lways/, "not the tool-approval dialog");
    t.keys("n");
    await app.getByText("message about EMEA declined").waitFor({ timeout: 20_000 });
    screen = await t.idle(/view v1 · message: message declined/, "the decline in the App pane");
    assert.doesNotMatch(screen, /I was given|asks to send a message/, "no turn ran, the dialog is gone");

    await app.locator('button[data-region="NA"]').click();
    screen = await t.waitFor(
      /Tell me about the \d+ customers in NA\.[\s\S]*Send it as your next turn/,
      "the second question",
    );
    // ui/update-model-context came first (the App awaits it): kept, and shown in the App pane.
    assert.match(screen, /view v1 · model-context/, "the App pane shows the model context");
    t.keys("y");
    await app.getByText("message about NA sent as your turn").waitFor({ timeout: 20_000 });
    // The offline model names what reached it: the App's model context rides on this turn.
    screen = await t.idle(
      /I was given the attached ui-context:refresh_dashboard/,
      "the turn with the App's model context",
      { timeoutMs: 30_000 },
    );
    assert.match(screen, /Tell me about the \d+ customers in NA\./, "the message is the user's turn");
    await screenshot(page, "chat-app-view-message");
    t.submit("/quit");
    assert.equal(await t.exitCode(), 0);
  } finally {
    await browser.close();
  }
});
