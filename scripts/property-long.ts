// The router property at length: `npm run test:long` (default 50,000 cases; `-- --runs N --seed S`).
import { parseArgs } from "node:util";
import { runProperty } from "../test/property/router-property.js";

const { values } = parseArgs({ options: { runs: { type: "string", default: "50000" }, seed: { type: "string" } } });
const runs = Number(values.runs);
const seed = values.seed === undefined ? Date.now() % 2 ** 31 : Number(values.seed);
const started = performance.now();
try {
  runProperty(runs, seed);
} catch (e) {
  process.stderr.write(`${(e as Error).message}\n`);
  process.exit(1);
}
process.stdout.write(
  `router property: ${runs} cases passed (seed ${seed}) in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
);
