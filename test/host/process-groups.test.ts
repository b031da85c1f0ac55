// A stdio server's process group, through the Host: a server that crashes leaves its child behind
// for no longer than its group's stop takes, the restarted one is stopped with its group on close,
// and the transport notices the crash even while the orphaned child holds the pipes; a host that
// ends abnormally kills its groups on 'exit'.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Host } from "../../src/host/host.js";
import { config, ROOT, tempDir } from "../helpers/host-fixtures.js";
import { assertAllGone, forkingServer, killRecorded, readPids, recordedPids, running } from "../helpers/processes.js";

test("a crashed server's group is stopped (its child too) and the restarted one is stopped on close", async (t) => {
  const pids = join(tempDir(), "pids");
  t.after(() => killRecorded(pids));
  const host = await Host.start({ config: config({ fx: forkingServer("bash -c 'node …' (bash stays)", pids) }) });
  try {
    assert.equal(host.servers()[0].state, "connected", host.servers()[0].error);
    const [first] = readPids(pids);
    assert.ok(first.child && running(first.child), "the first server's child runs");
    assert.equal(first.parent, "bash");
    const crashed = await host.call("crash", {});
    assert.equal(crashed.ok, false);
    if (!crashed.ok) assert.equal(crashed.error.rule, "connection-closed");
    // The child held the server's stdout: the crash is still noticed, and nothing of the old group is left.
    await assertAllGone([first.pid, first.ppid, first.child], "the crashed server's group");
    const again = await host.call("echo", { text: "back" });
    assert.ok(again.ok, again.ok ? "" : again.error.message);
    const starts = readPids(pids);
    assert.equal(starts.length, 2, "restarted once");
    assert.ok(starts[1].child && running(starts[1].child), "the new server's child runs");
  } finally {
    await host.close();
  }
  await assertAllGone(recordedPids(pids), "after close");
});

for (const how of ["an uncaught exception", "process.exit"] as const) {
  test(`a host that ends by ${how} SIGKILLs its server groups synchronously on 'exit'`, async (t) => {
    const pids = join(tempDir(), "pids");
    t.after(() => killRecorded(pids));
    const server = forkingServer("bash -c 'node …' (bash stays)", pids);
    const end = how === "process.exit" ? "process.exit(7)" : `throw new Error("host crashed")`;
    // A host process: spawns the server (with its group), waits until it has started its child, ends.
    const host = `
      import { existsSync } from "node:fs";
      import { spawnServer } from ${JSON.stringify(pathToFileURL(join(ROOT, "src/host/connection/spawn-server.ts")).href)};
      spawnServer(${JSON.stringify({ command: server.command, args: server.args, env: server.env })});
      const wait = () => (existsSync(${JSON.stringify(pids)}) ? setTimeout(() => { ${end}; }, 100) : setTimeout(wait, 20));
      wait();
    `;
    const r = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", host], {
      encoding: "utf8",
      timeout: 30_000,
    });
    assert.equal(r.status, how === "process.exit" ? 7 : 1, r.stderr);
    if (how !== "process.exit") assert.match(r.stderr, /host crashed/);
    const [s] = readPids(pids);
    assert.equal(s?.parent, "bash");
    await assertAllGone(recordedPids(pids), `after ${how}`);
  });
}
