// CLI manners through the built launcher: --version everywhere, help for every command,
// "did you mean" for commands, options and tool names, -p - from stdin, -p without a value.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closest } from "../../src/protocol/suggest.js";
import { COMMAND_HELP } from "../../src/cli/help.js";
import { COMMAND_NAMES } from "../../src/cli/main.js";

const root = join(import.meta.dirname, "..", "..");
const bin = join(root, "bin", "mcp-prism.js");
const run = (args: string[], input = "") =>
  spawnSync(process.execPath, [bin, ...args], {
    encoding: "utf8",
    input,
    timeout: 30_000,
    env: { ...process.env, CI: "", ANTHROPIC_API_KEY: "" },
  });
const version = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string }).version;

test("--version and -v answer the package's version before any command runs, the app's entry included", () => {
  for (const args of [
    ["--version"],
    ["-v"],
    ["call", "--version"],
    ["tui", "-v"],
    ["--model", "offline", "--version"],
    ["check", "--json", "--version"],
  ]) {
    const r = run(args);
    assert.equal(r.status, 0, `${args.join(" ")}: ${r.stderr}`);
    assert.equal(r.stdout, `mcp-prism ${version}\n`, args.join(" "));
  }
  // After `--` it belongs to the server's command line, and as -p's value it is the prompt.
  const prompt = run(["-p", "-v", "--model", "offline"]);
  assert.doesNotMatch(prompt.stdout, /^mcp-prism \d/);
});

test("help COMMAND and COMMAND --help print a Usage: line for every command the CLI dispatches; an unknown one suggests", () => {
  // Every dispatched command, not only those with a help text: `help run` once said unknown command.
  for (const command of new Set([...COMMAND_NAMES, ...Object.keys(COMMAND_HELP).filter((c) => c !== "-p")])) {
    const viaHelp = run(["help", command]);
    assert.equal(viaHelp.status, 0, `help ${command}: ${viaHelp.stderr}`);
    const shown = command === "tui" ? "mcp-prism \\[" : `mcp-prism ${command}`;
    assert.match(viaHelp.stdout, new RegExp(`^Usage: ${shown}`), command);
    if (command === "help") continue;
    const viaFlag = run([command, "--help"]);
    assert.equal(viaFlag.status, 0, `${command} --help: ${viaFlag.stderr}`);
    assert.equal(viaFlag.stdout, viaHelp.stdout, command);
  }
  assert.match(run(["-p", "x", "--help"]).stdout, /^Usage: mcp-prism -p PROMPT/);
  const bad = run(["help", "compaer"]);
  assert.equal(bad.status, 2);
  assert.equal(bad.stderr, 'mcp-prism help: unknown command "compaer" (did you mean compare?)\n');
});

test("did you mean: commands, options and tool names; a typo'd tool is not called 'not connected'", () => {
  const command = run(["toolz"]);
  assert.equal(command.status, 2);
  assert.equal(command.stderr, 'mcp-prism: unknown command "toolz" (did you mean tools?); see mcp-prism --help\n');
  const option = run(["call", "x", "--argz", "{}"]);
  assert.equal(option.status, 2);
  assert.equal(option.stderr, "mcp-prism call: unknown option --argz (did you mean --args?)\n");
  const tool = run(["call", "serch_customers", "--model", "offline"]);
  assert.equal(tool.status, 1);
  assert.match(tool.stdout, /^serch_customers \(mode chat\)/);
  assert.match(tool.stdout, /no tool named "serch_customers" \(did you mean search_customers\?\)/);
  assert.equal(closest("zzzzzz", ["call", "tools"]), undefined);
});

test("-p - reads the prompt from stdin; -p without a value is one line", () => {
  const piped = run(["-p", "-", "--model", "offline"], "look up order ord_5001\n");
  assert.equal(piped.status, 0, piped.stderr);
  assert.match(piped.stdout, /Order ord_5001 for /);
  const empty = run(["-p", "-", "--model", "offline"], "  \n");
  assert.equal(empty.status, 2);
  assert.equal(empty.stderr, "mcp-prism -p: -p -: stdin held no prompt\n");
  const missing = run(["-p"]);
  assert.equal(missing.status, 2);
  assert.equal(missing.stderr, "mcp-prism -p: option -p needs a value\n");
});

test("common options work on either side of the subcommand; the app's errors name mcp-prism, not an internal command", () => {
  const dir = mkdtempSync(join(tmpdir(), "mcp-prism-manners-"));
  try {
    const config = join(dir, "config.json");
    writeFileSync(
      config,
      JSON.stringify({ mcpServers: { alpha: { command: process.execPath, args: [bin, "demo-server"] } } }),
    );
    const after = run(["tools", "--json", "--config", config]);
    assert.equal(after.status, 0, after.stderr);
    const before = run(["--config", config, "tools", "--json"]);
    assert.equal(before.status, 0, before.stderr);
    assert.equal(before.stdout, after.stdout);
    assert.match(before.stdout, /"name":"alpha","state":"connected"/);
    // An option's value that happens to be a command's name is a value, not the command.
    const prompt = run(["--model", "offline", "-p", "tools", "--config", config]);
    assert.equal(prompt.status, 0, prompt.stderr);
    assert.doesNotMatch(prompt.stdout, /declared variants/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const typo = run(["--modle", "offline"]);
  assert.equal(typo.status, 2);
  assert.match(typo.stderr, /^mcp-prism: unknown option --modle \(did you mean --mode/);
  assert.doesNotMatch(run(["tui", "--modle", "x"]).stderr, /tui/);
});
