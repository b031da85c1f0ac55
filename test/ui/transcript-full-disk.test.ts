// Nothing lost: on a full disk (/dev/full, a file size limit, a small tmpfs) the transcript keeps
// whole records only, one notice says it stopped, and the session goes on; a read-only state
// directory is one line; /save and /save-output write 0600, whole or not at all.
import "./env.js";
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, openSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SessionStore } from "../../src/ui/state.js";
import { attachTranscript, TranscriptFile } from "../../src/ui/transcript.js";
import { COMMANDS, dispatch, type CommandContext } from "../../src/ui/commands/index.js";
import { ROOT, tempDir } from "../helpers/host-fixtures.js";
import { okOutcome } from "./harness.js";

const notices = (store: SessionStore) =>
  [...store.getState().finished.flatMap((b) => b.items), ...(store.getState().live?.items ?? [])]
    .filter((i) => i.kind === "notice")
    .map((i) => (i as { text: string }).text);

/** Every line of the file parses; the file ends with a newline (no record cut mid-object). */
function wholeRecords(path: string): Record<string, unknown>[] {
  const text = readFileSync(path, "utf8");
  if (text) assert.equal(text.at(-1), "\n", "the file ends mid-record");
  return text
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

function fill(dir: string, prelude = "", count = 200) {
  const script = join(ROOT, "test", "fixtures", "fill-transcript.ts");
  const r = spawnSync(
    "sh",
    ["-c", `${prelude} exec "$0" --import tsx "$1" "$2" ${count}`, process.execPath, script, dir],
    { cwd: ROOT, encoding: "utf8", timeout: 60_000 },
  );
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as { path?: string; notices: string[]; live: string[] };
}

/** Runs `mount` (root with CAP_SYS_ADMIN, as here and in CI); false when not permitted. */
function mountTmpfs(dir: string, options: string): boolean {
  return spawnSync("mount", ["-t", "tmpfs", "-o", options, "tmpfs", dir]).status === 0;
}
const umount = (dir: string) => spawnSync("umount", ["-l", dir]); // lazy: detached even if still busy

describe("a full disk", () => {
  test("/dev/full (ENOSPC on every write): one stop notice, drawn once, and the session goes on", async () => {
    const store = new SessionStore();
    const t = attachTranscript(store, "unused", () => new TranscriptFile("/dev/full", openSync("/dev/full", "a")));
    store.record({ kind: "session", event: "start" });
    store.startTurn("first");
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(notices(store), [
      "transcript stopped: /dev/full: the disk is full (ENOSPC); it ends at the last whole record and the session goes on",
    ]);
    store.notice("later");
    store.startTurn("second");
    store.endTurn();
    assert.equal(notices(store).filter((n) => n.startsWith("transcript stopped")).length, 1);
    assert.ok(
      store.transcript().some((r) => r.kind === "user" && r.text === "second"),
      "the session (and /save's records) go on",
    );
    t.detach();
  });

  test("a file size limit (ulimit -f: a short write, then EFBIG): cut back to the last whole record", () => {
    const dir = tempDir();
    const r = fill(dir, "ulimit -f 8;"); // 8 KiB: ~11 records of ~760 bytes, the 11th cut short
    assert.ok(r.path);
    const recs = wholeRecords(r.path);
    assert.ok(recs.length >= 5 && recs.length < 200, `${recs.length} records`);
    assert.deepEqual(
      recs.map((x) => x.i),
      recs.map((_, i) => i),
      "records in order, none missing before the stop",
    );
    assert.ok(statSync(r.path).size <= 8 * 1024);
    assert.equal(r.notices.length, 1, JSON.stringify(r.notices));
    assert.match(
      r.notices[0],
      /^transcript stopped: .*: the file size limit was reached \(EFBIG\), \d+ of \d+ bytes of a record were written and removed; it ends at the last whole record and the session goes on$/,
    );
    assert.deepEqual(r.live, ["user"], "the next turn starts");
  });

  test("a real full tmpfs (ENOSPC), when mount is permitted", (t) => {
    const dir = tempDir();
    if (!mountTmpfs(dir, "size=64k")) return t.skip("mount -t tmpfs is not permitted here");
    try {
      const r = fill(join(dir, "state"), "", 400);
      assert.ok(r.path);
      const recs = wholeRecords(r.path);
      assert.ok(recs.length > 10 && recs.length < 400, `${recs.length} records`);
      assert.equal(r.notices.length, 1);
      assert.match(r.notices[0], /the disk is full \(ENOSPC\)/);
    } finally {
      umount(dir);
    }
  });
});

describe("a read-only state directory", () => {
  test("one line saying so; the session goes on", (t) => {
    const dir = tempDir();
    let readOnly: () => void;
    if (process.getuid?.() !== 0) {
      chmodSync(dir, 0o500);
      readOnly = () => chmodSync(dir, 0o700);
    } else if (mountTmpfs(dir, "ro,size=64k")) readOnly = () => umount(dir);
    else return t.skip("root without mount: no way to make a read-only directory");
    try {
      const store = new SessionStore();
      const tr = attachTranscript(store, join(dir, "mcp-prism"));
      assert.equal(tr.file, undefined);
      const n = notices(store);
      assert.equal(n.length, 1);
      assert.match(
        n[0],
        new RegExp(
          `^transcript off: cannot write in the state directory ${join(dir, "mcp-prism")}: (it is on a read-only file system \\(EROFS\\)|permission denied \\(EACCES\\)); the session goes on without it$`,
        ),
      );
      store.startTurn("still works");
      assert.equal(store.getState().live?.items[0].kind, "user");
    } finally {
      readOnly();
    }
  });
});

describe("/save and /save-output", () => {
  const ctx = (store: SessionStore, cwd: string): CommandContext => ({
    store,
    host: { tools: async () => [], servers: () => [], call: async () => okOutcome({}) },
    width: () => 80,
    quit: () => {},
    cwd,
    commands: COMMANDS,
  });

  test("write 0600, also over an existing 0644 file, and leave no temp file", async () => {
    const dir = tempDir();
    const store = new SessionStore();
    store.record({ kind: "session", event: "start" });
    await dispatch("/save new.jsonl", ctx(store, dir));
    assert.equal(statSync(join(dir, "new.jsonl")).mode & 0o777, 0o600);
    writeFileSync(join(dir, "old.jsonl"), "old\n", { mode: 0o644 });
    chmodSync(join(dir, "old.jsonl"), 0o644);
    await dispatch("/save old.jsonl", ctx(store, dir));
    assert.equal(statSync(join(dir, "old.jsonl")).mode & 0o777, 0o600);
    assert.equal(wholeRecords(join(dir, "old.jsonl"))[0].kind, "session");
    assert.deepEqual((await import("node:fs")).readdirSync(dir).sort(), ["new.jsonl", "old.jsonl"]);
  });

  test("a full disk: one line, the old file is kept whole", async (t) => {
    const dir = tempDir();
    if (!mountTmpfs(dir, "size=16k")) return t.skip("mount -t tmpfs is not permitted here");
    try {
      writeFileSync(join(dir, "keep.jsonl"), '{"kept":true}\n');
      const store = new SessionStore();
      for (let i = 0; i < 100; i++) store.record({ kind: "fill", pad: "y".repeat(500) });
      await dispatch("/save keep.jsonl", ctx(store, dir));
      const n = notices(store);
      assert.match(
        n.at(-1) ?? "",
        new RegExp(`^cannot write ${join(dir, "keep.jsonl")}: the disk is full \\(ENOSPC\\); nothing was saved$`),
      );
      assert.equal(readFileSync(join(dir, "keep.jsonl"), "utf8"), '{"kept":true}\n');
      assert.deepEqual((await import("node:fs")).readdirSync(dir), ["keep.jsonl"]);
    } finally {
      umount(dir);
    }
  });
});
