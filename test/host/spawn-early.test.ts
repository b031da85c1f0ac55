// A server process spawned early (src/host/connection/spawn-server.ts) is adopted by the first stdio
// transport started with the same params, with whatever it did meanwhile: output it wrote, a
// failed spawn, an exit. A second transport spawns its own; an unadopted one dies with the app.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { adoptEarly, spawnEarly, type StdioParams } from "../../src/host/connection/spawn-server.js";
import { LimitedStdioTransport } from "../../src/host/connection/stdio-transport.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const node = (code: string): StdioParams => ({ command: process.execPath, args: ["-e", code] });
/** Running (a zombie waiting for its reaper counts as gone). */
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
};

test("the first transport adopts the early process and reads what it wrote before adoption", async (t) => {
  // Writes a message at once, then echoes stdin (a tiny stdio "server").
  const params = node(
    `process.stdout.write(JSON.stringify({jsonrpc:"2.0",method:"notifications/hello"})+"\\n"); process.stdin.pipe(process.stdout);`,
  );
  spawnEarly(params);
  await sleep(300); // it has spawned and written its line with nobody listening yet
  const first = new LimitedStdioTransport(params, { maxLineBytes: 10_000 });
  const second = new LimitedStdioTransport(params, { maxLineBytes: 10_000 });
  t.after(async () => {
    await first.close();
    await second.close();
  });
  const got: unknown[] = [];
  first.onmessage = (m) => got.push(m);
  await first.start();
  await second.start();
  assert.ok(first.pid && second.pid && first.pid !== second.pid, "the second transport spawns its own process");
  await first.send({ jsonrpc: "2.0", id: 1, method: "ping" });
  for (let i = 0; i < 100 && got.length < 2; i++) await sleep(20);
  assert.deepEqual(got, [
    { jsonrpc: "2.0", method: "notifications/hello" },
    { jsonrpc: "2.0", id: 1, method: "ping" },
  ]);
});

test("an early process is handed out once", () => {
  const params = node("setTimeout(() => {}, 5000)");
  spawnEarly(params);
  spawnEarly(params); // the same params again: still one process
  const early = adoptEarly(params);
  assert.ok(early);
  assert.equal(adoptEarly(params), undefined);
  early.child.kill();
});

test("a failed early spawn rejects the adopting transport's start with the spawn error", async () => {
  const params: StdioParams = { command: "/nonexistent/mcp-prism-no-such-server", args: [] };
  spawnEarly(params);
  await sleep(200); // the 'error' event fires with nobody adopting yet, and is not unhandled
  const t = new LimitedStdioTransport(params, { maxLineBytes: 1000 });
  const errors: Error[] = [];
  t.onerror = (e) => errors.push(e);
  await assert.rejects(t.start(), /ENOENT/);
  assert.match(errors[0]?.message ?? "", /ENOENT/);
});

test("an early process that already exited reports the close to the adopting transport", async () => {
  const params = node("process.exit(3)");
  spawnEarly(params);
  await sleep(500);
  const t = new LimitedStdioTransport(params, { maxLineBytes: 1000 });
  let closed = false;
  t.onclose = () => (closed = true);
  await t.start();
  for (let i = 0; i < 50 && !closed; i++) await sleep(10);
  assert.ok(closed);
});

test("an early process nobody adopted is killed when the app exits", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "mcp-prism-early-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const pidFile = join(dir, "pid");
  // The app: spawns a server early (it records its pid, written whole by a rename: the app may see
  // the file the moment it exists), never adopts it, and exits.
  const app = `
    import { spawnEarly } from ${JSON.stringify(pathToFileURL(join(import.meta.dirname, "../../src/host/connection/spawn-server.ts")).href)};
    spawnEarly({ command: process.execPath, args: ["-e", ${JSON.stringify(`const fs = require("fs"); fs.writeFileSync(${JSON.stringify(pidFile + ".tmp")}, String(process.pid)); fs.renameSync(${JSON.stringify(pidFile + ".tmp")}, ${JSON.stringify(pidFile)}); setTimeout(() => {}, 60000)`)}] });
    const wait = () => (existsSync(${JSON.stringify(pidFile)}) ? process.exit(0) : setTimeout(wait, 20));
    import { existsSync } from "node:fs";
    wait();
  `;
  const r = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", app], {
    encoding: "utf8",
    timeout: 20_000,
  });
  assert.equal(r.status, 0, r.stderr);
  const pid = Number(readFileSync(pidFile, "utf8"));
  assert.ok(pid > 0);
  for (let i = 0; i < 250 && alive(pid); i++) await sleep(20);
  assert.equal(alive(pid), false, `server ${pid} outlived the app`);
});
