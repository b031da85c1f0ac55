// The public API surface (package.json `exports`) against docs/api-report.md: a change to an
// exported name or signature fails here until `npm run api-report` records it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { apiReport, ENTRIES, REPORT_FILE } from "../../scripts/api-report.js";
import { ROOT } from "../helpers/tmux.js";

test("docs/api-report.md matches the exported names and signatures (run `npm run api-report` after an intended change)", () => {
  const current = apiReport();
  const recorded = readFileSync(REPORT_FILE, "utf8");
  if (recorded !== current) {
    const was = new Set(recorded.split("\n"));
    const now = new Set(current.split("\n"));
    const diff = [
      ...[...was].filter((l) => !now.has(l)).map((l) => `- ${l.slice(0, 200)}`),
      ...[...now].filter((l) => !was.has(l)).map((l) => `+ ${l.slice(0, 200)}`),
    ];
    assert.fail(`the public API changed:\n${diff.join("\n")}`);
  }
  for (const fn of [
    "defineTool",
    "serveStdio",
    "serveHttp",
    "requestedOutputsFor",
    "validateResult",
    "splitByAudience",
    "splitLegacyResult",
    "checkDeclaration",
    "projectToolToLegacy",
  ])
    assert.match(current, new RegExp(`^function ${fn}: `, "m"), `${fn} is exported`);
});

test("package.json exports exactly the reported entries, each with its types", () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    exports: Record<string, { types: string; default: string } | string>;
  };
  const entries = Object.keys(pkg.exports).filter((k) => k !== "./package.json");
  assert.deepEqual(entries.map((k) => `mcp-prism${k.slice(1)}`).sort(), Object.keys(ENTRIES).sort());
  for (const [name, file] of Object.entries(ENTRIES)) {
    const e = pkg.exports[`./${name.split("/")[1]}`] as { types: string; default: string };
    assert.equal(e.default, `./${file.replace(/^src/, "dist").replace(/\.ts$/, ".js")}`);
    assert.equal(e.types, `./${file.replace(/^src/, "dist").replace(/\.ts$/, ".d.ts")}`);
  }
});
