// Hostile input: a server that draws 300 samples of 4,000 tokens in one call, with `--yes`
// (sampling approved, answered by the offline model). The per-call caps (limits) hold, the cap is
// one line on stderr (not one per refused request), the call goes on and ends as the server
// decides; the session caps hold across calls (`-p` would share them the same way).
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "../helpers/host-fixtures.js";
import { runCli } from "../helpers/processes.js";
import { SamplingBudget } from "../../src/host/input/sampling-budget.js";
import type { InputProvider } from "../../src/host/input/input-provider.js";

const dir = mkdtempSync(join(tmpdir(), "prism-sampling-caps-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const server = {
  command: process.execPath,
  args: ["--import", "tsx", join(ROOT, "test", "fixtures", "sampling-flood-server.ts")],
  cwd: ROOT,
};

test("300 samples in one call with --yes: 10 given (limits.maxSamplesPerCall), one line, the call ends", async () => {
  const cfg = join(dir, "default.json");
  writeFileSync(cfg, JSON.stringify({ mcpServers: { flood: server }, limits: { discoverTimeoutMs: 15000 } }));
  const r = await runCli(["call", "draw", "--config", cfg, "--yes", "--model", "offline"], {
    cwd: dir,
    timeoutMs: 120_000,
  });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /given=10 refused=290/);
  const lines = r.stderr.split("\n").filter((l) => l.includes("sampling limit reached"));
  assert.deepEqual(lines, [
    "mcp-prism: server flood: sampling limit reached: 10 samples in one call (limits.maxSamplesPerCall); further samples are refused for this call",
  ]);
});

test("requested tokens are capped too (limits.maxSampledTokensPerCall), configurable", async () => {
  const cfg = join(dir, "tokens.json");
  writeFileSync(
    cfg,
    JSON.stringify({
      mcpServers: { flood: server },
      limits: { discoverTimeoutMs: 15000, maxSampledTokensPerCall: 10000 },
    }),
  );
  const r = await runCli(
    ["call", "draw", "--config", cfg, "--yes", "--model", "offline", "--args", '{"n":20,"maxTokens":4000}'],
    { cwd: dir, timeoutMs: 120_000 },
  );
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /given=2 refused=18/);
  assert.equal(
    r.stderr
      .split("\n")
      .filter((l) => l.includes("10000 requested tokens in one call (limits.maxSampledTokensPerCall)")).length,
    1,
  );
});

test("SamplingBudget: the session caps hold across calls and are said once", async () => {
  const said: string[] = [];
  const budget = new SamplingBudget(
    { maxSamplesPerCall: 10, maxSamplesPerSession: 12, maxSampledTokensPerCall: 1e9, maxSampledTokensPerSession: 1e9 },
    (_s, line) => said.push(line),
  );
  let asked = 0;
  const inner: InputProvider = {
    elicitation: false,
    sampling: true,
    elicit: async () => ({ action: "cancel" }),
    sample: async () => (asked++, { action: "accept", text: "ok", model: "m" }),
  };
  const p = budget.wrap(inner);
  const req = { server: "s", messages: [{ role: "user" as const, text: "hi" }], maxTokens: 10 };
  const answers: string[] = [];
  for (let call = 0; call < 3; call++) {
    budget.callStarted("s");
    for (let i = 0; i < 8; i++) answers.push((await p.sample(req as never)).action);
  }
  assert.equal(asked, 12, "the provider was asked only within the session cap");
  assert.equal(answers.filter((a) => a === "accept").length, 12);
  assert.deepEqual(said, [
    "server s: sampling limit reached: 12 samples this session (limits.maxSamplesPerSession); further samples are refused for this session",
  ]);
});
