// Server log messages: logging/setLevel from the config's logLevel, notifications/message kept per
// server (sanitized, bounded ring), the 2026-07-28 per-request level in `_meta`; and list changes:
// a tools/list_changed refreshes the host's tool list. A log message never reaches the model.
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { Host } from "../../src/host/host.js";
import { logEntryOf, LOG_RING, LOG_TEXT_MAX, ServerLogs } from "../../src/host/connection/server-logs.js";
import { META } from "../../src/protocol/index.js";
import { config, demoStdio, demoTeed, ROOT, tempDir, wireLines } from "../helpers/host-fixtures.js";
import { startHttpServer } from "../helpers/raw-http.js";
import { everythingStdio } from "../helpers/real-servers.js";
import { LOG_CANARY } from "../fixtures/session-server.js";
import type { ServerConfig } from "../../src/host/config/config.js";

const fixture = (): ServerConfig => ({
  kind: "stdio",
  command: process.execPath,
  args: ["--import", "tsx", join(ROOT, "test", "fixtures", "session-server.ts")],
  cwd: ROOT,
});

async function until(what: string, ok: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    assert.ok(Date.now() < end, `timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

it("log entries are sanitized, cut, and the ring is bounded", () => {
  assert.equal(logEntryOf("s", { level: "loud", data: "x" }), undefined);
  const e = logEntryOf("s", { level: "error", logger: "l\u001b[31m", data: "\u001b[2Jbad\nline" + "x".repeat(5000) })!;
  assert.ok(!/[\u0000-\u001f]/.test(e.text + e.logger), JSON.stringify(e));
  assert.ok(e.text.length <= LOG_TEXT_MAX);
  const logs = new ServerLogs();
  for (let i = 0; i < LOG_RING + 10; i++) logs.add({ ...e, text: String(i) });
  assert.equal(logs.entries("s").length, LOG_RING);
  assert.equal(logs.entries("s")[0].text, "10");
});

describe("a legacy server's logs", () => {
  const hosts: Host[] = [];
  after(() => Promise.all(hosts.map((h) => h.close())));

  it("setLevel from logLevel; messages kept per server, never in the model's outputs", async () => {
    const host = await Host.start({ config: { ...config({ fx: fixture() }), logLevel: "warning" }, eraCache: false });
    hosts.push(host);
    const seen: string[] = [];
    host.on("log", (e) => seen.push(e.level));
    const o = await host.call("noisy", {});
    assert.ok(o.ok, o.ok ? "" : o.error.message);
    await until("the warning", () => seen.includes("warning"));
    assert.ok(!seen.includes("debug"), "logging/setLevel warning keeps debug away");
    const [entry] = host.logs("fx");
    assert.equal(entry.level, "warning");
    assert.equal(entry.logger, "fixture");
    assert.match(entry.text, new RegExp(LOG_CANARY));
    assert.ok(!entry.text.includes("\u0007"));
    assert.ok(!JSON.stringify(o.routed).includes(LOG_CANARY), "a log message is no output");
    assert.ok(!JSON.stringify(host.modelTools()).includes(LOG_CANARY));
  });

  it("server-everything's toggle-simulated-logging arrives in /logs' store", async () => {
    const host = await Host.start({
      config: { ...config({ everything: everythingStdio() }), logLevel: "debug" },
      eraCache: false,
    });
    hosts.push(host);
    const o = await host.call("toggle-simulated-logging", {});
    assert.ok(o.ok, o.ok ? "" : o.error.message);
    await until("a simulated message", () =>
      host.logs("everything").some((e) => /-level message|level-message/.test(e.text)),
    );
    await host.call("toggle-simulated-logging", {});
  });

  it("tools/list_changed: the host lists again; the new tool is there for the next request", async () => {
    const host = await Host.start({ config: config({ fx: fixture() }), eraCache: false });
    hosts.push(host);
    assert.ok(!host.modelTools().some((t) => t.name === "grown_1"));
    let changed = 0;
    host.on("list-changed", () => changed++);
    assert.ok((await host.call("grow", {})).ok);
    await until("the relisting", () => changed > 0);
    assert.ok(host.modelTools().some((t) => t.name === "grown_1"));
    const o = await host.call("grown_1", {});
    assert.ok(o.ok, o.ok ? "" : o.error.message);
  });
});

it("2026-07-28+: each request carries the log level in _meta", async () => {
  const dir = tempDir();
  const log = join(dir, "wire.jsonl");
  const host = await Host.start({ config: { ...config({ demo: demoTeed(log) }), logLevel: "error" }, eraCache: false });
  await host.close();
  const list = wireLines(log).find((m) => m.method === "tools/list");
  assert.equal(list?.params._meta[META.logLevel], "error");
});

describe("a 2026-12-01 server's logs (the demo server's wait tool)", () => {
  it("stdio and Streamable HTTP: the per-request level brings the messages, kept per server", async () => {
    const http = await startHttpServer();
    const host = await Host.start({
      config: { ...config({ demo: demoStdio(), web: { kind: "http", url: http.url } }), logLevel: "info" },
      eraCache: false,
    });
    try {
      for (const name of ["demo__wait", "web__wait"]) {
        const o = await host.call(name, { ms: 150 });
        assert.ok(o.ok, o.ok ? "" : o.error.message);
      }
      await until("both servers' info logs", () =>
        ["demo", "web"].every((s) => host.logs(s).some((e) => e.level === "info" && /done after 150 ms/.test(e.text))),
      );
      assert.ok(
        host.logs().every((e) => e.level !== "debug"),
        "info keeps the debug lines away",
      );
    } finally {
      await host.close();
      await http.close();
    }
  });
});
