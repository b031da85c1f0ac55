// Era detection over Streamable HTTP: a legacy-only SDK server answers the modern probe with a
// 4xx that is not a modern JSON-RPC error, so the host falls back to initialize.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { Host } from "../../src/host/host.js";
import { headerValue } from "../../src/protocol/http-headers.js";
import { config, ROOT } from "../helpers/host-fixtures.js";

const child = spawn(process.execPath, ["--import", "tsx", join(ROOT, "test", "fixtures", "legacy-http-server.ts")], {
  cwd: ROOT,
  stdio: ["ignore", "ignore", "pipe"],
});
after(() => child.kill());
const url = new Promise<string>((res, rej) => {
  let buf = "";
  child.stderr!.on("data", (c: Buffer) => {
    buf += c.toString();
    const m = /listening on (\S+)/.exec(buf);
    if (m) res(m[1]);
  });
  child.on("exit", () => rej(new Error(buf)));
});

test("HTTP: 4xx without a modern error body → legacy initialize; calls work", async () => {
  const host = await Host.start({ config: config({ old: { kind: "http", url: await url } }) });
  try {
    const s = host.servers()[0];
    assert.equal(s.era, "legacy", s.error);
    assert.equal(s.protocolVersion, "2025-11-25");
    const out = await host.call("echo", { text: "hi" });
    assert.ok(out.ok, out.ok ? "" : out.error.message);
    if (out.ok) assert.equal((out.routed.model[0] as any).content[0].text, "echo: hi");
  } finally {
    await host.close();
  }
});

test("HTTP legacy: a reply over maxResultBytes is refused before validation (the SDK's transport parsed it), and the connection stays usable", async () => {
  const host = await Host.start({
    config: config({ old: { kind: "http", url: await url } }, { maxResultBytes: 4096 }),
  });
  try {
    assert.equal(host.servers()[0].era, "legacy", host.servers()[0].error);
    const big = await host.call("echo", { text: "x".repeat(10_000) });
    assert.ok(!big.ok, "a 10 kB reply passed a 4 kB limit");
    assert.equal(big.error.rule, "result-too-large");
    assert.match(
      big.error.message,
      /^server old, tool echo: result is \d+ bytes, over the 4096-byte limit; it was refused before validation$/,
    );
    const small = await host.call("echo", { text: "hi" });
    assert.ok(small.ok, small.ok ? "" : small.error.message);
  } finally {
    await host.close();
  }
});

test("HTTP: an unreachable server is a connection error, not a legacy fallback", async () => {
  const host = await Host.start({ config: config({ gone: { kind: "http", url: "http://127.0.0.1:9/mcp" } }) });
  assert.equal(host.servers()[0].state, "failed");
  assert.match(host.servers()[0].error ?? "", /^server gone: /);
  await host.close();
});

test("Mcp-Name header values: plain ASCII as is, anything else in the Base64 sentinel form", () => {
  assert.equal(headerValue("get_weather"), "get_weather");
  assert.equal(headerValue("Hello, 世界"), "=?base64?SGVsbG8sIOS4lueVjA==?=");
  assert.equal(headerValue(" padded "), "=?base64?IHBhZGRlZCA=?=");
  assert.equal(headerValue("=?base64?literal?="), "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=");
});
