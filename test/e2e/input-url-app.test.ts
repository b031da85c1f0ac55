// URL-mode elicitation in the real app under tmux (server-everything's trigger-url-elicitation):
// the URL is shown and nothing is opened until the user asks ([o]: $BROWSER, here a script that
// records what it was given); [n] declines without opening. The transcript keeps each question
// and answer.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startApp, type AppTerminal } from "../helpers/tmux.js";
import { tempDir } from "../helpers/host-fixtures.js";
import { EVERYTHING } from "../helpers/real-servers.js";

const open: AppTerminal[] = [];
after(() => open.forEach((t) => t.close()));

test("a URL elicitation is shown, opened with $BROWSER only when asked, or declined", async () => {
  const dir = tempDir();
  const opened = join(dir, "opened.txt");
  const browser = join(dir, "browser.sh");
  writeFileSync(browser, `#!/bin/sh\nprintf '%s\\n' "$1" >> '${opened}'\n`);
  chmodSync(browser, 0o755);
  const cfg = join(dir, "app.json");
  writeFileSync(
    cfg,
    JSON.stringify({
      mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } },
      limits: { discoverTimeoutMs: 15000 },
    }),
  );
  const t = await startApp({
    args: ["--config", cfg, "--model", "offline", "--yes"],
    env: { BROWSER: browser },
    columns: 160,
    rows: 50,
    ready: /everything 2025-11-25 connected/,
  });
  open.push(t);
  t.submit("/pane off");
  const ask = (id: number) =>
    t.submit(`/call trigger-url-elicitation {"url":"https://example.com/consent?x=${id}","message":"Sign in ${id}"}`);

  ask(1);
  const shown = await t.waitFor(/asks you to open a page: Sign in 1/, "the URL dialog");
  assert.match(shown, /https:\/\/example\.com\/consent\?x=1/);
  assert.match(shown, /\[o\]pen in the browser · \[y\] done \/ accept · \[n\] decline · Esc cancel/);
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(existsSync(opened), false, "nothing is opened before the user asks");
  t.keys("o");
  await t.waitFor(/✓ everything · trigger-url-elicitation/, "the call finished after opening", { history: 200 });
  for (let i = 0; i < 50 && !existsSync(opened); i++) await new Promise((r) => setTimeout(r, 50));
  assert.equal(readFileSync(opened, "utf8"), "https://example.com/consent?x=1\n", "$BROWSER got exactly the URL");

  ask(2);
  await t.waitFor(/asks you to open a page: Sign in 2/, "the second URL dialog");
  t.keys("n");
  await t.waitFor((s) => s.split("✓ everything · trigger-url-elicitation").length === 3, "the second call finished", {
    history: 300,
  });
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(readFileSync(opened, "utf8"), "https://example.com/consent?x=1\n", "a declined URL is never opened");

  t.submit("/quit");
  assert.equal(await t.exitCode(), 0);
  const state = join(t.stateDir, "mcp-prism");
  const records = readdirSync(state)
    .filter((f) => f.endsWith(".jsonl"))
    .flatMap((f) =>
      readFileSync(join(state, f), "utf8")
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l)),
    );
  const asked = records.filter((r) => r.kind === "elicitation");
  assert.deepEqual(
    asked.map((r) => [r.mode, r.url, r.action]),
    [
      ["url", "https://example.com/consent?x=1", "accept"],
      ["url", "https://example.com/consent?x=2", "decline"],
    ],
  );
});
