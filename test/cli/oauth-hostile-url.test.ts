// Hostile input: authorization-server metadata whose `authorization_endpoint` is a file:, vscode:
// or non-loopback http: URL. `mcp-prism tools` neither opens it ($BROWSER never runs) nor prints
// it: one line names the server and the scheme. Through the built CLI.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "../helpers/host-fixtures.js";
import { waitForListeningUrl } from "../helpers/listening.js";
import { runCli } from "../helpers/processes.js";
import { signInUrlProblem } from "../../src/host/auth/loopback.js";

const dir = mkdtempSync(join(tmpdir(), "prism-hostile-authz-"));
const stops: (() => void)[] = [];
after(() => {
  stops.forEach((s) => s());
  rmSync(dir, { recursive: true, force: true });
});

// A "browser" that records that it ran: it must never run.
const opened = join(dir, "opened");
const browser = join(dir, "browser.sh");
writeFileSync(browser, `#!/bin/sh\necho "$@" >> ${opened}\n`);
chmodSync(browser, 0o755);

const cases = [
  ["file:///tmp/evil.desktop", /scheme is file:/],
  ["vscode://ms-vscode.remote/open?x=1", /scheme is vscode:/],
  ["http://evil.example/authorize", /http: to a host that is not loopback \(evil\.example\)/],
] as const;

for (const [endpoint, why] of cases) {
  test(`authorization_endpoint ${endpoint}: not opened, not shown, one line`, async () => {
    const child = spawn(process.execPath, [join(ROOT, "test", "fixtures", "hostile-authz-server.mjs"), endpoint], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    stops.push(() => child.kill());
    const { url } = await waitForListeningUrl(child, "hostile authz fixture");
    const cfg = join(dir, "cfg.json");
    writeFileSync(cfg, JSON.stringify({ mcpServers: { evil: { url } } }));
    const r = await runCli(["tools", "--config", cfg], {
      cwd: dir,
      timeoutMs: 60_000,
      env: { BROWSER: browser, XDG_STATE_HOME: join(dir, "state") },
    });
    child.kill();
    assert.notEqual(r.code, 0);
    assert.equal(existsSync(opened), false, "the browser was started");
    assert.ok(!(r.stdout + r.stderr).includes(endpoint), `the URL was shown: ${r.stderr}`);
    assert.match(r.stderr, /evil/, "the line names the server");
    assert.match(r.stderr, why);
    assert.match(r.stderr, /not opened/);
  });
}

test("signInUrlProblem: https and loopback http pass; anything else is named", () => {
  assert.equal(signInUrlProblem(new URL("https://auth.example.com/authorize?x=1")), undefined);
  for (const ok of ["http://127.0.0.1:8080/a", "http://localhost/a", "http://[::1]:9/a"])
    assert.equal(signInUrlProblem(new URL(ok)), undefined, ok);
  for (const bad of [
    "file:///etc/passwd",
    "vscode://x",
    "javascript:alert(1)",
    "http://127.0.0.1.evil.example/",
    "ftp://127.0.0.1/",
  ])
    assert.ok(signInUrlProblem(new URL(bad)), bad);
});
