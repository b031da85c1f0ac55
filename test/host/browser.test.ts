// The one URL opener: $BROWSER (first entry, %s slot) or xdg-open; openBrowserChecked says whether
// a browser opened, so "/view open" never says "opened" when nothing did.
import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openBrowserChecked } from "../../src/host/browser.js";
import { tempDir } from "../helpers/host-fixtures.js";

test("openBrowserChecked: an opener that exits 0 opened; one that fails, or is missing, says why", async () => {
  const dir = tempDir();
  const got = join(dir, "got");
  const script = join(dir, "browser.sh");
  writeFileSync(script, `#!/bin/sh\nprintf '%s' "$2" > '${got}'\n`);
  chmodSync(script, 0o755);
  const url = "http://127.0.0.1:9/view?x=1&y=2";
  assert.equal(
    await openBrowserChecked(url, { ...process.env, BROWSER: `${script} --new-window %s:other` }),
    undefined,
  );
  assert.equal(readFileSync(got, "utf8"), url, "the %s slot got the URL, the first $BROWSER entry ran");
  assert.equal(await openBrowserChecked(url, { ...process.env, BROWSER: "false" }), "false exited with code 1");
  assert.match(
    (await openBrowserChecked(url, { ...process.env, BROWSER: join(dir, "no-such-browser") })) ?? "",
    /no-such-browser could not be started \(ENOENT\)/,
  );
  assert.equal(await openBrowserChecked(url, { PATH: dir }), "no $BROWSER set and no xdg-open on PATH");
});
