// `mcp-prism servers` edits the user config in place through the built CLI: unknown keys and the
// order of every key stay, the file stays 0600, and a typo gets "did you mean".
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const bin = join(import.meta.dirname, "..", "..", "bin", "mcp-prism.js");

test("servers list/add/remove edit $XDG_CONFIG_HOME/mcp-prism/config.json, keeping unknown keys and their order", () => {
  const home = mkdtempSync(join(tmpdir(), "prism-servers-"));
  try {
    const file = join(home, "mcp-prism", "config.json");
    const run = (...args: string[]) =>
      spawnSync(process.execPath, [bin, "servers", ...args], {
        encoding: "utf8",
        timeout: 30_000,
        env: { ...process.env, XDG_CONFIG_HOME: home },
      });
    mkdirSync(join(home, "mcp-prism"));
    writeFileSync(
      file,
      JSON.stringify({
        mode: "code",
        mcpServers: { demo: { command: "node", args: ["x.js"], futureKey: 1 } },
        myOwnKey: { keep: true },
      }),
      { mode: 0o600 },
    );

    const added = run("add", "fs", "--", "npx", "-y", "@modelcontextprotocol/server-filesystem", ".");
    assert.equal(added.status, 0, added.stderr);
    assert.equal(run("add", "web", "--url", "http://127.0.0.1:9/mcp").status, 0);
    const after = JSON.parse(readFileSync(file, "utf8"));
    assert.deepEqual(Object.keys(after), ["mode", "mcpServers", "myOwnKey"]);
    assert.deepEqual(after.myOwnKey, { keep: true });
    assert.deepEqual(after.mcpServers, {
      demo: { command: "node", args: ["x.js"], futureKey: 1 },
      fs: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "."] },
      web: { url: "http://127.0.0.1:9/mcp" },
    });
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(
      run("list").stdout,
      "demo  node x.js\nfs  npx -y @modelcontextprotocol/server-filesystem .\nweb  http://127.0.0.1:9/mcp\n",
    );

    const twice = run("add", "fs", "--", "node");
    assert.equal(twice.status, 2);
    assert.match(twice.stderr, /^mcp-prism servers: a server named "fs" is in .* already \(remove it first\)\n$/);
    const typo = run("remove", "fz");
    assert.equal(typo.status, 2);
    assert.match(typo.stderr, /no server named "fz" in .*config\.json \(did you mean fs\?\)\n$/);
    assert.equal(run("lst").stderr, 'mcp-prism servers: unknown action "lst" (did you mean list?)\n');
    assert.equal(run("add", "both").status, 2);

    assert.equal(run("remove", "fs").status, 0);
    assert.deepEqual(Object.keys(JSON.parse(readFileSync(file, "utf8")).mcpServers), ["demo", "web"]);
    // A broken file is one line and is left as it was.
    writeFileSync(file, "{ not json");
    const broken = run("add", "x", "--", "node");
    assert.equal(broken.status, 1);
    assert.match(broken.stderr, /^mcp-prism servers: .*config\.json: not valid JSON/);
    assert.equal(readFileSync(file, "utf8"), "{ not json");
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test("servers add into a missing file creates it 0600 with mcpServers only", () => {
  const home = mkdtempSync(join(tmpdir(), "prism-servers-"));
  try {
    const r = spawnSync(process.execPath, [bin, "servers", "add", "demo", "--", "node", "demo.js"], {
      encoding: "utf8",
      timeout: 30_000,
      env: { ...process.env, XDG_CONFIG_HOME: home },
    });
    assert.equal(r.status, 0, r.stderr);
    const file = join(home, "mcp-prism", "config.json");
    assert.deepEqual(JSON.parse(readFileSync(file, "utf8")), {
      mcpServers: { demo: { command: "node", args: ["demo.js"] } },
    });
    assert.equal(statSync(file).mode & 0o777, 0o600);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test("servers add accepts names that are Object.prototype's (constructor, toString, __proto__)", () => {
  const home = mkdtempSync(join(tmpdir(), "prism-servers-"));
  try {
    const file = join(home, "mcp-prism", "config.json");
    const run = (...args: string[]) =>
      spawnSync(process.execPath, [bin, "servers", ...args], {
        encoding: "utf8",
        timeout: 30_000,
        env: { ...process.env, XDG_CONFIG_HOME: home },
      });
    for (const name of ["constructor", "toString", "__proto__"]) {
      const r = run("add", name, "--", "node", `${name}.js`);
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, new RegExp(`^added ${name} to `));
    }
    const raw = readFileSync(file, "utf8");
    assert.match(raw, /"__proto__": \{/);
    const servers = JSON.parse(raw).mcpServers;
    assert.deepEqual(Object.keys(servers), ["constructor", "toString", "__proto__"]);
    assert.equal(
      run("list").stdout,
      "constructor  node constructor.js\ntoString  node toString.js\n__proto__  node __proto__.js\n",
    );
    assert.equal(run("add", "toString", "--", "node").status, 2, "a real duplicate is still refused");
    assert.equal(run("remove", "__proto__").status, 0);
    assert.equal(run("remove", "valueOf").status, 2, "an inherited name is not a configured server");
    assert.deepEqual(Object.keys(JSON.parse(readFileSync(file, "utf8")).mcpServers), ["constructor", "toString"]);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test("servers add --env KEY=VALUE (repeatable) sets a stdio server's environment; a malformed one is one line", () => {
  const home = mkdtempSync(join(tmpdir(), "prism-servers-"));
  try {
    const file = join(home, "mcp-prism", "config.json");
    const run = (...args: string[]) =>
      spawnSync(process.execPath, [bin, "servers", ...args], {
        encoding: "utf8",
        timeout: 30_000,
        env: { ...process.env, XDG_CONFIG_HOME: home },
      });
    const added = run(
      "add",
      "gh",
      "--env",
      "GITHUB_TOKEN=abc=def",
      "--env",
      "LOG_LEVEL=",
      "--",
      "npx",
      "-y",
      "some-server",
    );
    assert.equal(added.status, 0, added.stderr);
    assert.deepEqual(JSON.parse(readFileSync(file, "utf8")).mcpServers.gh, {
      command: "npx",
      args: ["-y", "some-server"],
      env: { GITHUB_TOKEN: "abc=def", LOG_LEVEL: "" },
    });
    const bad = run("add", "x", "--env", "NOEQUALS", "--", "node");
    assert.equal(bad.status, 2);
    assert.equal(bad.stderr, 'mcp-prism servers: --env takes KEY=VALUE with KEY a variable name (got "NOEQUALS")\n');
    const url = run("add", "y", "--env", "A=1", "--url", "http://127.0.0.1:9/mcp");
    assert.equal(url.status, 2);
    assert.match(url.stderr, /--env sets a stdio server's environment/);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
