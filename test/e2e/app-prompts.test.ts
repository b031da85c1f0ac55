// Server prompts in the real app under tmux: /help lists each prompt as a `/server:prompt` command,
// a prompt command with arguments becomes the user's turn (the offline model answers it), other
// content kinds are named and not sent, and a failing prompt is one red line; the session goes on.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startApp, type AppTerminal } from "../helpers/tmux.js";
import { ROOT, tempDir } from "../helpers/host-fixtures.js";
import { EVERYTHING } from "../helpers/real-servers.js";

const FIXTURE = join(ROOT, "test", "fixtures", "prompt-server.mjs");
const open: AppTerminal[] = [];
after(() => open.forEach((t) => t.close()));

async function app(): Promise<AppTerminal> {
  const cfg = join(tempDir(), "app.json");
  writeFileSync(
    cfg,
    JSON.stringify({
      mcpServers: {
        everything: { command: process.execPath, args: [EVERYTHING, "stdio"] },
        p: { command: process.execPath, args: [FIXTURE] },
      },
      limits: { discoverTimeoutMs: 15000 },
    }),
  );
  const t = await startApp({
    args: ["--config", cfg, "--model", "offline"],
    columns: 140,
    rows: 50,
    ready: /p 2026-07-28 connected/,
  });
  open.push(t);
  await t.waitFor(/everything 2025-11-25 connected/, "server-everything connected");
  // Wait until the line is taken: the next keys must not share its stdin chunk (that is a paste).
  await t.send("/pane off");
  return t;
}

test("/help lists the prompt commands; a prompt command with arguments is the user's turn", async () => {
  const t = await app();
  t.submit("/help");
  const help = await t.idle(/\/p:greet <name> \[style\] +Greeting/, "the prompt commands in /help");
  assert.match(help, /\/everything:args-prompt <city> \[state\] +Arguments Prompt/);
  assert.match(help, /prompts \(their messages become your turn\):/);

  t.submit('/everything:args-prompt "New York" state=NY');
  const s = await t.idle(/What's weather in New York, NY\?/, "the prompt's text on the user's turn");
  assert.match(s, /prompt args-prompt from server everything: 1 message/);

  t.submit("/p:mixed");
  const mixed = await t.idle(/the notes/, "the mixed prompt's turn");
  assert.match(mixed, /user: image image\/png, \d+ B: not sent/);
  assert.match(mixed, /look at ␛\[31mthis␛\[0m/);

  t.submit("/p:fails");
  await t.idle(/server p, prompt fails: .*the prompt broke/, "the failure as one line");
  t.submit("/p:greet");
  await t.idle(/server p, prompt greet: missing required argument name/, "a missing argument named");

  // The transcript keeps the typed command and the turn's text.
  const dir = join(t.stateDir, "mcp-prism");
  const file = readdirSync(dir).find((f) => f.startsWith("session-") && f.endsWith(".jsonl")) as string;
  const records = readFileSync(join(dir, file), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  const users = records.filter((r) => r.kind === "user").map((r) => r.text);
  assert.ok(users.includes('/everything:args-prompt "New York" state=NY'), users.join(" | "));
  assert.ok(users.includes("What's weather in New York, NY?"), users.join(" | "));
});

test("Tab completes a prompt command and its argument from the server; the pane has its own key (^T)", async () => {
  const t = await app();
  // Servers' prompts are listed as they connect: the menu offers them without /help first.
  t.keys("-l", "/p:gr");
  await t.waitFor(/› \/p:gr\s*\n\s*\/p:greet/, "the prompt command in the menu");
  t.keys("Tab");
  // Completed with a space after it: the menu now offers the first argument's values.
  await t.waitFor(/› \/p:greet\s*\n\s*Ada {2}Alan {2}Grace {2}Barbara/, "the command completed");
  t.keys("-l", "A");
  await t.waitFor(/Ada {2}Alan/, "the server's suggestions for the argument");
  t.keys("-l", "l");
  await t.waitFor(/^\s*Alan\s*$/m, "one suggestion left");
  t.keys("Tab");
  await t.waitFor(/› \/p:greet Alan\s*\n\s*formal {2}casual/, "the argument completed, the next one offered");
  t.keys("Enter");
  await t.idle(/Hello, Alan! \(era 2026-07-28\)/, "the completed prompt command ran");
  assert.ok(!t.screen().includes("Programmatic ("), "the empty pane stays hidden");
  t.keys("C-t");
  await t.waitFor(
    /the side pane is empty: it appears with the first programmatic or App output/,
    "^T on an empty pane says when it appears",
  );
});
