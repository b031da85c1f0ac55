// The real app in tmux with three servers: the demo one, a hung one (answers nothing, ever, with a
// 10-minute call timeout) and a dead one. The first prompt runs on the demo server without waiting
// for the hung one; the status bar and one notice each say what the other two are doing.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { startApp, ROOT, type AppTerminal } from "../helpers/tmux.js";
import { BIN, tempDir } from "../helpers/host-fixtures.js";

const open: AppTerminal[] = [];
after(() => open.forEach((t) => t.close()));

test("a hung server does not hold the first prompt; a dead one is reported; the demo server's tools work", async () => {
  const file = join(tempDir(), "mcp-prism.json");
  const fixture = join(ROOT, "test", "fixtures", "misbehaving-server.ts");
  writeFileSync(
    file,
    JSON.stringify({
      mcpServers: {
        demo: { command: process.execPath, args: [BIN, "demo-server"] },
        mute: { command: process.execPath, args: ["--import", "tsx", fixture, "--era", "mute"], cwd: ROOT },
        dead: { command: process.execPath, args: ["-e", "process.exit(3)"] },
      },
      limits: { callTimeoutMs: 600_000, connectWaitMs: 6_000 },
    }),
  );
  const t = await startApp({ args: ["--config", file], columns: 160, rows: 50, env: { ANTHROPIC_API_KEY: "" } });
  open.push(t);
  t.submit("search customers Globex");
  const s = await t.idle(/returned to me: I found \d+ Globex/, "the answer while mute is still connecting", {
    timeoutMs: 60_000,
  });
  assert.match(s, /● mute connecting…/);
  assert.match(s, /● dead error/);
  assert.match(s, /server mute: still connecting after 6 s; prompts run without its tools until it connects/);
  assert.equal(s.split("\n").filter((l) => /server dead: /.test(l)).length, 1, s);
  t.submit("/quit");
  assert.equal(await t.exitCode(20_000), 0);
});
