// `mcp-prism view TOOL` (the built CLI): `view: URL` is the first stdout line, the page shows the
// tool's View with its data, and SIGINT or SIGTERM tears the View down (ui/resource-teardown: the page removes
// it) and exits 0. A bad --view-projection is a usage error.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, tempDir } from "../helpers/host-fixtures.js";
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

// 27.3 through the built CLI and a real browser: the App calls the destructive `wipe` by itself.
// Without --yes the call is refused (one line on stderr, an error to the App) and the server never runs
// it; with --yes it runs, and it is the server's first run of it.
for (const yes of [false, true]) {
  test(`mcp-prism view${yes ? " --yes" : ""}: a View's call of a tool not marked read-only is ${yes ? "run" : "refused"}`, async () => {
    const dir = tempDir();
    const file = join(dir, "config.json");
    const mark = join(dir, "wiped");
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: {
          canary: {
            command: process.execPath,
            args: ["--import", "tsx", join(ROOT, "test", "fixtures", "view-app-server.ts")],
            cwd: ROOT,
            env: { CANARY_WIPE_MARK: mark },
          },
        },
      }),
    );
    const cli = startViewCli(["view", "wipe_view", "--config", file, ...(yes ? ["--yes"] : [])]);
    const browser = await launchBrowser();
    try {
      const first = await cli.firstLine();
      assert.match(first, /^view: http:\/\/127\.0\.0\.1:\d+\//, `${cli.stdout()}\n${cli.stderr()}`);
      const page = await browser.newPage();
      await page.goto(first.slice("view: ".length));
      const app = await appFrame(page);
      await app.getByText(/^wipe: /).waitFor({ timeout: 60_000 });
      const log = (await app.locator("#log").textContent()) ?? "";
      if (yes) {
        assert.match(log, /^wipe: ran .*"run":1/, log);
        assert.doesNotMatch(cli.stderr(), /not run/);
        assert.equal(readFileSync(mark, "utf8"), '{"path":"/home/user/important","recursive":true}\n');
      } else {
        assert.match(log, /^wipe: refused tools\/call wipe: not approved/, log);
        assert.match(
          cli.stderr(),
          /mcp-prism view: canary\/wipe called by the View is not marked read-only; not run \(pass --yes to allow\)/,
        );
        assert.equal(existsSync(mark), false, "the refused call reached the server");
      }
    } finally {
      cli.kill("SIGTERM");
      await cli.exited;
      await browser.close();
    }
  });
}
