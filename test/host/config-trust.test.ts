// A directory's ./mcp-prism.json is untrusted until the user said yes to that path with that
// content; the answers file is 0600, atomic and bounded. Config edge cases get one line naming the key.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  ConfigError,
  loadConfig,
  parseConfig,
  serverConfig,
  UntrustedConfigError,
} from "../../src/host/config/config.js";
import { ConfigTrust, contentHash } from "../../src/host/config/config-trust.js";
import { tempDir } from "../helpers/host-fixtures.js";

const cfg = (name: string) => JSON.stringify({ mcpServers: { [name]: { command: "node", args: ["x.js"] } } });

describe("directory config trust", () => {
  const setup = () => {
    const cwd = tempDir();
    const env = { HOME: tempDir(), XDG_CONFIG_HOME: tempDir(), XDG_STATE_HOME: tempDir() };
    const file = join(cwd, "mcp-prism.json");
    writeFileSync(file, cfg("fromCwd"));
    return { cwd, env, file };
  };

  test("unanswered: UntrustedConfigError, a ConfigError of one line naming how to trust it, with the parsed config", () => {
    const { cwd, env, file } = setup();
    assert.throws(
      () => loadConfig(undefined, env, cwd),
      (e: Error) => {
        assert.ok(e instanceof UntrustedConfigError && e instanceof ConfigError);
        assert.equal(e.file, file);
        assert.equal(e.sha256, contentHash(cfg("fromCwd")));
        assert.deepEqual(Object.keys(e.config.servers), ["fromCwd"]);
        assert.ok(!e.message.includes("\n"));
        assert.ok(e.message.includes(`--config ${file}`), e.message);
        return true;
      },
    );
  });

  test("--config FILE and the user's own config are trusted without asking", () => {
    const { cwd, env } = setup();
    assert.deepEqual(Object.keys(loadConfig("mcp-prism.json", env, cwd).servers), ["fromCwd"]);
    const other = tempDir();
    mkdirSync(join(env.XDG_CONFIG_HOME, "mcp-prism"));
    writeFileSync(join(env.XDG_CONFIG_HOME, "mcp-prism", "config.json"), cfg("mine"));
    assert.deepEqual(Object.keys(loadConfig(undefined, env, other).servers), ["mine"]);
  });

  test("trusted: used, and remembered across processes (a new ConfigTrust on the same dir)", () => {
    const { cwd, env, file } = setup();
    assert.equal(ConfigTrust.fromEnv(env).remember(file, contentHash(readFileSync(file)), "trusted"), undefined);
    assert.deepEqual(Object.keys(loadConfig(undefined, env, cwd).servers), ["fromCwd"]);
  });

  test("a changed file asks again", () => {
    const { cwd, env, file } = setup();
    ConfigTrust.fromEnv(env).remember(file, contentHash(readFileSync(file)), "trusted");
    writeFileSync(file, cfg("changed"));
    assert.throws(() => loadConfig(undefined, env, cwd), UntrustedConfigError);
  });

  test("declined: skipped for the user's config (or the built-in default), with a notice line", () => {
    const { cwd, env, file } = setup();
    ConfigTrust.fromEnv(env).remember(file, contentHash(readFileSync(file)), "declined");
    const c = loadConfig(undefined, env, cwd);
    assert.equal(c.source, "built-in default");
    assert.deepEqual(c.notices, [`${file} not used: you did not trust it (pass --config ${file} to use it)`]);
  });

  test("the answers file: 0600 in a 0700 dir, no temp file left, bounded to 200 entries, newest kept", () => {
    const dir = join(tempDir(), "state");
    const trust = new ConfigTrust(dir);
    for (let i = 0; i < 230; i++) trust.remember(`/p/${i}/mcp-prism.json`, contentHash(String(i)), "trusted");
    assert.equal(statSync(trust.file).mode & 0o777, 0o600);
    assert.equal(statSync(dir).mode & 0o777, 0o700);
    assert.deepEqual(readdirSync(dir), ["trusted-configs.json"]);
    const doc = JSON.parse(readFileSync(trust.file, "utf8"));
    assert.equal(Object.keys(doc.configs).length, 200);
    const fresh = new ConfigTrust(dir);
    assert.equal(fresh.lookup("/p/229/mcp-prism.json", contentHash("229")), "trusted");
    assert.equal(fresh.lookup("/p/0/mcp-prism.json", contentHash("0")), undefined);
  });

  test("a corrupt, oversized or forged answers file trusts nothing", () => {
    const dir = tempDir();
    const trust = new ConfigTrust(dir);
    const h = contentHash("x");
    for (const text of [
      "{",
      "null",
      JSON.stringify({ configs: { "/a": { sha256: "nothex", answer: "trusted" } } }),
      JSON.stringify({ configs: { "/a": { sha256: h, answer: "yes" } } }),
      " ".repeat(300 * 1024),
    ]) {
      writeFileSync(trust.file, text);
      assert.equal(new ConfigTrust(dir).lookup("/a", h), undefined, text.slice(0, 40));
    }
  });

  test("an unwritable state dir: the answer holds for this process and the reason is one line", () => {
    const blocker = join(tempDir(), "file");
    writeFileSync(blocker, "");
    const trust = new ConfigTrust(join(blocker, "mcp-prism")); // a path under a file: ENOTDIR even for root
    const why = trust.remember("/a/mcp-prism.json", contentHash("x"), "trusted");
    assert.match(why ?? "", /^not remembered: .*trusted-configs\.json cannot be written \(ENOTDIR\)$/);
    assert.equal(trust.lookup("/a/mcp-prism.json", contentHash("x")), "trusted");
  });
});

