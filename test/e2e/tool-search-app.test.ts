// Tool search in the real app under tmux, on the six real servers of issue 29 (playwright-mcp on
// Debian's Chromium, the git, SQLite, filesystem, memory and everything servers) with the real
// Anthropic SDK against the fake Messages API: the first request carries only search_tools; a
// scripted model searches "take a screenshot", the app says which tools that loaded, the next
// request offers browser_take_screenshot, the model calls it and the card shows the call done;
// /tools marks it [loaded].
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { startApp, type AppTerminal } from "../helpers/tmux.js";
import { FakeAnthropic } from "../helpers/fake-anthropic.js";
import { sixServers } from "../helpers/six-servers.js";

const six = sixServers();
const open: AppTerminal[] = [];
let fake: FakeAnthropic | undefined;
after(async () => {
  open.forEach((t) => t.close());
  await fake?.stop();
  six.remove();
});

const toolNames = (body: any): string[] => (body.tools ?? []).map((t: { name: string }) => t.name);

test('the app on six real servers: search_tools finds "take a screenshot", the tool is loaded and runs', async () => {
  fake = await new FakeAnthropic().start();
  let searched = false;
  fake.responder = (body) => {
    const names = toolNames(body);
    if (!searched) {
      searched = true;
      return {
        kind: "reply",
        blocks: [{ type: "tool_use", name: "search_tools", input: { query: "take a screenshot" } }],
      };
    }
    const last = JSON.stringify(body.messages.at(-1));
    if (
      names.includes("browser_take_screenshot") &&
      !/screenshot of the page is attached|image/.test(last) &&
      /Loaded for your next step/.test(last)
    )
      return { kind: "reply", blocks: [{ type: "tool_use", name: "browser_take_screenshot", input: { type: "png" } }] };
    return { kind: "reply", blocks: [{ type: "text", text: "Here is the screenshot of the blank page." }] };
  };
  const mcpServers: Record<string, unknown> = {};
  for (const [name, s] of Object.entries(six.servers)) {
    const { kind: _kind, ...rest } = s as { kind: string };
    mcpServers[name] = rest;
  }
  const cfg = join(six.dir, "app.json");
  writeFileSync(
    cfg,
    JSON.stringify({
      mcpServers,
      roots: [six.dir],
      toolSearch: "on",
      limits: { discoverTimeoutMs: 30000, connectWaitMs: 120000 },
    }),
  );
  const t = await startApp({
    args: ["--config", cfg, "--model", "anthropic:claude-test", "--yes"],
    env: { ANTHROPIC_API_KEY: "sk-test", ANTHROPIC_BASE_URL: fake.url },
    columns: 260,
    rows: 60,
    ready: /everything \S+ connected/,
  });
  open.push(t);
  await t.waitFor(
    (s) =>
      ["playwright", "git", "sqlite", "fs", "memory", "everything"].every((n) =>
        new RegExp(`● ${n} \\S+ connected`).test(s),
      ),
    "all six servers connected",
    { timeoutMs: 120_000 },
  );
  await t.send("/pane off");

  t.submit("take a screenshot of the page");
  const shown = await t.idle(/Here is the screenshot of the blank page\./, "the turn's answer", {
    timeoutMs: 120_000,
    history: 200,
  });
  assert.match(
    shown,
    /search_tools "take a screenshot": loaded browser_take_screenshot \(playwright\)/,
    "the app says what the search loaded",
  );
  assert.match(shown, /✓ playwright · browser_take_screenshot/, "the found tool's card, done");

  const chats = fake.requests.map((r) => r.body);
  assert.deepEqual(toolNames(chats[0]), ["search_tools"], "the first request: search_tools alone");
  assert.ok(toolNames(chats[1]).includes("browser_take_screenshot"), "offered once found");
  assert.ok(chats.length >= 3);
  assert.deepEqual(fake.refused, []);

  t.submit("/tools");
  await t.idle(/browser_take_screenshot[^\n]*\[loaded\]/, "/tools marks it loaded", { history: 400 });
});
