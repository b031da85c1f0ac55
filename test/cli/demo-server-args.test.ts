// `mcp-prism demo-server` reads its options with parseArgs: a bad one is one line naming it, the
// usage, and exit 2, before any server starts (the built CLI, so run `npm run build` first).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { parseDemoServerArgs } from "../../src/cli/commands/demo-server.js";

const bin = join(import.meta.dirname, "..", "..", "bin", "mcp-prism.js");
const run = (...args: string[]) =>
  spawnSync(process.execPath, [bin, "demo-server", ...args], { encoding: "utf8", input: "", timeout: 30_000 });

test("demo-server: a bad option is one line and exit 2", () => {
  const cases: [string[], RegExp][] = [
    [["--frobnicate"], /^mcp-prism demo-server: unknown option --frobnicate$/],
    [["--http"], /^mcp-prism demo-server: option --http needs a value$/],
    [["--http", "--log-requests", "x"], /^mcp-prism demo-server: option --http needs a value$/],
    [["--http", "80a"], /^mcp-prism demo-server: --http needs a port number 0\.\.65535, got "80a"$/],
    [["--http=70000"], /^mcp-prism demo-server: --http needs a port number 0\.\.65535, got "70000"$/],
    [["--log-requests="], /^mcp-prism demo-server: --log-requests needs a file path$/],
    [["stray"], /^mcp-prism demo-server: unexpected argument "stray"$/],
  ];
  for (const [args, line] of cases) {
    const r = run(...args);
    assert.equal(r.status, 2, args.join(" "));
    const [first, second] = r.stderr.split("\n");
    assert.match(first, line, args.join(" "));
    assert.match(second, /^Usage: mcp-prism demo-server/, args.join(" "));
    assert.equal(r.stdout, "");
  }
});

test("demo-server: --help prints the usage, exit 0", () => {
  const r = run("--help");
  assert.equal(r.status, 0);
  assert.match(r.stdout, /^Usage: mcp-prism demo-server \[--http PORT\]/);
});

test("demo-server: both spellings of each option", () => {
  const off = { conformanceFixtures: false, errorSchemas: false };
  assert.deepEqual(parseDemoServerArgs([]), { requestLog: undefined, ...off });
  assert.deepEqual(parseDemoServerArgs(["--http", "0"]), { port: 0, requestLog: undefined, ...off });
  assert.deepEqual(parseDemoServerArgs(["--http=8080", "--log-requests", "/tmp/x"]), {
    port: 8080,
    requestLog: "/tmp/x",
    ...off,
  });
  assert.deepEqual(parseDemoServerArgs(["--log-requests=/tmp/y"]), { requestLog: "/tmp/y", ...off });
  assert.deepEqual(parseDemoServerArgs(["--conformance-fixtures"]), {
    requestLog: undefined,
    conformanceFixtures: true,
    errorSchemas: false,
  });
  assert.deepEqual(parseDemoServerArgs(["--error-schemas", "--http", "0"]), {
    port: 0,
    requestLog: undefined,
    conformanceFixtures: false,
    errorSchemas: true,
  });
});
