// src/cli/code-cache.ts: a CommonJS bundle runs the same with or without its V8 code cache; the
// cache is written on request, used by the next run, and never used for other content (even of
// the same length, which V8 alone would accept).
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { codeCacheDir, runWithCodeCache } from "../../src/cli/code-cache.js";

function bundle(dir: string, value: string, build: string): string {
  const file = join(dir, "tui.cjs");
  const body = `const os = require("node:os");
function answer() { return ${JSON.stringify(value)} + ":" + typeof os.cpus; }
exports.answer = answer;
exports.load = () => esmImp("thing");
exports.where = __filename;`;
  writeFileSync(file, `${body}\n// mcp-prism-build ${build}\n`);
  return file;
}

test("runs a CommonJS bundle, writes its cache on save() and uses it on the next run", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "mcp-prism-cc-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const env = { XDG_CACHE_HOME: join(dir, "cache") };
  const file = bundle(dir, "one", "a".repeat(32));
  const imported: string[] = [];
  const esmImport = async (s: string) => (imported.push(s), { s });

  type M = { answer(): string; load(): Promise<unknown>; where: string };
  const first = runWithCodeCache<M>(file, esmImport, env);
  assert.equal(first.hit, false);
  assert.equal(first.exports.answer(), "one:function");
  assert.equal(first.exports.where, file);
  assert.deepEqual(await first.exports.load(), { s: "thing" });
  assert.deepEqual(imported, ["thing"]);
  first.save();
  const cacheDir = codeCacheDir(env);
  assert.deepEqual(readdirSync(cacheDir), [`app-${process.version}-${process.arch}.v8cache`]);

  const second = runWithCodeCache<M>(file, esmImport, env);
  assert.equal(second.hit, true);
  assert.equal(second.exports.answer(), "one:function");

  // Same length, other content and build hash: the stored cache is not used for it.
  const changed = bundle(dir, "two", "b".repeat(32));
  const third = runWithCodeCache<M>(changed, esmImport, env);
  assert.equal(third.hit, false);
  assert.equal(third.exports.answer(), "two:function");
});

test("MCP_PRISM_CODE_CACHE=0 and an unwritable cache directory only mean no cache", (t) => {
  const dir = mkdtempSync(join(tmpdir(), "mcp-prism-cc-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = bundle(dir, "x", "c".repeat(32));
  const off = runWithCodeCache<{ answer(): string }>(file, async () => ({}), {
    XDG_CACHE_HOME: join(dir, "cache"),
    MCP_PRISM_CODE_CACHE: "0",
  });
  off.save();
  assert.equal(existsSync(join(dir, "cache")), false);
  // A file where the cache directory should be: mkdir fails, save() stays quiet.
  writeFileSync(join(dir, "blocked"), "");
  const blocked = runWithCodeCache<{ answer(): string }>(file, async () => ({}), {
    XDG_CACHE_HOME: join(dir, "blocked"),
  });
  assert.doesNotThrow(() => blocked.save());
  assert.equal(blocked.exports.answer(), "x:function");
});

test("the cache directory follows XDG_CACHE_HOME, else ~/.cache", () => {
  assert.equal(codeCacheDir({ XDG_CACHE_HOME: "/x/cache" }), "/x/cache/mcp-prism");
  assert.equal(codeCacheDir({ HOME: "/home/u" }), "/home/u/.cache/mcp-prism");
  assert.equal(codeCacheDir({ HOME: "/home/u", XDG_CACHE_HOME: "" }), "/home/u/.cache/mcp-prism");
});
