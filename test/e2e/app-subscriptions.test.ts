// The real app in tmux on the demo server, legacy (stdio, resources/subscribe) and 2026-12-01
// (subscriptions/listen): a resource the user read is subscribed, and its change is one notice
// line (/read then shows the new content); a changed prompt list adds and removes the
// /demo:extra_prompt command; an image blob read with /read is drawn here (half-blocks).
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startApp, type AppTerminal } from "../helpers/tmux.js";
import { BIN } from "../helpers/host-fixtures.js";

const dir = mkdtempSync(join(tmpdir(), "prism-subs-app-"));
const open: AppTerminal[] = [];
after(() => {
  open.forEach((t) => t.close());
  rmSync(dir, { recursive: true, force: true });
});

for (const [era, protocol] of [
  ["2026-12-01", undefined],
  ["2025-11-25", "2025-11-25"],
] as const) {
  test(`${era}: a read resource's change is a notice; /help follows the prompt list`, async () => {
    const cfg = join(dir, `app-${era}.json`);
    writeFileSync(
      cfg,
      JSON.stringify({
        mcpServers: { demo: { command: process.execPath, args: [BIN, "demo-server"] } },
        limits: { discoverTimeoutMs: 15000 },
      }),
    );
    const t = await startApp({
      args: ["--config", cfg, "--yes", ...(protocol ? ["--protocol", protocol] : [])],
      columns: 160,
      rows: 50,
      ready: new RegExp(`demo ${era} connected`),
    });
    open.push(t);
    t.submit("/pane off");
    t.submit("/read customers://cust_1005 demo");
    await t.waitFor(/\[1\] customers:\/\/cust_1005 · application\/json/, "the resource shown", { history: 300 });
    await new Promise((r) => setTimeout(r, 500)); // the subscription is made after the read
    t.submit('/call add_note {"customerId":"cust_1005","note":"CANARY-SUB-NOTE"}');
    await t.waitFor(
      /server demo: customers:\/\/cust_1005 changed — \/read customers:\/\/cust_1005 demo shows it/,
      "the change notice",
      { history: 300 },
    );
    t.submit("/read customers://cust_1005 demo");
    await t.waitFor(/"CANARY-SUB-NOTE"/, "the new content", { history: 300 });

    t.submit("/read customers://cust_1005/badge.png demo");
    const img = await t.waitFor(/🖼 image\/png [\d.]+ k?B 48×48 — \/save-output 3/, "the badge drawn", { history: 300 });
    assert.match(img, /\[3\] customers:\/\/cust_1005\/badge\.png · image\/png, [\d.]+ k?B — \/save-output 3 saves it/);
    assert.match(img, /[▀▄]{40}/, "drawn with half-blocks");

    t.submit("/call toggle_extras {}");
    await t.waitFor(/server demo: its prompts changed/, "the prompt list change", { history: 300 });
    t.submit("/help");
    await t.waitFor(/\/demo:extra_prompt/, "the new prompt command in /help", { history: 300 });
    const count = (x: string, what: string) => x.split(what).length - 1;
    t.submit("/call toggle_extras {}");
    await t.waitFor((x) => count(x, "server demo: its prompts changed") === 2, "the prompt list change again", {
      history: 1000,
    });
    t.submit("/help");
    // The second /help lists account_review again, and extra_prompt no more (only the first one did).
    const s = await t.waitFor((x) => count(x, "/demo:account_review") === 2, "/help again", { history: 1000 });
    assert.equal(count(s, "/demo:extra_prompt"), 1, "the removed prompt's command is gone");
    t.submit("/quit");
    assert.equal(await t.exitCode(), 0);
  });
}
