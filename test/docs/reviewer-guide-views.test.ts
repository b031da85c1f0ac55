// The reviewer's guide steps that end in a rendered View ("Apps call", "App-only call"): each
// `P view …` command runs as written (the built CLI; --open with a $BROWSER that does nothing),
// its `view: URL` is opened in headless Chromium, and every `the View shows "…"` the step promises
// appears in the App; then SIGTERM tears it down and it exits 0.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { startViewCli } from "../helpers/view-cli.js";
import { appFrame, launchBrowser } from "../helpers/browser.js";

const guide = readFileSync("docs/reviewer-guide.md", "utf8");
const section = guide.slice(guide.indexOf("## 1."), guide.indexOf("## 2."));
const steps = section.split(/\n(?=\d+\. \*\*)/).filter((s) => /^\d+\. \*\*/.test(s));

/** Words of a command line; single-quoted parts are literal. */
function words(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]);
}

const rendered = steps.filter((s) => /`P view [^`]+`/.test(s));

test("the Apps call and the App-only call steps end in a rendered View", () => {
  const titles = rendered.map((s) => s.slice(0, s.indexOf("\n")));
  assert.ok(
    titles.some((t) => /Apps call/.test(t)),
    titles.join("\n"),
  );
  assert.ok(
    titles.some((t) => /App-only call explicitly/.test(t)),
    titles.join("\n"),
  );
});

for (const step of rendered) {
  const title = step.slice(0, step.indexOf("\n")).replace(/\*\*/g, "");
  const command = /`P (view [^`]+)`/.exec(step)![1];
  const promised = [...step.replace(/\s+/g, " ").matchAll(/the View shows "([^"]+)"/g)].map((m) => m[1]);
  test(`guide step ${title}: \`P ${command}\` renders`, async () => {
    assert.ok(promised.length > 0, "the step says what the View shows");
    const cli = startViewCli(words(command), { BROWSER: "true" });
    const browser = await launchBrowser();
    try {
      const first = await cli.firstLine();
      assert.match(first, /^view: http:\/\/127\.0\.0\.1:\d+\//, `${cli.stdout()}\n${cli.stderr()}`);
      const page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
      await page.goto(first.slice("view: ".length));
      const app = await appFrame(page);
      for (const text of promised) await app.getByText(text).first().waitFor({ timeout: 30_000 });
      cli.kill("SIGTERM");
      assert.equal(await cli.exited, 0, cli.stderr());
    } finally {
      cli.kill();
      await browser.close();
    }
  });
}
