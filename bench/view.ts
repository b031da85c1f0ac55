// Figure 11 — the App View: from the tool result in hand to the View showing it, in headless
// Chromium (Debian's chromium, playwright-core). With the bridge: the View host opens the View
// (SSE to the page, the sandbox proxy on its own origin, the App's HTML in the inner iframe, the real
// AppBridge's ui/initialize handshake) and delivers the result (tool-input, tool-result). Without:
// the same dashboard HTML in a plain srcdoc iframe of a blank page whose few lines of script answer
// ui/initialize and post the same result, no AppBridge, no proxy, no View host. Both end when the
// App's DOM shows the dataset line. One run, side by side, medians.
import { Host } from "../src/host/host.js";
import { toView } from "../src/host/result/router.js";
import { UI_EXTENSION } from "../src/protocol/index.js";
import { ViewSession } from "../src/view/session.js";
import { appFrame, launchBrowser } from "../test/helpers/browser.js";
import type { Frame } from "playwright-core";
import { demoConfig } from "./lib/demo.js";
import { fmt, median, ms, ratio, type BenchOptions, type Section } from "./lib/report.js";

// Locators, not waitForFunction: a string predicate is an eval, which the View's CSP (no
// 'unsafe-eval') refuses; Playwright's selector engine runs in its own world.
const SHOWN = /Dataset \S+, \d+ customers/;
const shown = (frame: Frame) => frame.locator("#version", { hasText: SHOWN }).waitFor({ timeout: 30_000 });

/** The bare host: answers ui/initialize, then sends tool-input and the result (raw postMessage). */
function bare(html: string, result: unknown): string {
  return `<!doctype html><html><body><iframe id="f" style="width:100%;height:600px;border:0"></iframe><script>
const f = document.getElementById("f"); const result = ${JSON.stringify(result)};
window.addEventListener("message", (e) => {
  const m = e.data; if (e.source !== f.contentWindow || !m) return;
  if (m.method === "ui/initialize") f.contentWindow.postMessage({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: "2026-01-26", hostInfo: { name: "bare", version: "0" }, hostCapabilities: {}, hostContext: {} } }, "*");
  else if (m.method === "ui/notifications/initialized") {
    f.contentWindow.postMessage({ jsonrpc: "2.0", method: "ui/notifications/tool-input", params: { arguments: {} } }, "*");
    f.contentWindow.postMessage({ jsonrpc: "2.0", method: "ui/notifications/tool-result", params: result }, "*");
  } else if (m.id !== undefined) f.contentWindow.postMessage({ jsonrpc: "2.0", id: m.id, result: {} }, "*");
});
f.srcdoc = ${JSON.stringify(html).replaceAll("</", "<\\/")};
</script></body></html>`;
}

export async function viewBench({ quick, log }: BenchOptions): Promise<Section> {
  const reps = quick ? 3 : 10;
  const host = await Host.start({ config: demoConfig(), mode: "app", eraCache: false });
  const browser = await launchBrowser();
  const withBridge: number[] = [];
  const without: number[] = [];
  try {
    const entry = (await host.tools("app")).find((t) => t.name === "refresh_dashboard");
    if (!entry) throw new Error("the demo server lists no refresh_dashboard");
    const read = await host.readResource("ui://dashboard/index.html", entry.server);
    if (!read.ok || !("text" in read.contents[0])) throw new Error("cannot read the dashboard App");
    const html = read.contents[0].text;
    for (let i = 0; i < reps; i++) {
      const outcome = await host.call(entry.qualifiedName, {}, { mode: "app" });
      if (!outcome.ok) throw new Error(outcome.error.message);
      const session = new ViewSession(host);
      await session.start();
      const page = await browser.newPage();
      await page.goto(session.url);
      await page.locator("#status", { hasText: /^no View yet$/ }).waitFor({ timeout: 30_000 });
      const t0 = performance.now();
      const opened = await session.open(entry, {});
      if (!opened.ok) throw new Error(opened.detail);
      session.deliver(opened.id, outcome);
      await shown(await appFrame(page));
      withBridge.push(performance.now() - t0);
      await page.close();
      await session.close();

      const plain = await browser.newPage();
      const t1 = performance.now();
      await plain.setContent(bare(html, toView(outcome.routed, UI_EXTENSION, "result").payload));
      await shown(plain.frames()[1]);
      without.push(performance.now() - t1);
      await plain.close();
      log(`view: rep ${i + 1}/${reps}: bridge ${fmt(withBridge[i], 0)} ms, no bridge ${fmt(without[i], 0)} ms`);
    }
  } finally {
    await browser.close();
    await host.close();
  }
  const b = median(withBridge);
  const n = median(without);
  return {
    id: "view",
    title: "11. App View: tool result → View showing it",
    intro: [
      `The demo dashboard App (its ui:// resource, ${"refresh_dashboard"}'s ui/structured output) in headless Chromium, ${reps} repetitions, medians. **With the bridge**: from the result in hand, \`ViewSession.open\` + \`deliver\` (the resource read from the server, the page told over SSE, the sandbox proxy loaded from its own origin, the App in the inner iframe, the real AppBridge handshake, tool-input, tool-result) until the App's DOM shows the dataset line. **Without**: the same HTML in a srcdoc iframe of a blank page that answers \`ui/initialize\` itself and posts the same reduced result. Both include the App booting (its bundled App SDK).`,
    ],
    tables: [
      {
        head: ["path", "median", "runs"],
        rows: [
          ["View host + sandbox proxy + AppBridge", ms(b), withBridge.map((x) => fmt(x, 0)).join(", ")],
          ["same HTML, no bridge", ms(n), without.map((x) => fmt(x, 0)).join(", ")],
          ["bridge / no bridge", ratio(b / n), ""],
        ],
      },
    ],
    // A ratio, measured side by side: the App's own boot (its bundled SDK) is in both and dominates.
    targets: [
      {
        name: "App View overhead",
        target: "result → View showing it ≤ 2× the same HTML with no bridge",
        figure: `${ratio(b / n)} (${ms(b)} vs ${ms(n)})`,
        met: b <= 2 * n,
      },
    ],
    notes: [],
  };
}
