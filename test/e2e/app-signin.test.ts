// The real app in tmux with the demo server and an OAuth-protected HTTP server
// (test/fixtures/oauth-server.ts). The app does not open a browser by itself: the protected server
// shows "sign-in needed" in the status bar while a prompt runs on the demo server; `/login secure`
// signs in ($BROWSER: the test script that follows the redirect), the server connects; a token
// revoked mid-session makes the next call fail as "sign-in needed" until /login; no token (the
// server echoes refused ones in its 401) reaches the screen or the transcript.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startApp, ROOT, type AppTerminal } from "../helpers/tmux.js";
import { BIN, tempDir } from "../helpers/host-fixtures.js";
import { waitForListeningUrl } from "../helpers/listening.js";
import { TOKEN_CANARY } from "../fixtures/oauth-server.js";

const open: AppTerminal[] = [];
let server: ChildProcess;
let url: string;
before(async () => {
  server = spawn(process.execPath, ["--import", "tsx", join(ROOT, "test", "fixtures", "oauth-server.ts")], {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "pipe"],
  });
  url = (await waitForListeningUrl(server, "oauth fixture", 60_000)).url;
});
after(() => {
  server?.kill();
  open.forEach((t) => t.close());
});

test("a server that needs sign-in is 'sign-in needed'; the demo server works meanwhile; /login signs in", async () => {
  const file = join(tempDir(), "mcp-prism.json");
  writeFileSync(
    file,
    JSON.stringify({
      mcpServers: { demo: { command: process.execPath, args: [BIN, "demo-server"] }, secure: { url } },
      limits: { connectWaitMs: 10_000 },
    }),
  );
  const browser = `${process.execPath} ${join(ROOT, "test", "fixtures", "oauth-browser.mjs")}`;
  const t = await startApp({
    args: ["--config", file],
    columns: 180,
    rows: 50,
    env: { ANTHROPIC_API_KEY: "", BROWSER: browser },
  });
  open.push(t);
  await t.waitFor(/● secure sign-in needed/, "the protected server's state", { timeoutMs: 60_000 });
  t.submit("search customers Globex");
  const s = await t.idle(/returned to me: I found \d+ Globex/, "the demo server's answer", { timeoutMs: 60_000 });
  assert.match(s, /● secure sign-in needed/);
  t.submit("/login secure");
  await t.waitFor(/signed in to secure/, "the sign-in's notice", { timeoutMs: 60_000 });
  const after = await t.waitFor(/● secure 2026-12-01 connected/, "the protected server connected", {
    timeoutMs: 30_000,
  });
  assert.match(after, /sign in to secure in your browser; if it did not open, open:/);
  // The token revoked mid-session: the call fails with "sign-in needed" (the app opens no
  // browser by itself), /login signs in again, and the call goes through.
  await (await fetch(new URL("/control/revoke", url), { method: "POST" })).body?.cancel();
  t.submit("call whoami");
  await t.waitFor(/● secure 2026-12-01 sign-in needed/, "the revoked server's state", { timeoutMs: 60_000 });
  await t.idle(/HTTP 401: the server needs authorization/, "the call's auth-required line", { timeoutMs: 60_000 });
  t.submit("/login secure");
  await t.waitFor(/● secure 2026-12-01 connected/, "the server connected again", { timeoutMs: 60_000 });
  t.submit("call whoami");
  await t.idle(/hello, signed-in client/, "the call after signing in again", { timeoutMs: 60_000 });
  assert.ok(!t.screen(500).includes(TOKEN_CANARY), "no token on screen");
  t.submit("/quit");
  assert.equal(await t.exitCode(20_000), 0);
  const transcripts = readdirSync(join(t.stateDir, "mcp-prism")).filter((f) => f.endsWith(".jsonl"));
  assert.ok(transcripts.length > 0, "the session wrote a transcript");
  for (const f of transcripts)
    assert.ok(!readFileSync(join(t.stateDir, "mcp-prism", f), "utf8").includes(TOKEN_CANARY), `no token in ${f}`);
});
