// Issue 34.2: /servers and /tools answer at once from what is known while a server hangs (before,
// each connected it again first and answered after the whole connect timeout, uncancellable);
// reconnecting is explicit — /reconnect NAME — and Esc cancels it; the chat goes on.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { startApp, type AppTerminal } from "../helpers/tmux.js";
import { BIN, tempDir } from "../helpers/host-fixtures.js";

const open: AppTerminal[] = [];
after(() => open.forEach((t) => t.close()));

test("80×24: a hung server holds neither /servers nor /tools; /reconnect is explicit and Esc cancels it", async () => {
  const file = join(tempDir(), "mcp-prism.json");
  writeFileSync(
    file,
    JSON.stringify({
      mcpServers: {
        demo: { command: process.execPath, args: [BIN, "demo-server"] },
        hang: { command: "bash", args: ["-c", "sleep 1000"] },
        dead: { command: process.execPath, args: ["-e", "process.exit(3)"] },
      },
      // A connect to `hang` would take 10 minutes: anything that waited for it could not answer here.
      limits: { callTimeoutMs: 600_000, connectWaitMs: 3_000 },
    }),
  );
  const t = await startApp({ args: ["--config", file], columns: 80, rows: 24, env: { ANTHROPIC_API_KEY: "" } });
  open.push(t);
  await t.waitFor(/● dead error/, "dead reported", { timeoutMs: 60_000 });

  t.submit("/servers");
  const s = await t.waitFor(/\/reconnect dead connects it again/, "/servers answered from what is known", {
    timeoutMs: 30_000,
  });
  assert.match(t.screen(200), /hang {2}\? {2}connecting/, s);
  t.submit("/tools");
  await t.waitFor(/toggle_extras \(demo/, "/tools answered with the demo server's tools", { timeoutMs: 30_000 });

  t.submit("/reconnect hang");
  await t.waitFor(/server hang: connecting… \(Esc cancels\)/, "the reconnect started", { timeoutMs: 30_000 });
  t.keys("Escape");
  await t.waitFor(/server hang: reconnect cancelled/, "Esc cancelled the reconnect", { timeoutMs: 30_000 });
  t.submit("search customers Globex");
  await t.waitFor(/I found \d+ Globex/, "the chat goes on", { timeoutMs: 60_000 });
  t.submit("/quit");
  assert.equal(await t.exitCode(20_000), 0);
});
