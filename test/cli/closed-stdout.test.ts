// A reader that stops early (`mcp-prism tools | head -1`): every one-shot command of the BUILT CLI
// exits quietly, status 0, no stack trace, when its stdout pipe is closed before it writes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { BIN, tempDir } from "../helpers/host-fixtures.js";

function runWithClosedStdout(args: string[]): Promise<{ code: number | null; signal: string | null; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: tempDir(),
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, XDG_CONFIG_HOME: tempDir(), NODE_ENV: "production" },
    });
    // Our end of the pipe closes before the command has written anything: its first write is EPIPE.
    child.stdout.destroy();
    let err = "";
    child.stderr.setEncoding("utf8").on("data", (d: string) => (err += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, err });
    });
  });
}

const COMMANDS: [string, string[]][] = [
  ["tools", ["tools"]],
  ["tools --json", ["tools", "--json"]],
  ["call --json", ["call", "search_customers", "--args", '{"query":"a"}', "--json"]],
  ["compare", ["compare", "search_customers", "--args", '{"query":"a"}']],
  ["check", ["check", "--", process.execPath, BIN, "demo-server"]],
  ["-p", ["-p", "list the customers"]],
  ["-p --json", ["-p", "list the customers", "--json"]],
];

for (const [name, args] of COMMANDS) {
  test(`${name}: stdout closed early → exits quietly with status 0`, async () => {
    const r = await runWithClosedStdout(args);
    assert.equal(r.signal, null, `killed by ${r.signal}`);
    assert.doesNotMatch(r.err, /EPIPE|Unhandled 'error'|node:events/, `no crash on stderr:\n${r.err}`);
    assert.equal(r.code, 0, r.err);
  });
}
