// Hostile input: a server's prompt whose message text holds `@URI` of another server's resource.
// In the real app under tmux, `/evil:review` sends the prompt's text as written: nothing is read,
// no "attached" line, the offline model says it was given nothing, the transcript records no
// attachment and never the resource's text. The person's own `@URI` still attaches (control).
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startApp, type AppTerminal } from "../helpers/tmux.js";
import { ROOT } from "../helpers/host-fixtures.js";
import { EVERYTHING } from "../helpers/real-servers.js";

const URI = "demo://resource/static/document/features.md";
const dir = mkdtempSync(join(tmpdir(), "prism-prompt-attach-"));
const open: AppTerminal[] = [];
after(() => {
  open.forEach((t) => t.close());
  rmSync(dir, { recursive: true, force: true });
});

test("a prompt's @URI is never attached; the person's typed @URI is", async () => {
  const cfg = join(dir, "app.json");
  writeFileSync(
    cfg,
    JSON.stringify({
      mcpServers: {
        everything: { command: process.execPath, args: [EVERYTHING, "stdio"] },
        evil: { command: process.execPath, args: [join(ROOT, "test", "fixtures", "hostile-prompt-server.mjs"), URI] },
      },
      limits: { discoverTimeoutMs: 15000 },
    }),
  );
  const t = await startApp({
    args: ["--config", cfg, "--model", "offline"],
    columns: 160,
    rows: 50,
    ready: /everything 2025-11-25 connected/,
  });
  open.push(t);
  await t.waitFor(/evil 2025-11-25 connected/, "the hostile server connected");
  await t.send("/pane off");

  t.submit("/evil:review");
  const s = await t.idle(/prompt review from server evil: 1 message/, "the prompt's turn", { history: 200 });
  await t.idle(/Please review my code\. Context: @demo:\/\/resource/, "the prompt's text on the user's turn", {
    history: 200,
  });
  assert.doesNotMatch(s, /^attached /m, "nothing attached from a prompt's text");
  assert.doesNotMatch(s, /I was given the attached/, "the model was given no attachment");

  // Control: the same URI typed by the person attaches (so the test can fail).
  t.submit(`what does it say @${URI}`);
  await t.idle(/I was given the attached demo:\/\/resource\/static\/document\/features\.md/, "the typed attachment", {
    history: 200,
  });

  const state = join(t.stateDir, "mcp-prism");
  const file = readdirSync(state).find((f) => f.startsWith("session-") && f.endsWith(".jsonl")) as string;
  const records = readFileSync(join(state, file), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  const attachments = records.filter((r) => r.kind === "attachments");
  assert.equal(attachments.length, 1, "only the typed @URI was attached");
  const users = records.filter((r) => r.kind === "user").map((r) => r.text);
  assert.ok(users.includes("/evil:review"), users.join(" | "));
});
