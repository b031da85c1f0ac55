// `mcp-prism view TOOL` (the built CLI): `view: URL` is the first stdout line, the page shows the
// tool's View with its data, and SIGINT or SIGTERM tears the View down (ui/resource-teardown: the page removes
// it) and exits 0. A bad --view-projection is a usage error.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { BIN, tempDir } from "../helpers/host-fixtures.js";
import { appFrame, launchBrowser } from "../helpers/browser.js";
import { runCli } from "../helpers/processes.js";

for (const signal of ["SIGINT", "SIGTERM"] as const)
test(`mcp-prism view prints the URL first, serves the View, and exits 0 on ${signal} after teardown`, async () => {
  const dir = tempDir();
  const child = spawn(process.execPath, [BIN, "view", "refresh_dashboard", "--view-projection", "output"], { cwd: dir, env: { ...process.env, XDG_CONFIG_HOME: dir, XDG_STATE_HOME: dir }, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
  const browser = await launchBrowser();
  try {
    const deadline = Date.now() + 30_000;
    while (!stdout.includes("\n") && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const first = stdout.split("\n")[0];
    assert.match(first, /^view: http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]{32}\/$/, `${stdout}\n${stderr}`);
    const page = await browser.newPage();
    await page.goto(first.slice("view: ".length));
    const app = await appFrame(page);
    await app.getByText(/Dataset \S+, \d+ customers/).waitFor({ timeout: 30_000 });
    assert.equal(await page.locator("section[data-view]").count(), 1);
    child.kill(signal);
    await page.locator("section[data-view]").waitFor({ state: "detached", timeout: 10_000 });
    assert.equal(await exited, 0, stderr);
    assert.match(stderr, /torn down/);
  } finally {
    child.kill("SIGKILL");
    await browser.close();
  }
});

test("mcp-prism view refuses an unknown --view-projection", async () => {
  const dir = tempDir();
  const r = await runCli(["view", "refresh_dashboard", "--view-projection", "both"], { cwd: dir });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--view-projection must be result or output/);
});
