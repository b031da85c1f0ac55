// The chat app (built, under tmux) on a server started through bash that starts a child of its
// own: /quit, ^C^C and SIGTERM each end the app, and nothing the server's command started
// outlives it. Checked by pid.
import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { startApp, type AppTerminal } from "../helpers/tmux.js";
import { tempDir } from "../helpers/host-fixtures.js";
import {
  assertAllGone,
  forkingServer,
  killRecorded,
  readPids,
  recordedPids,
  running,
  sawEof,
  waitForStarts,
  type Wrapper,
} from "../helpers/processes.js";

async function appOn(
  t: { after(fn: () => void): void },
  wrapper: Wrapper,
): Promise<{ term: AppTerminal; pids: string }> {
  const dir = tempDir();
  const pids = join(dir, "pids");
  const server = forkingServer(wrapper, pids);
  const cfg = join(dir, "config.json");
  writeFileSync(
    cfg,
    JSON.stringify({ mcpServers: { fx: { command: server.command, args: server.args, env: server.env } } }),
  );
  t.after(() => killRecorded(pids));
  const term = await startApp({ args: ["--config", cfg, "--model", "offline"], ready: /fx 2025-11-25 connected/ });
  t.after(() => term.close());
  await waitForStarts(pids);
  const [s] = readPids(pids);
  assert.ok(s.child && running(s.child), "the server's child runs");
  return { term, pids };
}

test("/quit: the app exits 0 and the bash wrapper, the server and its child are gone", async (t) => {
  const { term, pids } = await appOn(t, "bash -c 'node …' (bash stays)");
  term.submit('call echo {"text":"hi"}');
  await term.idle(/echo: hi/, "the tool's answer");
  term.submit("/quit");
  assert.equal(await term.exitCode(), 0);
  assert.equal(readPids(pids)[0].parent, "bash");
  await assertAllGone(recordedPids(pids), "after /quit");
});

test("^C^C: the app exits and leaves nothing behind", async (t) => {
  const { term, pids } = await appOn(t, "bash -c 'exec node …'");
  term.keys("C-c");
  await term.waitFor("Press ^C again to quit", "the quit hint");
  term.keys("C-c");
  assert.equal(await term.exitCode(), 0);
  await assertAllGone(recordedPids(pids), "after ^C^C");
});

test("SIGTERM to the app: it closes its servers like /quit and exits 143", async (t) => {
  const { term, pids } = await appOn(t, "bash -c 'exec node …'");
  const [s] = readPids(pids);
  // A node process's comm is "node" on Node 20 and "MainThread" on Node 24 (the main thread is named).
  assert.ok(["node", "MainThread"].includes(s.parent ?? ""), `exec'd: the server's parent is the app, not ${s.parent}`);
  process.kill(s.ppid, "SIGTERM");
  assert.equal(await term.exitCode(), 143);
  assert.deepEqual(sawEof(pids), [s.pid], "the server's stdin was closed first (not only a kill on exit)");
  await assertAllGone(recordedPids(pids), "after SIGTERM");
});
