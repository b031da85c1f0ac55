// Config lookup order and the one-line messages for bad configs.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  bundledCliPath,
  ConfigError,
  loadConfig,
  parseConfig,
  UntrustedConfigError,
} from "../../src/host/config/config.js";
import { ConfigTrust, contentHash } from "../../src/host/config/config-trust.js";
import { ROOT, tempDir } from "../helpers/host-fixtures.js";

const good = (name: string) => JSON.stringify({ mcpServers: { [name]: { command: "node", args: ["x.js"] } } });

describe("config lookup order", () => {
  test("--config FILE, else ./mcp-prism.json, else $XDG_CONFIG_HOME/mcp-prism/config.json, else built-in", () => {
    const cwd = tempDir();
    const xdg = tempDir();
    const env = { XDG_CONFIG_HOME: xdg, HOME: tempDir() };
    // Built-in default: the bundled demo server over stdio.
    const builtIn = loadConfig(undefined, env, cwd);
    assert.equal(builtIn.source, "built-in default");
    assert.deepEqual(builtIn.servers.demo, {
      kind: "stdio",
      command: process.execPath,
      args: [bundledCliPath(), "demo-server"],
    });
    assert.equal(bundledCliPath(), join(ROOT, "bin", "mcp-prism.js"));
    mkdirSync(join(xdg, "mcp-prism"));
    writeFileSync(join(xdg, "mcp-prism", "config.json"), good("fromXdg"));
    assert.deepEqual(Object.keys(loadConfig(undefined, env, cwd).servers), ["fromXdg"]);
    writeFileSync(join(cwd, "mcp-prism.json"), good("fromCwd"));
    // A directory config is used once trusted (test/host/config-trust.test.ts).
    assert.throws(() => loadConfig(undefined, env, cwd), UntrustedConfigError);
    const trust = new ConfigTrust(tempDir());
    trust.remember(join(cwd, "mcp-prism.json"), contentHash(good("fromCwd")), "trusted");
    assert.deepEqual(Object.keys(loadConfig(undefined, env, cwd, trust).servers), ["fromCwd"]);
    writeFileSync(join(cwd, "explicit.json"), good("fromFlag"));
    assert.deepEqual(Object.keys(loadConfig("explicit.json", env, cwd).servers), ["fromFlag"]);
  });

  test("without XDG_CONFIG_HOME the user file is ~/.config/mcp-prism/config.json", () => {
    const home = tempDir();
    mkdirSync(join(home, ".config", "mcp-prism"), { recursive: true });
    writeFileSync(join(home, ".config", "mcp-prism", "config.json"), good("fromHome"));
    assert.deepEqual(Object.keys(loadConfig(undefined, { HOME: home }, tempDir()).servers), ["fromHome"]);
  });

  test("config.example.json shows every field and parses", () => {
    const cfg = parseConfig(readFileSync(join(ROOT, "config.example.json"), "utf8"), join(ROOT, "config.example.json"));
    assert.equal(cfg.servers.demo.kind, "stdio");
    assert.deepEqual(cfg.servers.remote, {
      kind: "http",
      url: "http://127.0.0.1:8808/mcp",
      headers: { Authorization: "Bearer replace-me" },
    });
    assert.equal(cfg.mode, "chat");
    assert.equal(cfg.limits.discoverTimeoutMs, 3000);
    assert.deepEqual(cfg.servers["signed-in"], {
      kind: "http",
      url: "https://mcp.example.com/mcp",
      headers: undefined,
      auth: {
        clientId: "replace-me",
        clientSecret: "replace-me",
        issuer: "https://auth.example.com",
        scopes: ["mcp:tools"],
        clientMetadataUrl: "https://example.com/mcp-prism/client.json",
      },
    });
    assert.equal(cfg.limits.signInTimeoutMs, 300000);
  });

  test("unknown keys are tolerated (Claude Desktop / Cursor files)", () => {
    const cfg = parseConfig(
      JSON.stringify({ globalShortcut: "x", mcpServers: { a: { command: "c", disabled: false, type: "stdio" } } }),
      "/x/config.json",
    );
    assert.deepEqual(cfg.servers.a, { kind: "stdio", command: "c", args: [], env: undefined });
  });
});

describe("bad config messages: one line naming file, key path and expectation", () => {
  const cases: [string, string, RegExp][] = [
    [
      "an auth secret without its client",
      JSON.stringify({ mcpServers: { r: { url: "https://x.example/mcp", auth: { clientSecret: "s" } } } }),
      /^config\.json: mcpServers\.r\.auth\.clientId: expected a clientId beside clientSecret$/,
    ],
    [
      "an unknown auth key",
      JSON.stringify({ mcpServers: { r: { url: "https://x.example/mcp", auth: { scope: "a" } } } }),
      /^config\.json: mcpServers\.r\.auth\.scope: expected one of clientId, clientSecret, scopes, clientMetadataUrl, issuer \(unknown key\)$/,
    ],
    [
      "wrong args type",
      JSON.stringify({ mcpServers: { demo: { command: "node", args: "x" } } }),
      /^config\.json: mcpServers\.demo\.args: expected array of strings$/,
    ],
    [
      "args with a number",
      JSON.stringify({ mcpServers: { demo: { command: "node", args: ["a", 1] } } }),
      /^config\.json: mcpServers\.demo\.args: expected array of strings$/,
    ],
    [
      "env values",
      JSON.stringify({ mcpServers: { demo: { command: "node", env: { A: 1 } } } }),
      /^config\.json: mcpServers\.demo\.env: expected object of strings$/,
    ],
    [
      "neither command nor url",
      JSON.stringify({ mcpServers: { demo: { args: [] } } }),
      /^config\.json: mcpServers\.demo: expected object with "command" or "url"$/,
    ],
    [
      "bad url",
      JSON.stringify({ mcpServers: { r: { url: "ftp://x" } } }),
      /^config\.json: mcpServers\.r\.url: expected http\(s\) URL string$/,
    ],
    ["no mcpServers", JSON.stringify({ mode: "chat" }), /^config\.json: mcpServers: expected object of servers$/],
    [
      "bad mode",
      JSON.stringify({ mcpServers: { a: { command: "c" } }, mode: "turbo" }),
      /^config\.json: mode: expected one of chat, structured, code, app, minimal$/,
    ],
    [
      "bad limit",
      JSON.stringify({ mcpServers: { a: { command: "c" } }, limits: { callTimeoutMs: "soon" } }),
      /^config\.json: limits\.callTimeoutMs: expected positive number$/,
    ],
    ["top-level array", "[]", /^config\.json: \(top level\): expected object$/],
    [
      "bad JSON",
      '{\n  "mcpServers": {\n    "a": { "command": "c", }\n  }\n}',
      /^config\.json: invalid JSON at line 3, column 28: Expected double-quoted property name$/,
    ],
    ["truncated JSON", '{"mcpServers": {', /^config\.json: invalid JSON at line 1, column 17: /],
  ];
  for (const [name, text, re] of cases) {
    test(name, () => {
      assert.throws(
        () => parseConfig(text, "/some/dir/config.json"),
        (e: Error) => {
          assert.ok(e instanceof ConfigError);
          assert.match(e.message, re);
          assert.ok(!e.message.includes("\n"));
          return true;
        },
      );
    });
  }
  test("an unreadable file names the path", () => {
    assert.throws(
      () => loadConfig("nope.json", {}, "/tmp"),
      /^Error: \/tmp\/nope\.json: cannot read config \(no such file\)$|nope\.json: cannot read config \(no such file\)/,
    );
  });
});
