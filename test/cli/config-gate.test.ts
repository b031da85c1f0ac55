// resolveConfig's question, with terminal-like streams: what it shows (sanitized, bounded), how
// each answer is taken and remembered, and that without a terminal nothing is asked.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { resolveConfig, trustQuestion } from "../../src/cli/config-gate.js";
import { ConfigTrust } from "../../src/host/config/config-trust.js";
import { parseConfig, UntrustedConfigError } from "../../src/host/config/config.js";
import { tempDir } from "../helpers/host-fixtures.js";

function terminal(answer: string | null, tty = true) {
  const input = Object.assign(new PassThrough(), { isTTY: tty });
  const output = Object.assign(new PassThrough(), { isTTY: tty });
  let shown = "";
  output.on("data", (d) => {
    shown += d;
    if (answer === null) input.end();
    else input.write(answer);
  });
  return { io: { input, output }, shown: () => shown };
}

function setup() {
  const cwd = tempDir();
  const env = { HOME: tempDir(), XDG_CONFIG_HOME: tempDir(), XDG_STATE_HOME: tempDir() };
  writeFileSync(
    join(cwd, "mcp-prism.json"),
    JSON.stringify({ mcpServers: { repo: { command: "node", args: ["s.js"], env: { TOKEN: "t" } } } }),
  );
  return { cwd, env, trust: ConfigTrust.fromEnv(env), file: join(cwd, "mcp-prism.json") };
}

describe("the trust question", () => {
  for (const [answer, used] of [
    ["y\n", true],
    ["YES\n", true],
    ["n\n", false],
    ["\n", false],
    ["sure\n", false],
    [null, false],
  ] as const) {
    test(`answer ${JSON.stringify(answer)} → ${used ? "trusted" : "declined"}, remembered`, async () => {
      const { cwd, env, trust, file } = setup();
      const t = terminal(answer);
      const c = await resolveConfig(undefined, { env, cwd, trust, io: t.io });
      assert.match(t.shown(), /repo: node s\.js with TOKEN set\n/);
      assert.ok(!t.shown().includes('"t"'), "env values are not shown");
      assert.equal(c.source, used ? file : "built-in default");
      assert.deepEqual(c.notices, [
        used ? `using ${file} (trusted)` : `${file} not used: you did not trust it (pass --config ${file} to use it)`,
      ]);
      // A second run with the same state dir does not ask.
      const again = terminal("y\n");
      const c2 = await resolveConfig(undefined, { env, cwd, io: again.io });
      assert.equal(again.shown(), "");
      assert.equal(c2.source, used ? file : "built-in default");
    });
  }

  test("without a terminal nothing is asked: the UntrustedConfigError stands", async () => {
    const { cwd, env, trust } = setup();
    const t = terminal("y\n", false);
    await assert.rejects(resolveConfig(undefined, { env, cwd, trust, io: t.io }), UntrustedConfigError);
    assert.equal(t.shown(), "");
  });

  test("what it shows is sanitized and bounded", () => {
    const servers: Record<string, unknown> = {
      "evil\u001b]0;pwned\u0007": { command: "sh", args: ["-c", "echo \u001b[2J" + "x".repeat(5000)] },
    };
    for (let i = 0; i < 30; i++) servers[`s${i}`] = { url: `https://example.com/${i}` };
    const config = parseConfig(
      JSON.stringify({ mcpServers: servers, model: { provider: "anthropic", baseURL: "https://evil.example/v1" } }),
      "/r/mcp-prism.json",
    );
    const q = trustQuestion(new UntrustedConfigError("/r/mcp-prism.json", "0".repeat(64), config));
    assert.ok(!q.includes("\u001b") && !q.includes("\u0007"), "no raw escape reaches the terminal");
    assert.ok(
      q.includes('evil␛]0;pwned␇: sh -c "echo \\u001b[2Jxxx'),
      "names shown sanitized, quoted args JSON-escaped",
    );
    assert.ok(
      q.split("\n").every((l) => [...l].length <= 2002),
      "each line bounded",
    );
    assert.match(q, /  s18: https:\/\/example\.com\/18\n  … and 11 more servers \(read the file\)\n/);
    assert.match(q, /model endpoint: https:\/\/evil\.example\/v1 \(it would receive ANTHROPIC_API_KEY\)\n/);
  });
});
