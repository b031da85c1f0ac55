// The client capabilities on the wire, for both eras (initialize; the 2026-07-28+ `_meta`
// envelope), and roots: from the config (resolved against its file), answered to server-everything's
// roots/list through the built CLI, re-sent after roots/list_changed, and the MRTR form.
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { clientCapabilities } from "../../src/host/connection/client-capabilities.js";
import { type ConfigError, parseConfig } from "../../src/host/config/config.js";
import { Host } from "../../src/host/host.js";
import { META } from "../../src/protocol/index.js";
import { config, demoTeed, tempDir, wireLines } from "../helpers/host-fixtures.js";
import { runCli } from "../helpers/processes.js";
import { everythingStdio, EVERYTHING } from "../helpers/real-servers.js";

const dir = realpathSync(tempDir());
after(() => rmSync(dir, { recursive: true, force: true }));

it("clientCapabilities advertises each feature only when on", () => {
  const none = { roots: false, sampling: false, elicitation: false as const, ui: false };
  // Modern eras always declare the Tasks extension (the host follows its handles); legacy never.
  const tasks = { extensions: { "io.modelcontextprotocol/tasks": {} } };
  assert.deepEqual(clientCapabilities(none), tasks);
  assert.deepEqual(clientCapabilities(none, true), {});
  assert.deepEqual(clientCapabilities({ ...none, roots: true }, true), { roots: { listChanged: true } });
  assert.deepEqual(clientCapabilities({ ...none, roots: true }), { roots: {}, ...tasks });
  assert.deepEqual(clientCapabilities({ ...none, sampling: true, elicitation: { form: true, url: false } }), {
    sampling: {},
    elicitation: { form: {} },
    ...tasks,
  });
  assert.deepEqual(Object.keys(clientCapabilities({ ...none, ui: true }).extensions as object), [
    "io.modelcontextprotocol/ui",
    "io.modelcontextprotocol/tasks",
  ]);
  assert.deepEqual(Object.keys(clientCapabilities({ ...none, ui: true }, true).extensions as object), [
    "io.modelcontextprotocol/ui",
  ]);
});

describe("on the wire", () => {
  it("legacy: initialize advertises roots (listChanged) only when roots are configured, nothing the host does not answer", async () => {
    for (const roots of [undefined, [dir]]) {
      const log = join(dir, `legacy-${roots ? "roots" : "none"}.jsonl`);
      const host = await Host.start({
        config: { ...config({ demo: demoTeed(log) }), ...(roots ? { roots } : {}) },
        protocol: "2025-11-25",
        eraCache: false,
      });
      await host.close();
      const init = wireLines(log).find((m) => m.method === "initialize");
      assert.deepEqual(init?.params.capabilities, roots ? { roots: { listChanged: true } } : {});
    }
  });

  it("2026-07-28+: every request's envelope declares roots (configured in chat, none in app); app mode adds the ui extension", async () => {
    for (const mode of ["chat", "app"] as const) {
      const log = join(dir, `modern-${mode}.jsonl`);
      const roots = mode === "chat" ? { roots: [dir] } : {};
      const host = await Host.start({
        config: { ...config({ demo: demoTeed(log) }), ...roots },
        mode,
        eraCache: false,
      });
      await host.close();
      const lines = wireLines(log).filter((m) => m.method === "tools/list");
      assert.ok(lines.length > 0);
      const caps = lines[0].params._meta[META.clientCapabilities];
      assert.deepEqual(caps.roots, mode === "chat" ? {} : undefined);
      assert.equal(caps.sampling, undefined);
      assert.equal(caps.elicitation, undefined);
      assert.deepEqual(
        Object.keys(caps.extensions),
        mode === "app"
          ? ["io.modelcontextprotocol/ui", "io.modelcontextprotocol/tasks"]
          : ["io.modelcontextprotocol/tasks"],
        `${mode}: ${JSON.stringify(caps)}`,
      );
    }
  });
});

describe("roots", () => {
  const work = join(dir, "work");
  const other = join(dir, "other");
  mkdirSync(join(work, "sub"), { recursive: true });
  mkdirSync(other);

  it("config roots resolve against the config file; bad ones are one clear line", () => {
    const file = join(work, "mcp-prism.json");
    const servers = { mcpServers: { s: { command: "x" } } };
    assert.deepEqual(parseConfig(JSON.stringify({ ...servers, roots: ["sub", other] }), file).roots, [
      join(work, "sub"),
      other,
    ]);
    assert.throws(
      () => parseConfig(JSON.stringify({ ...servers, roots: ["missing"] }), file),
      (e: ConfigError) => /roots: expected an existing directory \(.*missing is not one\)/.test(e.message),
    );
    assert.throws(
      () => parseConfig(JSON.stringify({ ...servers, roots: "sub" }), file),
      /roots: expected an array of directory paths/,
    );
    assert.throws(
      () => parseConfig(JSON.stringify({ ...servers, roots: Array(65).fill("sub") }), file),
      /roots: expected at most 64 roots \(got 65\)/,
    );
  });

  it("server-everything's get-roots-list shows the config's roots (built CLI, stdio)", async () => {
    const file = join(work, "cfg.json");
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } },
        roots: ["sub"],
      }),
    );
    const r = await runCli(["call", "get-roots-list", "--config", file], { cwd: dir, timeoutMs: 60_000 });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, new RegExp(pathToFileURL(join(work, "sub")).href.replace(/[/.]/g, "\\$&")));
  });

  it("no config roots: none offered (never the current directory), and server-everything hides get-roots-list", async () => {
    const host = await Host.start({ config: config({ everything: everythingStdio() }), eraCache: false });
    try {
      assert.deepEqual(host.roots(), []);
      assert.equal(host.servers()[0].roots, undefined);
      assert.ok(
        !(await host.tools()).some((t) => t.name === "get-roots-list"),
        "no roots capability: the roots tool is not offered",
      );
      await assert.rejects(host.setRoots([other]), /no roots are offered/);
    } finally {
      await host.close();
    }
  });

  it("config roots: offered; setRoots sends roots/list_changed and the server asks again", async () => {
    const host = await Host.start({
      config: { ...config({ everything: everythingStdio() }), roots: [work] },
      eraCache: false,
    });
    try {
      const text = async () => {
        const o = await host.call("get-roots-list", {});
        assert.ok(o.ok, o.ok ? "" : o.error.message);
        return JSON.stringify(o.routed.model);
      };
      assert.ok((await text()).includes(pathToFileURL(work).href), "the configured root");
      assert.deepEqual(host.servers()[0].roots, [pathToFileURL(work).href]);
      await host.setRoots([other]);
      const end = Date.now() + 10_000;
      while (!(await text()).includes(pathToFileURL(other).href)) {
        assert.ok(Date.now() < end, "the server never saw the new roots");
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      await host.close();
    }
  });
});
