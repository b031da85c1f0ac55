// Hostile default: roots are offered only when the config (`"roots"`) or `--root DIR` says so,
// never the current directory. The real server-filesystem, started with one directory, replaces
// it with the client's roots when the client offers any: run from the parent directory, a default
// root there let `write_file` outside `files/` succeed. Through the built CLI.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCli } from "../helpers/processes.js";
import { FILESYSTEM, realServerFiles } from "../helpers/real-servers.js";

const files = realServerFiles();
after(() => files.remove());
const cfg = join(files.dir, "fs.json");
writeFileSync(
  cfg,
  JSON.stringify({
    mcpServers: { fs: { command: process.execPath, args: [FILESYSTEM, files.files] } },
    limits: { discoverTimeoutMs: 15000 },
  }),
);
const write = (path: string, extra: string[] = []) =>
  runCli(
    ["call", "write_file", "--config", cfg, "--yes", "--args", JSON.stringify({ path, content: "written" }), ...extra],
    { cwd: files.dir, timeoutMs: 60_000 },
  );

test("no roots configured: server-filesystem keeps its own directory (a write outside it fails)", async () => {
  const outside = join(files.dir, "outside.txt");
  const r = await write(outside);
  assert.equal(existsSync(outside), false, `written outside files/: ${r.stdout}${r.stderr}`);
  assert.match(r.stdout + r.stderr, /denied|outside allowed directories/i);
  const inside = join(files.files, "inside.txt");
  const ok = await write(inside);
  assert.equal(ok.code, 0, ok.stderr);
  assert.ok(existsSync(inside), "the server still writes in its own directory");
});

test("--root DIR offers exactly those roots (and a bad one is one line)", async () => {
  const listed = await runCli(["call", "list_allowed_directories", "--config", cfg, "--root", files.files], {
    cwd: files.dir,
    timeoutMs: 60_000,
  });
  assert.equal(listed.code, 0, listed.stderr);
  assert.match(listed.stdout, new RegExp(files.files.replace(/[/.]/g, "\\$&")));
  const bad = await runCli(["tools", "--config", cfg, "--root", join(files.dir, "missing")], {
    cwd: files.dir,
    timeoutMs: 60_000,
  });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /^mcp-prism tools: --root: expected an existing directory \(.*missing is not one\)\n$/);
});
