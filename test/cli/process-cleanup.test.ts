// A stdio server started through a wrapper (bash with or without exec) that starts a long-lived
// child of its own: every one-shot command of the built CLI exits, and no process it started
// (the wrapper, the server, the server's child) outlives it — after a normal end, on SIGTERM and
// SIGINT, and when the server ignores both stdin's end and SIGTERM. Checked by pid.
import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers/host-fixtures.js";
import {
  assertAllGone,
  forkingServer,
  killRecorded,
  readPids,
  recordedPids,
  runCli,
  waitForStarts,
  WRAPPERS,
  type Wrapper,
} from "../helpers/processes.js";

function setUp(t: { after(fn: () => void): void }, wrapper: Wrapper, env: Record<string, string> = {}) {
  const dir = tempDir();
  const pids = join(dir, "pids");
  const server = forkingServer(wrapper, pids, env);
  writeFileSync(
    join(dir, "config.json"),
    JSON.stringify({ mcpServers: { fx: { command: server.command, args: server.args, env: server.env } } }),
  );
  t.after(() => killRecorded(pids));
  return { dir, pids, config: join(dir, "config.json") };
}

/** The wrapper is what the test says it is (bash stays the parent, or was replaced by exec). */
function assertShape(wrapper: Wrapper, pids: string): void {
  const [s] = readPids(pids);
  assert.ok(s, "the server recorded its pids");
  assert.ok(s.child, "the server started its child");
  if (wrapper === "bash -c 'node …' (bash stays)") assert.equal(s.parent, "bash", "bash stayed the server's parent");
  // A node process's name is `node` on Node 20 and `MainThread` (its main thread's name) on Node 24.
  else assert.match(s.parent ?? "", /^(node|MainThread)$/, "the server is mcp-prism's own child");
}

for (const wrapper of Object.keys(WRAPPERS) as Wrapper[]) {
  for (const fork of ["sleep", "node"]) {
    test(`call and tools exit and leave nothing behind: ${wrapper}, the server's child is ${fork}`, async (t) => {
      const { dir, pids, config } = setUp(t, wrapper, { FORK: fork });
      const call = await runCli(["call", "echo", "--args", '{"text":"hi"}', "--config", config], { cwd: dir });
      assert.equal(call.code, 0, call.stderr);
      assert.match(call.stdout, /echo: hi/);
      assertShape(wrapper, pids);
      await assertAllGone(recordedPids(pids), `after call (${wrapper}, ${fork})`);
      const tools = await runCli(["tools", "--config", config], { cwd: dir });
      assert.equal(tools.code, 0, tools.stderr);
      assert.match(tools.stdout, /echo/);
      assert.equal(readPids(pids).length, 2);
      await assertAllGone(recordedPids(pids), `after tools (${wrapper}, ${fork})`);
    });
  }
}

test("a child that does not hold the server's pipes is stopped with its group too", async (t) => {
  const { dir, pids, config } = setUp(t, "bash -c 'node …' (bash stays)", { FORK_STDIO: "ignore" });
  const r = await runCli(["tools", "--config", config], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  await assertAllGone(recordedPids(pids), "after tools");
});

test("a server that ignores stdin's end and SIGTERM (its child too) is SIGKILLed with its group; call exits", async (t) => {
  const { dir, pids, config } = setUp(t, "bash -c 'node …' (bash stays)", {
    FORK: "node",
    IGNORE_EOF: "1",
    IGNORE_TERM: "1",
  });
  const r = await runCli(["call", "echo", "--args", '{"text":"stubborn"}', "--config", config], {
    cwd: dir,
    timeoutMs: 30_000,
  });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /echo: stubborn/);
  await assertAllGone(recordedPids(pids), "after call");
});

for (const [signal, code] of [
  ["SIGTERM", 143],
  ["SIGINT", 130],
  ["SIGHUP", 129],
] as const) {
  test(`${signal} to mcp-prism during a call: it exits ${code} and stops the server's group`, async (t) => {
    const { dir, pids, config } = setUp(t, "bash -c 'node …' (bash stays)");
    const r = await runCli(["call", "slow", "--args", '{"ms":60000}', "--config", config], {
      cwd: dir,
      during: async (pid) => {
        await waitForStarts(pids);
        await new Promise((res) => setTimeout(res, 300)); // the call is in flight
        process.kill(pid, signal);
      },
    });
    assert.equal(r.code, code, `exit ${r.code} ${r.signal}; stderr: ${r.stderr}`);
    await assertAllGone(recordedPids(pids), `after ${signal}`);
  });
}

test("-p: the turn's tool call ends, and so does everything the server started; SIGTERM mid-turn too", async (t) => {
  const { dir, pids, config } = setUp(t, "bash -c 'node …' (bash stays)");
  const ok = await runCli(["-p", 'call echo {"text":"from the model"}', "--model", "offline", "--config", config], {
    cwd: dir,
  });
  assert.equal(ok.code, 0, ok.stderr);
  await assertAllGone(recordedPids(pids), "after -p");
  const killed = await runCli(["-p", 'call slow {"ms":60000}', "--model", "offline", "--config", config], {
    cwd: dir,
    during: async (pid) => {
      await waitForStarts(pids, 2);
      await new Promise((res) => setTimeout(res, 300));
      process.kill(pid, "SIGTERM");
    },
  });
  assert.equal(killed.code, 143, `exit ${killed.code} ${killed.signal}; stderr: ${killed.stderr}`);
  await assertAllGone(recordedPids(pids), "after SIGTERM to -p");
});

test("compare (two connections, one per era) exits and leaves nothing behind", async (t) => {
  const { dir, pids, config } = setUp(t, "bash -c 'node …' (bash stays)");
  const r = await runCli(["compare", "echo", "--args", '{"text":"x"}', "--config", config], {
    cwd: dir,
    timeoutMs: 60_000,
  });
  assert.ok(r.code === 0 || r.code === 1, `exit ${r.code}; stderr: ${r.stderr}`);
  assert.ok(readPids(pids).length >= 1);
  await assertAllGone(recordedPids(pids), "after compare");
});

test("check -- bash -c '…': the checker's own stdio client stops the server's group; check exits", async (t) => {
  const { dir, pids } = setUp(t, "bash -c 'node …' (bash stays)");
  const { args } = WRAPPERS["bash -c 'node …' (bash stays)"]();
  // check starts servers with the host's minimal environment: PIDS_FILE goes through env(1).
  const r = await runCli(["check", "--", "env", `PIDS_FILE=${pids}`, "bash", ...args], {
    cwd: dir,
    timeoutMs: 120_000,
  });
  assert.ok(r.code === 0 || r.code === 1, `exit ${r.code}; stderr: ${r.stderr}`);
  assert.match(r.stdout, /passed/);
  assert.ok(readPids(pids).length >= 1, "the checker started the server");
  await assertAllGone(recordedPids(pids), "after check");
});
