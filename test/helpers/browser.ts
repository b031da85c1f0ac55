// Headless Chromium for the App View tests (Debian's chromium, driven by playwright-core): nothing
// but 127.0.0.1 resolves, and no background traffic. Screenshots go to test-artifacts/ (gitignored).
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type Frame, type Page } from "playwright-core";
import { ROOT } from "./host-fixtures.js";

export const CHROMIUM = process.env.PRISM_CHROMIUM ?? "/usr/bin/chromium";
export const ARTIFACTS = join(ROOT, "test-artifacts");

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
    ],
  });
}

/** The App's own frame: the inner srcdoc iframe of the sandbox proxy of the View `n` (0-based). */
export async function appFrame(page: Page, n = 0, timeoutMs = 20_000): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const proxies = page.frames().filter((f) => f.parentFrame() === page.mainFrame());
    const inner = proxies[n]?.childFrames()[0];
    if (inner) return inner;
    if (Date.now() > deadline) throw new Error(`no App frame ${n} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
