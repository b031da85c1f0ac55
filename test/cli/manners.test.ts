// CLI manners through the built launcher: --version everywhere, help for every command,
// "did you mean" for commands, options and tool names, -p - from stdin, -p without a value.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { closest } from "../../src/protocol/suggest.js";
import { COMMAND_HELP } from "../../src/cli/help.js";

const root = join(import.meta.dirname, "..", "..");
const bin = join(root, "bin", "mcp-prism.js");
const run = (args: string[], input = "") => spawnSync(process.execPath, [bin, ...args], { encoding: "utf8", input, timeout: 30_000, env: { ...process.env, CI: "", ANTHROPIC_API_KEY: "" } });
const version = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string }).version;

test("--version and -v answer the package's version before any command runs, the app's entry included", () => {
  for (const args of [["--version"], ["-v"], ["call", "--version"], ["tui", "-v"], ["--model", "offline", "--version"], ["check", "--json", "--version"]]) {
    const r = run(args);
    assert.equal(r.status, 0, `${args.join(" ")}: ${r.stderr}`);
    assert.equal(r.stdout, `mcp-prism ${version}\n`, args.join(" "));
  }
  // After `--` it belongs to the server's command line, and as -p's value it is the prompt.
  const prompt = run(["-p", "-v", "--model", "offline"]);
  assert.doesNotMatch(prompt.stdout, /^mcp-prism \d/);
});

test("help COMMAND and COMMAND --help print that command's usage for every command; an unknown one suggests", () => {
  for (const command of Object.keys(COMMAND_HELP).filter((c) => c !== "-p")) {
    const viaHelp = run(["help", command]);
    assert.equal(viaHelp.status, 0, command);
    assert.match(viaHelp.stdout, new RegExp(`^([Uu]sage: )?mcp-prism ${command === "tui" ? "\\[tui\\]" : command}`), command);
    if (command === "help") continue;
    const viaFlag = run([command, "--help"]);
    assert.equal(viaFlag.status, 0, command);
    assert.equal(viaFlag.stdout, viaHelp.stdout, command);
  }
  assert.match(run(["-p", "x", "--help"]).stdout, /^mcp-prism -p PROMPT/);
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
