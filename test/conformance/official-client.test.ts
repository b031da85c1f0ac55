// The official MCP conformance suite's CLIENT scenarios against the mcp-prism host, but for the
// authorization ones (official-client-auth.test.ts); the runner and the baseline rules (every
// failure in official-client-baseline.json with a reason, every entry still failing) are in
// official-client-run.ts.
import { it } from "node:test";
import assert from "node:assert/strict";
import { AUTH, baseline, clientScenarioTests, SCENARIOS } from "./official-client-run.js";

clientScenarioTests("official conformance suite: client scenarios against the host", SCENARIOS, 2, () => {
  for (const entry of baseline) {
    it(`baseline entry ${entry.scenario} / ${entry.check} names a scenario run here and gives a reason`, () => {
      assert.ok(
        [...SCENARIOS, ...AUTH].some(([s]) => s === entry.scenario),
        entry.scenario,
      );
      assert.ok(entry.reason.length > 20, "each expected failure says why");
    });
  }
});
