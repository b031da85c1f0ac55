// Trust and leaks through the built CLI (`node bin/mcp-prism.js`): one server never answers for
// another; no escape, C1 control or flood a server controls reaches stdout or stderr of call,
// tools, compare or check; check runs servers with the host's minimal environment and survives a
// server flooding stdout without a newline.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, ROOT, tempDir } from "../helpers/host-fixtures.js";
import { firstControl, TRUST_SERVER } from "../helpers/trust.js";

function cli(
  args: string[],
  env: Record<string, string> = {},
  timeoutMs = 60_000,
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: tempDir(),
      env: { ...process.env, XDG_CONFIG_HOME: tempDir(), ...env },
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (c) => (out += c));
    child.stderr.on("data", (c) => (err += c));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
  });
}

const server = (label: string, tools: string[], mode = "") => ({
  command: process.execPath,
  args: [TRUST_SERVER, "--label", label, "--tools", tools.join(","), "--mode", mode],
  cwd: ROOT,
});

function configFile(servers: Record<string, unknown>): string {
  const file = join(tempDir(), "trust.json");
  writeFileSync(
    file,
    JSON.stringify({ mcpServers: servers, limits: { callTimeoutMs: 10_000, discoverTimeoutMs: 15_000 } }),
  );
  return file;
}

test("call a__x runs on server a, not on server b's tool named a__x; tools lists unique names", async () => {
  const file = configFile({ a: server("a", ["x"]), b: server("b", ["x", "a__x"]) });
  const run = await cli(["call", "a__x", "--args", '{"secret":"for-a"}', "--config", file, "--json"]);
  assert.equal(run.code, 0, run.err);
  const doc = JSON.parse(run.out);
  assert.match(JSON.stringify(doc), /answered-by=a tool=x/);
  assert.doesNotMatch(JSON.stringify(doc), /answered-by=b/);
  const tools = await cli(["tools", "--config", file, "--json"]);
  const listed = (
    JSON.parse(tools.out).servers as { name: string; tools: { name: string; qualifiedName: string }[] }[]
  ).flatMap((s) => s.tools.map((t) => `${s.name}:${t.name}=${t.qualifiedName}`));
  assert.deepEqual(listed.sort(), ["a:x=a__x", "b:a__x=b__a__x", "b:x=b__x"]);
});

/** Nothing a terminal would act on, no mark flood, no invisible filler: in stdout AND stderr. */
function assertInert(what: string, run: { out: string; err: string }) {
  for (const [name, s] of [
    ["stdout", run.out],
    ["stderr", run.err],
  ] as const) {
    assert.equal(firstControl(s), undefined, `${what} ${name}: ${firstControl(s)}`);
    assert.doesNotMatch(s, /\p{M}{5}/u, `${what} ${name}: a combining-mark flood`);
    assert.doesNotMatch(s, /[\u3164\u115f\u1160\uffa0\u{e0000}-\u{e007f}]/u, `${what} ${name}: an invisible filler`);
  }
}

const hostileFile = configFile({ h: server("h", ["x"], "hostile") });
const crashFile = configFile({ h: server("h", ["x"], "crash") });
const versionFile = configFile({ h: server("h", ["x"], "badversion") });

for (const [label, file] of [
  ["crash at start-up", crashFile],
  ["hostile version string", versionFile],
  ["hostile name, instructions, stderr and errors", hostileFile],
] as const) {
  for (const json of [false, true]) {
    for (const cmd of [["call", "x"], ["tools"], ["compare", "x"]]) {
      test(`${cmd[0]}${json ? " --json" : ""}: ${label} reaches neither stdout nor stderr raw`, async () => {
        const run = await cli([...cmd, "--config", file, ...(json ? ["--json"] : [])]);
        assertInert(`${cmd.join(" ")} (${label})`, run);
        // The text is shown, neutralized, not silently lost: the payload is still there, visibly.
        if (!json && label !== "hostile name, instructions, stderr and errors")
          assert.match(run.out + run.err, /␛\]0;PWNED-TITLE/, run.err.slice(0, 400));
      });
    }
  }
}

for (const mode of ["hostile", "crash", "badversion"]) {
  test(`check: a ${mode} server's text is inert in stdout and stderr`, async () => {
    // --allow-writes: the checker calls the tool too, and prints the hostile error it gets.
    const run = await cli([
      "check",
      "--timeout",
      "3",
      "--allow-writes",
      "--",
      process.execPath,
      TRUST_SERVER,
      "--mode",
      mode,
    ]);
    assert.match(run.out + run.err, /PWNED|passed, \d+ failed|server exited/);
    assertInert(`check (${mode})`, run);
  });
}

test("check starts the server with the host's minimal environment, not the caller's secrets", async () => {
  const run = await cli(["check", "--timeout", "3", "--", process.execPath, TRUST_SERVER, "--mode", "env-exit"], {
    MCP_PRISM_TEST_SECRET: "s3cret",
    ANTHROPIC_API_KEY: "sk-test",
  });
  const text = run.out + run.err;
  assert.match(text, /env-names: /, text.slice(0, 400));
  const names = /env-names: ([^\s]*)/.exec(text)![1].split(",");
  assert.ok(names.includes("PATH"), names.join(","));
  assert.ok(!names.includes("MCP_PRISM_TEST_SECRET") && !names.includes("ANTHROPIC_API_KEY"), names.join(","));
});

test("check survives a server flooding stdout without a newline: one clear FAIL line, bounded", async () => {
  const run = await cli(
    ["check", "--timeout", "5", "--", process.execPath, TRUST_SERVER, "--mode", "flood"],
    {},
    90_000,
  );
  assert.equal(run.code, 1, run.err);
  assert.match(run.out + run.err, /server wrote a line over 8388608 bytes without a newline; stopped reading it/);
});

test("check survives an HTTP server streaming a reply without end: one clear line, bounded", async () => {
  // A reply body that never ends: the checker must stop at its limit, not buffer it all.
  const chunk = Buffer.alloc(64 * 1024, "x");
  const server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { "content-type": "application/json" });
    const pump = () => {
      while (!res.destroyed && res.write(chunk));
      if (!res.destroyed) res.once("drain", pump);
    };
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const { port } = server.address() as { port: number };
    const run = await cli(["check", "--timeout", "20", "--url", `http://127.0.0.1:${port}/mcp`], {}, 90_000);
    assert.equal(run.code, 1, run.err);
    assert.match(
      run.err,
      /^mcp-prism check: HTTP 200 reply to server\/discover is over 8388608 bytes; stopped reading it$/m,
    );
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});
