// Runs every test file with node's test runner. Node 20 neither globs nor finds .ts files
// by itself, so the files are listed here explicitly (a run that finds none fails).
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";

// --unit: the fast layer only — no tmux, no browser, no built CLI (`npm run test:unit`).
const UNIT = [
  "test/architecture.test.ts",
  "test/protocol/",
  "test/model/",
  "test/ui/",
  "test/code/",
  "test/compare/",
  "test/property/",
];
const unit = process.argv.includes("--unit");
const only = process.argv.slice(2).filter((a) => a !== "--unit");
function collect(dir) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== "fixtures" && e.name !== "helpers") out.push(...collect(p));
    } else if (/\.test\.tsx?$/.test(e.name)) out.push(p);
  }
  return out;
}
let files = collect("test").sort();
if (only.length) files = files.filter((f) => only.some((o) => f.includes(o)));
if (unit) files = files.filter((f) => UNIT.some((u) => f.startsWith(u)));
if (files.length === 0) {
  console.error("run-tests: no test files found");
  process.exit(1);
}
const env = { ...process.env };
delete env.CI; // Ink freezes its live frame under CI=true; the end-to-end tests need it live
// The app writes node's compile cache under $XDG_CACHE_HOME: tests get a private one, removed after.
const cache = mkdtempSync(join(tmpdir(), "mcp-prism-test-cache-"));
env.XDG_CACHE_HOME = cache;
// ...and a private $XDG_STATE_HOME: the era cache (and any transcript) never touch the user's.
const state = mkdtempSync(join(tmpdir(), "mcp-prism-test-state-"));
env.XDG_STATE_HOME = state;
// ...and a private TMPDIR: whatever a test leaves behind is named below, then removed with it.
const tmp = mkdtempSync(join(tmpdir(), "mcp-prism-test-tmp-"));
env.TMPDIR = tmp;
const r = spawnSync(
  process.execPath,
  ["--import", "tsx", "--test", "--test-concurrency=2", "--test-timeout=240000", ...files],
  {
    stdio: "inherit",
    env,
  },
);
rmSync(cache, { recursive: true, force: true });
rmSync(state, { recursive: true, force: true });
// Said to a developer; under CI nothing follows the test runner's closing lines (CI reads them).
const left = readdirSync(tmp).filter((n) => !n.startsWith("tsx-")); // tsx's compile cache is its own
if (left.length && !process.env.CI) {
  const byPrefix = new Map();
  for (const n of left) {
    const prefix = n.replace(/[-.][A-Za-z0-9]{6,}$/, "");
    byPrefix.set(prefix, (byPrefix.get(prefix) ?? 0) + 1);
  }
  console.error(
    `run-tests: the tests left ${left.length} entries in TMPDIR (removed now): ${[...byPrefix].map(([p, n]) => `${p} ×${n}`).join(", ")}`,
  );
}
rmSync(tmp, { recursive: true, force: true });
process.exit(r.status ?? 1);
