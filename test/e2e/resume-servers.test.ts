// Issue 34.5: --resume brings the session's servers back and never narrows the recorded list.
// A session with two servers (demo and a second demo, "extra"); resumed with a config that lacks
// "extra": one line says it is not in this config (not "restart with --resume", the command just
// run); resumed again with the first config: both connect — the middle resume did not forget it.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, startApp, type AppTerminal } from "../helpers/tmux.js";
import { BIN, tempDir } from "../helpers/host-fixtures.js";

const open: AppTerminal[] = [];
after(() => open.forEach((t) => t.close()));

test("--resume: a server missing from this config is named as such; a later resume still connects it", async () => {
  const dir = tempDir();
  const demo = { command: process.execPath, args: [BIN, "demo-server"] };
  const both = join(dir, "both.json");
  const one = join(dir, "one.json");
  writeFileSync(both, JSON.stringify({ mcpServers: { demo, extra: demo } }));
  writeFileSync(one, JSON.stringify({ mcpServers: { demo } }));
  const env = { ANTHROPIC_API_KEY: "" };

  const first = await startApp({
    args: ["--config", both],
    columns: 120,
    rows: 40,
    env,
    ready: /● extra 2026-12-01 connected/,
  });
  open.push(first);
  first.submit("hello");
  await first.idle(/› hello[\s\S]*›/, "the first answer", { timeoutMs: 30_000, history: 200 });
  first.submit("/quit");
  assert.equal(await first.exitCode(), 0);
  const listed = spawnSync(process.execPath, [BIN, "sessions", "--json"], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, XDG_STATE_HOME: first.stateDir },
  });
  const [session] = JSON.parse(listed.stdout) as { id: string }[];

  const second = await startApp({
    args: ["--config", one, "--resume", session.id],
    columns: 120,
    rows: 40,
    env: { ...env, XDG_STATE_HOME: first.stateDir },
  });
  open.push(second);
  const s = await second.waitFor(/this session used extra, which is not in this config/, "the missing server named", {
    history: 200,
  });
  assert.doesNotMatch(s, /restart with --resume/);
  second.submit("/quit");
  assert.equal(await second.exitCode(), 0);

  const third = await startApp({
    args: ["--config", both, "--resume", session.id],
    columns: 120,
    rows: 40,
    env: { ...env, XDG_STATE_HOME: first.stateDir },
    ready: /● extra 2026-12-01 connected/,
  });
  open.push(third);
  await third.waitFor(
    /● demo 2026-12-01 connected {2}● extra 2026-12-01 connected/,
    "both servers back after the narrower resume",
  );
  third.submit("/quit");
  assert.equal(await third.exitCode(), 0);
});
