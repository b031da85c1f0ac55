// Servers connect independently, through the built CLI: a hung server (answers nothing, ever) does
// not hold a -p prompt past limits.connectWaitMs nor a `call` of another server's tool, and a dead
// server is one line while the others work. The configs give the hung server a 10-minute call
// timeout: waiting for it (the old start) would outlast every test timeout here.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, ROOT, tempDir } from "../helpers/host-fixtures.js";

const FIXTURE = join(ROOT, "test", "fixtures", "misbehaving-server.ts");
const demo = { command: process.execPath, args: [BIN, "demo-server"] };
const mute = { command: process.execPath, args: ["--import", "tsx", FIXTURE, "--era", "mute"], cwd: ROOT };
const dead = { command: process.execPath, args: ["-e", "process.stderr.write('dead on arrival\\n'); process.exit(3)"] };
const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function configFile(servers: Record<string, unknown>): string {
  const dir = tempDir();
  dirs.push(dir);
  const file = join(dir, "mcp-prism.json");
  writeFileSync(
    file,
    JSON.stringify({ mcpServers: servers, limits: { callTimeoutMs: 600_000, connectWaitMs: 8_000 } }),
  );
  return file;
}

function cli(args: string[], timeoutMs = 60_000): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, ANTHROPIC_API_KEY: "" },
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (c) => (out += c));
    child.stderr.on("data", (c) => (err += c));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(
        new Error(
          `mcp-prism ${args.join(" ")} still running after ${timeoutMs} ms (held by a server?); stderr:\n${err}`,
        ),
      );
    }, timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
  });
}

describe("servers connect independently (built CLI)", () => {
  test("-p with a hung server: the prompt runs on the demo server; the hung one is named as still connecting", async () => {
    const r = await cli([
      "-p",
      "search customers Globex",
      "--config",
      configFile({ demo, mute }),
      "--model",
      "offline",
    ]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /Globex/);
    assert.match(
      r.err,
      /^mcp-prism: server mute: still connecting after 8 s; its tools are left out until it connects$/m,
    );
  });

  test("-p with a dead server: one line naming it, the prompt runs on the others", async () => {
    const r = await cli([
      "-p",
      "search customers Globex",
      "--config",
      configFile({ demo, dead }),
      "--model",
      "offline",
    ]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /Globex/);
    const lines = r.err.split("\n").filter((l) => l.includes("server dead:"));
    assert.equal(lines.length, 1, r.err);
    assert.match(lines[0], /dead on arrival/);
  });

  test("call TOOL --server demo does not wait for an unrelated hung server; neither does call TOOL once demo lists it", async () => {
    const file = configFile({ mute, demo });
    const named = await cli([
      "call",
      "search_customers",
      "--server",
      "demo",
      "--args",
      '{"query":"Globex"}',
      "--config",
      file,
      "--json",
    ]);
    assert.equal(named.code, 0, named.err);
    assert.equal(JSON.parse(named.out).server, "demo");
    const found = await cli(["call", "search_customers", "--args", '{"query":"Globex"}', "--config", file, "--json"]);
    assert.equal(found.code, 0, found.err);
    assert.equal(JSON.parse(found.out).server, "demo");
  });
});
