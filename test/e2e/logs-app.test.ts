// The real app in tmux on the session fixture: a server's warning log comes as a one-line notice,
// /logs SERVER lists what the server sent (the debug one too: logLevel debug), the transcript keeps
// every message, and the log canary never reaches the offline model's answer.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startApp, type AppTerminal } from "../helpers/tmux.js";
import { ROOT, tempDir } from "../helpers/host-fixtures.js";
import { LOG_CANARY } from "../fixtures/session-server.js";

const dir = tempDir();
const open: AppTerminal[] = [];
after(() => {
  open.forEach((t) => t.close());
  rmSync(dir, { recursive: true, force: true });
});

test("/logs, the warning notice and the transcript; the model never sees a log", async () => {
  const cfg = join(dir, "logs.json");
  writeFileSync(
    cfg,
    JSON.stringify({
      mcpServers: {
        fx: {
          command: process.execPath,
          args: ["--import", "tsx", join(ROOT, "test", "fixtures", "session-server.ts")],
          cwd: ROOT,
        },
      },
      logLevel: "debug",
      limits: { discoverTimeoutMs: 15000, connectWaitMs: 60000 },
    }),
  );
  const t = await startApp({
    args: ["--config", cfg, "--yes", "--model", "offline"],
    columns: 160,
    rows: 50,
    ready: /fx 2025-11-25 connected/,
  });
  open.push(t);
  t.submit("call noisy {}");
  await t.idle(/server fx warning: \{"note":"careful LOG-CANARY-7f3a91"/, "the warning notice");
  t.submit("/logs fx");
  const s = await t.idle(
    /\/logs fx[\s\S]*fx debug \[fixture\]: a debug line[\s\S]*fx warning \[fixture\]:/,
    "the /logs listing",
  );
  const answer = s.slice(s.indexOf("call noisy {}"), s.indexOf("/logs fx"));
  assert.ok(answer.includes("noisy done"), answer);
  const records = readdirSync(join(t.stateDir, "mcp-prism"))
    .filter((f) => f.endsWith(".jsonl"))
    .flatMap((f) =>
      readFileSync(join(t.stateDir, "mcp-prism", f), "utf8")
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l)),
    );
  const logs = records.filter((r) => r.kind === "log");
  assert.deepEqual(
    logs.map((r) => r.level),
    ["debug", "warning"],
  );
  // The offline model answers only from its context: its reply does not hold the canary.
  const replies = records.filter((r) => r.kind === "assistant").map((r) => JSON.stringify(r));
  assert.ok(replies.length > 0);
  assert.ok(
    replies.every((r) => !r.includes(LOG_CANARY)),
    replies.join("\n"),
  );
});
