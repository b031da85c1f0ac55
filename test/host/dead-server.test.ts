// A server that dies at start: what it wrote on stderr that explains it reaches the user — the
// first error line (`Error: Cannot find module '/x.js'`), not only the tail of its stack and
// node's banner (`requireStack: [] | } | Node.js v20`). Real `node /nonexistent.js` processes:
// through the TailBuffer, the built CLI, and the app's /servers under tmux.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { explainingLines, TailBuffer } from "../../src/host/connection/tail-buffer.js";
import { startApp, type AppTerminal } from "../helpers/tmux.js";
import { BIN, tempDir } from "../helpers/host-fixtures.js";

const MISSING = "/nonexistent-prism-server.js";
const CAUSE = `Error: Cannot find module '${MISSING}'`;
const crash = spawnSync(process.execPath, [MISSING], { encoding: "utf8" }).stderr;

test("node's real crash output: the first error line leads, then the last lines that are not stack frames or the banner", () => {
  assert.match(crash, /Node\.js v\d+/); // what used to be all that was left
  const whole = new TailBuffer();
  whole.write(crash);
  const lines = whole.explaining();
  assert.equal(lines[0], CAUSE);
  assert.ok(!lines.some((l) => /^at |^Node\.js v|^[{}]$/.test(l)), lines.join(" | "));
  assert.ok(lines.includes("code: 'MODULE_NOT_FOUND',"), lines.join(" | "));
  // Line by line, behind a long deep stack that pushes the cause out of the 20-line ring.
  const deep = `${crash.split("\n").slice(0, 5).join("\n")}\n${Array.from({ length: 60 }, (_, i) => `    at frame${i} (/x.js:${i}:1)`).join("\n")}\nNode.js v20.0.0\n`;
  const byLine = new TailBuffer();
  for (const l of deep.split(/(?<=\n)/)) byLine.write(l);
  assert.ok(
    !byLine.lines().some((l) => l.includes("Cannot find module")),
    "the ring still holds the cause: the test proves nothing",
  );
  assert.equal(byLine.explaining()[0], CAUSE);
  // In one chunk (the skipped lines are looked through for it too).
  const chunk = new TailBuffer();
  chunk.write(deep);
  assert.equal(chunk.explaining()[0], CAUSE);
  // A restart begins a new run: the old process's cause is not the new one's.
  chunk.flush();
  chunk.write("listening\n");
  assert.deepEqual(chunk.explaining(), ["listening"]);
  // Without an error line the tail is what there is; the cause is not repeated when the tail has it.
  assert.deepEqual(explainingLines(["a", "b", "Error: x", "c"], "Error: x"), ["b", "Error: x", "c"]);
});

const config = () => {
  const file = join(tempDir(), "mcp-prism.json");
  writeFileSync(
    file,
    JSON.stringify({
      mcpServers: {
        demo: { command: process.execPath, args: [BIN, "demo-server"] },
        dead: { command: process.execPath, args: [MISSING] },
      },
    }),
  );
  return file;
};

test("the built CLI names the cause of a server that died at start", () => {
  const file = config();
  const r = spawnSync(process.execPath, [BIN, "tools", "--config", file, "--server", "dead"], {
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, ANTHROPIC_API_KEY: "" },
  });
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stderr, /server dead: .*\(server stderr: Error: Cannot find module '\/nonexistent-prism-server\.js'/);
  assert.doesNotMatch(r.stderr, /Node\.js v\d/);
});

const open: AppTerminal[] = [];
after(() => open.forEach((t) => t.close()));

test("the app's /servers shows the dead server's first error line", async () => {
  const t = await startApp({
    args: ["--config", config()],
    columns: 160,
    rows: 50,
    env: { ANTHROPIC_API_KEY: "" },
    ready: /● dead error/,
  });
  open.push(t);
  t.submit("/servers");
  const s = await t.waitFor(
    /stderr \(its first error, then the last lines\):\n\s+Error: Cannot find module '\/nonexistent-prism-server\.js'/,
    "the cause in /servers",
    { timeoutMs: 30_000 },
  );
  const line = s.split("\n").find((l) => /^dead /.test(l.trim())) ?? "";
  assert.match(line, /error — server dead: .*server stderr: Error: Cannot find module/, s);
  t.submit("/quit");
  assert.equal(await t.exitCode(20_000), 0);
});
