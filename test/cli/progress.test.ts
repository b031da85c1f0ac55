// Progress keeps a call alive: server-everything's trigger-long-running-operation outlives a call
// timeout shorter than the operation because each progress notification restarts it, up to
// limits.maxCallTimeoutMs; and the one-shot `call` draws the progress on stderr only on a terminal.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, tempDir } from "../helpers/host-fixtures.js";
import { runCli } from "../helpers/processes.js";
import { EVERYTHING } from "../helpers/real-servers.js";

describe("progress through the built CLI (server-everything, stdio)", () => {
  const dir = tempDir();
  const cfg = (name: string, limits: Record<string, number>) => {
    const file = join(dir, name);
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } },
        limits: { discoverTimeoutMs: 15000, ...limits },
      }),
    );
    return file;
  };
  let extended: string;
  before(() => {
    extended = cfg("extended.json", { callTimeoutMs: 1500 });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  const op = JSON.stringify({ duration: 4, steps: 8 });

  it("a call timeout shorter than the operation: progress keeps it alive", async () => {
    const r = await runCli(["call", "trigger-long-running-operation", "--args", op, "--config", extended, "--json"], {
      cwd: dir,
      timeoutMs: 60_000,
    });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /Long running operation completed/);
    assert.ok(!r.stderr.includes("progress"), "no progress line when stderr is not a terminal");
  });

  it("the hard maximum still ends it", async () => {
    const capped = cfg("capped.json", { callTimeoutMs: 1500, maxCallTimeoutMs: 2000 });
    const r = await runCli(["call", "trigger-long-running-operation", "--args", op, "--config", capped, "--json"], {
      cwd: dir,
      timeoutMs: 60_000,
    });
    assert.equal(r.code, 1, r.stdout);
    assert.equal(JSON.parse(r.stdout).error.rule, "timeout");
  });

  it("on a terminal, stderr shows the progress line", () => {
    // script(1) gives the CLI a pseudo-terminal; its transcript is what the terminal received.
    const cmd = [
      process.execPath,
      BIN,
      "call",
      "trigger-long-running-operation",
      "--args",
      JSON.stringify({ duration: 1, steps: 2 }),
      "--config",
      extended,
    ]
      .map((a) => `'${a.replace(/'/g, "'\\''")}'`)
      .join(" ");
    const shown = execFileSync("script", ["-qec", cmd, "/dev/null"], {
      cwd: dir,
      encoding: "utf8",
      timeout: 60_000,
      env: { ...process.env, XDG_STATE_HOME: dir, XDG_CONFIG_HOME: dir },
    });
    assert.match(shown, /\r\x1b\[2Kprogress 1\/2/);
    assert.match(
      shown,
      /\r\x1b\[2Ktrigger-long-running-operation on everything/,
      "the line is cleared before the result",
    );
  });
});
