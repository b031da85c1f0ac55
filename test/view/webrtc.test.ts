// WebRTC from an App despite `connect-src 'none'` (CSP does not cover it): the App's realm and every
// nested frame it makes (about:blank by append, innerHTML or a shadow root; srcdoc, parsed or set;
// a srcdoc inside a srcdoc; a javascript: URL) find no RTCPeerConnection, and the TURN/STUN server
// the App names on 127.0.0.1 receives nothing. Real Chromium, the real View host.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createSocket } from "node:dgram";
import { join } from "node:path";
import { Host } from "../../src/host/host.js";
import { ViewSession } from "../../src/view/session.js";
import { config, ROOT } from "../helpers/host-fixtures.js";
import { appFrame, launchBrowser } from "../helpers/browser.js";

const WHERE = [
  "top",
  "prototype",
  "append contentWindow",
  "innerHTML frames[i]",
  "contentDocument.defaultView",
  "shadow frames[i]",
  "srcdoc initial document",
  "srcdoc script",
  "parsed srcdoc script",
  "grandchild srcdoc",
  "javascript: url",
];

test("an App and its nested frames find no RTCPeerConnection; the TURN server hears nothing", async () => {
  const udp = createSocket("udp4");
  const packets: Buffer[] = [];
  udp.on("message", (m) => packets.push(m));
  await new Promise<void>((r) => udp.bind(0, "127.0.0.1", () => r()));
  const server = {
    kind: "stdio" as const,
    command: process.execPath,
    args: ["--import", "tsx", join(ROOT, "test", "fixtures", "view-rtc-server.ts"), String(udp.address().port)],
    cwd: ROOT,
  };
  const host = await Host.start({ config: config({ rtc: server }), mode: "app", eraCache: false });
  const session = new ViewSession(host);
  const browser = await launchBrowser();
  try {
    await session.start();
    const page = await browser.newPage();
    await page.goto(session.url);
    const shown = await session.present("rtc_view", {});
    assert.ok(shown.view.ok, JSON.stringify(shown.view));
    const app = await appFrame(page);
    await app.getByText("attempts done").waitFor({ timeout: 60_000 });
    const dom = (await app.locator("#log").textContent()) ?? "";
    for (const w of WHERE) assert.ok(dom.includes(`rtc ${w}: blocked`), `${w}: ${dom}`);
    assert.doesNotMatch(dom, /: open/);
    // The App's own page still works: the guard left its document and scripts alone.
    assert.equal(await app.evaluate("document.compatMode"), "CSS1Compat");
    assert.equal(packets.length, 0, "a packet reached the TURN/STUN server");
  } finally {
    await browser.close();
    await session.close();
    await host.close();
    udp.close();
  }
});
