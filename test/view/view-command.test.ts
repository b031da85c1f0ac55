// `mcp-prism view TOOL` (the built CLI): `view: URL` is the first stdout line, the page shows the
// tool's View with its data, and SIGINT or SIGTERM tears the View down (ui/resource-teardown: the page removes
// it) and exits 0. A bad --view-projection is a usage error.
import { test } from "node:test";
import assert from "node:assert/strict";
import { tempDir } from "../helpers/host-fixtures.js";
import { startViewCli } from "../helpers/view-cli.js";
import { appFrame, launchBrowser } from "../helpers/browser.js";
import { runCli } from "../helpers/processes.js";

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  test(`mcp-prism view prints the URL first, serves the View, and exits 0 on ${signal} after teardown`, async () => {
    const cli = startViewCli(["view", "refresh_dashboard", "--view-projection", "output"]);
    const browser = await launchBrowser();
    try {
      const first = await cli.firstLine();
      assert.match(first, /^view: http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]{32}\/$/, `${cli.stdout()}\n${cli.stderr()}`);
      const page = await browser.newPage();
      await page.goto(first.slice("view: ".length));
      const app = await appFrame(page);
      await app.getByText(/Dataset \S+, \d+ customers/).waitFor({ timeout: 30_000 });
      assert.equal(await page.locator("section[data-view]").count(), 1);
      cli.kill(signal);
      await page.locator("section[data-view]").waitFor({ state: "detached", timeout: 10_000 });
      assert.equal(await cli.exited, 0, cli.stderr());
      assert.match(cli.stderr(), /torn down/);
    } finally {
      cli.kill();
      await browser.close();
    }
  });
}

test("mcp-prism view refuses an unknown --view-projection", async () => {
  const dir = tempDir();
  const r = await runCli(["view", "refresh_dashboard", "--view-projection", "both"], { cwd: dir });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--view-projection must be result or output/);
});
