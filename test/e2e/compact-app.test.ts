// Issue 29: /compact in the real app under tmux (80×24, the offline model): the older turns of the
// model's context become a summary, and one line says what it saved; the chat goes on after it.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { startApp, type AppTerminal } from "../helpers/tmux.js";

const open: AppTerminal[] = [];
after(() => open.forEach((t) => t.close()));

test("80×24: /compact says what it saved; the context meter drops; the next prompt is answered", async () => {
  const t = await startApp({ columns: 80, rows: 24, env: { ANTHROPIC_API_KEY: "" } });
  open.push(t);
  t.submit("/compact");
  await t.waitFor(/\/compact: nothing to compact yet/, "nothing to compact before any turn");
  for (const p of ["search customers Globex", "hello", "search customers Initech"]) {
    t.submit(p);
    await t.idle(new RegExp(`› ${p}[\\s\\S]*›`), `the answer to ${p}`, { timeoutMs: 60_000, history: 300 });
  }
  t.submit("/compact");
  const s = await t.waitFor(
    /context compacted: \d+ earlier items? replaced by a summary, ≈[\d,]+ → ≈[\d,]+ tokens\s+of\s+the\s+[\d,]+-token\s+window/,
    "/compact's line",
    { timeoutMs: 30_000, history: 200 },
  );
  const [, before, after] = /≈([\d,]+) → ≈([\d,]+) tokens/.exec(s) ?? [];
  assert.ok(Number(after.replace(/,/g, "")) < Number(before.replace(/,/g, "")), s);
  t.submit("hello again");
  await t.idle(/› hello again[\s\S]*›/, "the chat goes on after compaction", { timeoutMs: 60_000, history: 300 });
  t.submit("/quit");
  assert.equal(await t.exitCode(20_000), 0);
});
