// The prompt history across runs: saved 0600 in the state directory, bounded in entries and in
// each entry's size, damaged lines skipped, compacted when the file has grown.
import "./env.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, chmodSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { historyPath, MAX_ENTRIES, MAX_ENTRY_CHARS, PromptHistory } from "../../src/ui/prompt-history.js";

test("saved 0600 as one JSON string a line; loaded back in order, a multi-line entry whole", () => {
  const dir = join(mkdtempSync(join(tmpdir(), "prism-hist-")), "mcp-prism");
  try {
    const h = PromptHistory.load(dir);
    assert.deepEqual(h.entries, []);
    h.add("first");
    h.add("first"); // the same line twice in a row is one entry
    h.add("two\nlines");
    h.add("   ");
    assert.equal(statSync(historyPath(dir)).mode & 0o777, 0o600);
    assert.deepEqual(PromptHistory.load(dir).entries, ["first", "two\nlines"]);
    // A damaged file: what is a JSON string is kept.
    writeFileSync(historyPath(dir), `"a"\n{bad\n42\n"b"\n`);
    assert.deepEqual(PromptHistory.load(dir).entries, ["a", "b"]);
  } finally {
    rmSync(dirname(dir), { recursive: true, force: true }); // the mkdtemp parent too
  }
});

test("bounded: the newest entries only, an oversized entry kept for this run but not saved, the file compacted", () => {
  const dir = join(mkdtempSync(join(tmpdir(), "prism-hist-")), "mcp-prism");
  try {
    const h = PromptHistory.load(dir);
    for (let i = 0; i < 2 * MAX_ENTRIES + 10; i++) h.add(`p${i}`);
    assert.equal(h.entries.length, MAX_ENTRIES);
    const lines = readFileSync(historyPath(dir), "utf8").split("\n").filter(Boolean);
    assert.ok(lines.length <= 2 * MAX_ENTRIES, `compacted (${lines.length} lines)`);
    assert.equal(statSync(historyPath(dir)).mode & 0o777, 0o600);
    const back = PromptHistory.load(dir).entries;
    assert.equal(back.length, MAX_ENTRIES);
    assert.equal(back.at(-1), `p${2 * MAX_ENTRIES + 9}`);
    h.add("x".repeat(MAX_ENTRY_CHARS + 1));
    assert.equal(h.entries.at(-1)?.length, MAX_ENTRY_CHARS + 1);
    assert.equal(PromptHistory.load(dir).entries.at(-1), `p${2 * MAX_ENTRIES + 9}`);
  } finally {
    rmSync(dirname(dir), { recursive: true, force: true }); // the mkdtemp parent too
  }
});

test("an unwritable state directory costs the saved history, not the prompt", () => {
  const base = mkdtempSync(join(tmpdir(), "prism-hist-"));
  try {
    chmodSync(base, 0o500);
    const h = PromptHistory.load(join(base, "mcp-prism"));
    h.add("still recalled");
    assert.deepEqual(h.entries, ["still recalled"]);
  } finally {
    chmodSync(base, 0o700);
    rmSync(base, { recursive: true, force: true });
  }
});
