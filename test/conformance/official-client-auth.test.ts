// The official MCP conformance suite's authorization CLIENT scenarios against the mcp-prism host:
// every auth/* scenario `--requirements 2026-07-28` holds (the list is checked against the
// suite's own), each through test/conformance/host-client-driver.ts with sign-in interactive and
// $BROWSER set to test/fixtures/oauth-browser.mjs (the suite's authorization servers approve at
// once). The runner and baseline rules: official-client-run.ts.
import { it } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { AUTH, AUTH_SCENARIOS, clientScenarioTests, COMPAT, SUITE } from "./official-client-run.js";
import { ROOT } from "../helpers/host-fixtures.js";

// The first half here, the rest in official-client-auth-2.test.ts (each file has its own time budget).
clientScenarioTests(
  "official conformance suite: authorization client scenarios against the host (1/2)",
  AUTH.slice(0, 13),
  3,
  () => {
    it("runs every auth/* client scenario the 2026-07-28 requirements hold", async () => {
      const listed = await new Promise<string>((resolve, reject) =>
        execFile(
          process.execPath,
          ["--import", COMPAT, SUITE, "list", "--client", "--requirements", "2026-07-28"],
          { cwd: ROOT, timeout: 60_000 },
          (e, stdout) => (e ? reject(e) : resolve(stdout)),
        ),
      );
      // The required list ends where the unscored ones ("Run and reported, but never scored") begin.
      const required = listed.split(/never scored/)[0];
      const auth = [...required.matchAll(/^\s+- (auth\/\S+)$/gm)].map((m) => m[1]);
      assert.equal(auth.length, 25);
      assert.deepEqual([...auth].sort(), [...AUTH_SCENARIOS].sort());
    });
  },
);
