// The second half of the official suite's authorization client scenarios (the first half and the
// check that all 25 the 2026-07-28 requirements hold are run: official-client-auth.test.ts).
import { AUTH, clientScenarioTests } from "./official-client-run.js";

clientScenarioTests(
  "official conformance suite: authorization client scenarios against the host (2/2)",
  AUTH.slice(13),
  3,
);