describe("config edge cases: one line naming the key", () => {
  test("servers named __proto__, constructor, toString are ordinary servers; nothing inherited is a server", () => {
    // Written as text: an object literal's __proto__ would set a prototype, not a key.
    const text =
      '{"mcpServers": {"__proto__": {"command": "a"}, "constructor": {"command": "b"}, "toString": {"command": "c"}}}';
    // JSON.parse keeps "__proto__" as an own key, as a config file means it.
    const c = parseConfig(text, "/x/config.json");
    assert.deepEqual(Object.keys(c.servers), ["__proto__", "constructor", "toString"]);
    assert.equal((serverConfig(c, "__proto__") as { command: string }).command, "a");
    assert.equal((serverConfig(c, "toString") as { command: string }).command, "c");
    assert.equal(Object.getPrototypeOf(c.servers), null);
    assert.equal(({} as Record<string, unknown>).a, undefined); // no prototype pollution
    const plain = parseConfig(cfg("only"), "/x/config.json");
    for (const inherited of ["toString", "constructor", "hasOwnProperty", "__proto__", "valueOf"])
      assert.equal(serverConfig(plain, inherited), undefined, inherited);
  });

  test("a cwd that does not exist (or is a file) is refused naming the key", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "afile"), "");
    for (const cwd of ["nope", "afile"]) {
      const text = JSON.stringify({ mcpServers: { s: { command: "node", cwd } } });
      assert.throws(
        () => parseConfig(text, join(dir, "config.json")),
        (e: Error) => {
          assert.equal(
            e.message,
            `config.json: mcpServers.s.cwd: expected an existing directory (${join(dir, cwd)} is not one)`,
          );
          return true;
        },
      );
    }
    chmodSync(dir, 0o755);
    assert.equal(
      (
        parseConfig(JSON.stringify({ mcpServers: { s: { command: "node", cwd: "." } } }), join(dir, "config.json"))
          .servers.s as { cwd: string }
      ).cwd,
      dir,
    );
  });

  test("a relative command is the config folder's; a bare name stays a PATH lookup; an absolute one is kept", () => {
    const text = JSON.stringify({
      mcpServers: {
        dot: { command: "./server.sh" },
        sub: { command: "bin/x" },
        up: { command: "../tools/y" },
        bare: { command: "npx" },
        abs: { command: "/usr/bin/env" },
      },
    });
    const c = parseConfig(text, "/home/u/project/mcp-prism.json");
    const cmd = (n: string) => (c.servers[n] as { command: string }).command;
    assert.equal(cmd("dot"), "/home/u/project/server.sh");
    assert.equal(cmd("sub"), "/home/u/project/bin/x");
    assert.equal(cmd("up"), "/home/u/tools/y");
    assert.equal(cmd("bare"), "npx");
    assert.equal(cmd("abs"), "/usr/bin/env");
  });
});
