// The real app in tmux when its transcript's disk fills up (a file size limit, `ulimit -f`: a
// short write, then EFBIG, as on a full disk): one notice line says the transcript stopped, the
// file holds whole records only, and the chat goes on. A read-only state directory: one line, and
// the app runs.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { startApp, type AppTerminal } from "../helpers/tmux.js";
import { tempDir } from "../helpers/host-fixtures.js";

const open: AppTerminal[] = [];
const mounts: string[] = [];
after(() => {
  open.forEach((t) => t.close());
  for (const m of mounts) spawnSync("umount", ["-l", m]);
});
/** The screen's lines joined (a long notice wraps in the conversation column). */
const flat = (s: string) =>
  s
    .split("\n")
    .map((l) => l.trimEnd())
    .join(" ")
    .replace(/ +/g, " ");
const ENV = { ANTHROPIC_API_KEY: "", MCP_PRISM_CODE_CACHE: "0", MCP_PRISM_ERA_CACHE: "0" };

async function fillsUp(t: AppTerminal, state: string, why: string) {
  t.submit("search customers Globex");
  const s = await t.idle(/returned to me: I found 37 Globex/, "the answer", { timeoutMs: 30_000, history: 200 });
  const stop = new RegExp(
    `transcript stopped: \\S*session-.*?\\.jsonl: ${why}; it ends at the last whole record and the session goes on`,
  );
  assert.match(flat(s), stop);
  t.submit("search customers Initech");
  const s2 = await t.idle(/returned to me: I found \d+ Initech/, "the next turn", { timeoutMs: 30_000, history: 300 });
  assert.equal((s2.match(/transcript stopped:/g) ?? []).length, 1, "said once");
  const dir = join(state, "mcp-prism");
  const file = readdirSync(dir).find((f) => f.startsWith("session-"))!;
  const text = readFileSync(join(dir, file), "utf8");
  assert.equal(text.at(-1), "\n");
  const recs = text
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  assert.equal(recs[0].kind, "session");
  assert.ok(
    !recs.some((r) => r.kind === "user" && r.text === "search customers Initech"),
    "nothing written after the stop",
  );
  t.submit("/quit");
  assert.equal(await t.exitCode(), 0);
}

test("a file size limit (ulimit -f) is reached: one stop notice on screen, whole records on disk, the chat goes on", async () => {
  const t = await startApp({ columns: 120, rows: 60, prelude: "ulimit -f 4", env: ENV });
  open.push(t);
  await fillsUp(
    t,
    t.stateDir,
    "the file size limit was reached \\(EFBIG\\), \\d+ of \\d+ bytes of a record were written and removed",
  );
});

test("a full disk (a 4 KiB tmpfs): the same", async (t) => {
  const state = tempDir();
  if (spawnSync("mount", ["-t", "tmpfs", "-o", "size=4k", "tmpfs", state]).status !== 0)
    return t.skip("mount -t tmpfs is not permitted here");
  mounts.push(state);
  const app = await startApp({ columns: 120, rows: 60, env: { ...ENV, XDG_STATE_HOME: state } });
  open.push(app);
  await fillsUp(
    app,
    state,
    "the disk is full \\(ENOSPC\\)(, \\d+ of \\d+ bytes of a record were written and removed)?",
  );
});

test("a read-only state directory: one line, and the app runs", async (t) => {
  const state = tempDir();
  if (spawnSync("mount", ["-t", "tmpfs", "-o", "ro,size=64k", "tmpfs", state]).status !== 0)
    return t.skip("mount -t tmpfs is not permitted here");
  mounts.push(state);
  const app = await startApp({ columns: 160, rows: 40, env: { ...ENV, XDG_STATE_HOME: state } });
  open.push(app);
  const line = `transcript off: cannot write in the state directory ${state}/mcp-prism: it is on a read-only file system (EROFS); the session goes on without it`;
  const s = await app.waitFor((x) => flat(x).includes(line), "the read-only line");
  assert.equal((s.match(/transcript off/g) ?? []).length, 1);
  app.submit("search customers Globex");
  await app.idle(/returned to me: I found 37 Globex/, "a turn", { timeoutMs: 30_000 });
  app.submit("/quit");
  assert.equal(await app.exitCode(), 0);
});
