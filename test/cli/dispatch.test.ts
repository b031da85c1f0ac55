// bin/mcp-prism.js hands every argv to main(), which routes subcommands, --help and -p past the
// chat app.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";

test("the launcher routes subcommands, --help and -p past the app, and the app refuses a non-terminal", () => {
  const bin = join(import.meta.dirname, "..", "..", "bin", "mcp-prism.js");
  const run = (...args: string[]) =>
    spawnSync(process.execPath, [bin, ...args], {
      encoding: "utf8",
      input: "",
      timeout: 30_000,
      env: { ...process.env, CI: "" },
    });
  const help = run("--help");
  assert.equal(help.status, 0);
  assert.match(help.stdout, /^mcp-prism — a terminal chat host/);
  const unknown = run("nonsense");
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /unknown command "nonsense"/);
  // The app itself (stdin is not a terminal here): its one line, exit 2.
  const app = run("--model", "offline");
  assert.equal(app.status, 2);
  assert.match(app.stderr, /the chat app needs a terminal/);
  // `tui` (the chat app's own subcommand) reads -p the way main() does, the attached form (-pTEXT) included.
  const oneTurn = run("tui", "-plook up order ord_5001", "--model", "offline");
  assert.equal(oneTurn.status, 0, oneTurn.stderr);
  assert.match(oneTurn.stdout, /Order ord_5001 for /);
  const usage = run("--mode", "bogus");
  assert.equal(usage.status, 2);
  assert.match(usage.stderr, /--mode: expected one of/);
});

test("`help COMMAND` answers for every command the overview lists (help view said unknown command)", () => {
  const bin = join(import.meta.dirname, "..", "..", "bin", "mcp-prism.js");
  const run = (...args: string[]) =>
    spawnSync(process.execPath, [bin, ...args], { encoding: "utf8", input: "", timeout: 30_000 });
  const overview = run("--help").stdout;
  const commands = [...new Set([...overview.matchAll(/^ {2}mcp-prism ([a-z][a-z-]+)/gm)].map((m) => m[1]))];
  for (const c of ["view", "run", "login", "logout", "check", "call"])
    assert.ok(commands.includes(c), `overview lists ${c}`);
  for (const c of commands) {
    const r = run("help", c);
    assert.equal(r.status, 0, `help ${c}: ${r.stderr}`);
    assert.match(r.stdout, new RegExp(`mcp-prism ${c}\\b`), `help ${c}`);
  }
});
