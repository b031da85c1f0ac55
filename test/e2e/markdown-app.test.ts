// The real app in tmux draws the model's markdown, streamed in small deltas from a fake Messages
// API: headings without `##`, bold without `**`, a fenced block, a pipe table, links with their URL.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { startApp, type AppTerminal } from "../helpers/tmux.js";
import { FakeAnthropic } from "../helpers/fake-anthropic.js";

const open: AppTerminal[] = [];
const fakes: FakeAnthropic[] = [];
after(async () => {
  open.forEach((t) => t.close());
  for (const f of fakes) await f.stop();
});

const REPLY = [
  "## Globex summary",
  "",
  "There are **37** customers; see [the CRM](https://crm.example/globex).",
  "",
  "```ts",
  "const total = 37; // all regions",
  "```",
  "",
  "| region | customers |",
  "|---|--:|",
  "| NA | 16 |",
  "| EMEA | 9 |",
  "",
  "- first point",
  "- second point",
  "",
  "Done.",
].join("\n");

test("markdown from the model is drawn, not printed raw, while it streams", async () => {
  const fake = await new FakeAnthropic().start();
  fakes.push(fake);
  fake.script({ kind: "reply", blocks: [{ type: "text", text: REPLY }], deltaChars: 4, paceMs: 3 });
  const t = await startApp({
    args: ["--model", "anthropic:fake-model"],
    env: { ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: fake.url },
    columns: 100,
    rows: 50,
  });
  open.push(t);
  t.submit("summarise Globex");
  const s = await t.idle(/Done\./, "the whole reply");
  assert.match(s, /^Globex summary\s*$/m, "the heading without its ##");
  assert.ok(!s.includes("##"), "no raw heading marks");
  assert.match(
    s,
    /There are 37 customers; see the CRM\s+\(https:\/\/crm\.example\/globex\)\./,
    "bold without **, the link with its URL",
  );
  assert.ok(!s.includes("**"), "no raw emphasis marks");
  assert.match(s, /┌ ts\n│ const total = 37; \/\/ all regions/, "the fenced block drawn with its language");
  assert.ok(!s.includes("```"), "no raw fences");
  assert.match(s, /│ region │ customers │/, "the table's header in a box");
  assert.match(s, /│ NA\s+│\s+16 │\n│ EMEA\s+│\s+9 │/, "its rows together, right-aligned as asked");
  assert.ok(!/\|---/.test(s), "no raw delimiter row");
  assert.match(s, /• first point\n• second point/, "list items with bullets");
  t.submit("/quit");
  assert.equal(await t.exitCode(), 0);
});
