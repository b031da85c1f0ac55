// Code mode end to end through the BUILT CLI (the bundle finds its sandbox worker and .wasm):
// - the canary, through the REAL Anthropic adapter and the fake Messages API: the programmatic
//   output reaches the model only when the script returns it;
// - the offline path: -p with a fenced js block, and `mcp-prism run`, against the demo server,
//   paging search_customers by nextCursor and returning counts per region.
// Needs a build (npm test builds first).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { searchCustomers } from "../../src/demo/customers.js";
import { FakeAnthropic, type Responder } from "../helpers/fake-anthropic.js";
import { BIN, ROOT } from "../helpers/host-fixtures.js";
import { writeCanaryConfig } from "../helpers/canary-config.js";
import { CANARIES } from "../fixtures/canary-server.js";

let fake: FakeAnthropic;
let dir: string;
let canaryConfig: string;

before(async () => {
  fake = await new FakeAnthropic().start();
  dir = mkdtempSync(join(tmpdir(), "prism-code-"));
  canaryConfig = writeCanaryConfig(join(dir, "canary.json"));
});
after(async () => {
  await fake.stop();
  rmSync(dir, { recursive: true, force: true });
});

function cli(
  args: string[],
  opts: { env?: Record<string, string>; stdin?: string } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const base = { ...process.env };
  for (const k of Object.keys(base)) if (k.startsWith("ANTHROPIC_")) delete base[k];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: dir,
      env: { ...base, XDG_STATE_HOME: join(dir, "state"), ...opts.env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.stdin.end(opts.stdin ?? "");
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`mcp-prism ${args.join(" ")} timed out; stderr: ${stderr}`));
    }, 60_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Calls run_code once with `code`, then answers. */
const runCodeThenAnswer =
  (code: string): Responder =>
  (body) => {
    const last = body?.messages?.at(-1);
    if (Array.isArray(last?.content) && last.content.some((b: { type: string }) => b.type === "tool_result"))
      return { kind: "reply", blocks: [{ type: "text", text: "done" }] };
    return { kind: "reply", blocks: [{ type: "tool_use", name: "run_code", input: { code } }] };
  };

for (const returned of [false, true]) {
  test(`anthropic, code mode: the programmatic canary reaches the model ${returned ? "when the script returns it" : "never when the script does not return it"}`, async () => {
    const code = `const r = await tools.canary_probe({ q: "x" }); console.log("keys", Object.keys(r)); return ${returned ? "r" : "{ length: JSON.stringify(r).length }"};`;
    fake.responder = runCodeThenAnswer(code);
    const from = fake.requests.length;
    const r = await cli(
      ["-p", "probe", "--model", "anthropic:claude-test", "--mode", "code", "--config", canaryConfig, "--json"],
      { env: { ANTHROPIC_API_KEY: "sk-fake", ANTHROPIC_BASE_URL: fake.url } },
    );
    assert.equal(r.code, 0, r.stderr + r.stdout);
    const doc = JSON.parse(r.stdout);
    // The script really read the programmatic output (so its absence from the model means something).
    assert.ok(JSON.stringify(doc.toolCalls[0].calls).includes(CANARIES.programmatic));
    assert.deepEqual(doc.toolCalls[0].calls[0].requestedOutputs, [{ audience: "programmatic", format: "structured" }]);
    const requests = fake.requests.slice(from);
    assert.equal(requests.length, 2);
    // The first request offers run_code, with the typed declarations in its description.
    const runCode = requests[0].body.tools.find((t: { name: string }) => t.name === "run_code");
    assert.match(runCode.description, /canary_probe\(args: \{/);
    // Typed there, so not listed a second time; a tool without programmatic/structured is typed as ToolText.
    const names = requests[0].body.tools.map((t: { name: string }) => t.name);
    assert.ok(!names.includes("canary_probe") && !names.includes("canary_plain"), names.join(", "));
    assert.match(runCode.description, /\[text\][^\n]*canary_plain\(args: [^\n]*\): Promise<ToolText>;/);
    const result = requests[1].body.messages.at(-1).content[0];
    assert.equal(result.type, "tool_result");
    const seen = JSON.parse(result.content[0].text);
    assert.deepEqual(seen.logs, ['keys ["id"]']);
    assert.equal(seen.calls[0].tool, "canary_probe");
    const bodies = requests.map((q) => q.raw).join("\n");
    assert.equal(bodies.includes(CANARIES.programmatic), returned);
    for (const c of [
      CANARIES.user,
      CANARIES.userStructured,
      CANARIES.app,
      CANARIES.appMeta,
      CANARIES.resultMeta,
      CANARIES.assistant,
    ])
      assert.ok(!bodies.includes(c), c);
  });
}

const PAGER = `let cursor; const counts = {}; let pages = 0;
do {
  const page = await tools.search_customers({ query: "enterprise", limit: 50, ...(cursor ? { cursor } : {}) });
  pages++;
  for (const c of page.items) counts[c.region] = (counts[c.region] ?? 0) + 1;
  cursor = page.nextCursor;
} while (cursor);
console.log("pages", pages);
return counts;`;

function expectedCounts(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const c of searchCustomers("enterprise", 0, 100_000).all) counts[c.region] = (counts[c.region] ?? 0) + 1;
  return counts;
}

test("offline, -p --mode code: a fenced js block runs through run_code against the demo server", async () => {
  const r = await cli([
    "-p",
    `count enterprise customers per region:\n\`\`\`js\n${PAGER}\n\`\`\``,
    "--mode",
    "code",
    "--json",
  ]);
  assert.equal(r.code, 0, r.stderr + r.stdout);
  const doc = JSON.parse(r.stdout);
  assert.equal(doc.toolCalls.length, 1);
  assert.equal(doc.toolCalls[0].tool, "run_code");
  assert.ok(doc.toolCalls[0].calls.length > 1, "several pages");
  const seen = JSON.parse(doc.toolCalls[0].forModel);
  assert.deepEqual(seen.value, expectedCounts());
  // The offline model answers from what reached it: the counts, not the pages.
  assert.match(doc.answer, /run_code returned to me: \{"value":\{/);
  assert.ok(!doc.answer.includes("provenance"));
});

test("mcp-prism run FILE and run - : the value on stdout, logs on stderr; --json {value, logs, calls}", async () => {
  const file = join(dir, "pager.js");
  writeFileSync(file, PAGER);
  const r = await cli(["run", file]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), expectedCounts());
  assert.match(r.stderr, /^pages \d+$/m);
  const j = await cli(["run", "-", "--json"], { stdin: PAGER });
  assert.equal(j.code, 0, j.stderr);
  const doc = JSON.parse(j.stdout);
  assert.deepEqual(Object.keys(doc), ["value", "logs", "calls"]);
  assert.deepEqual(doc.value, expectedCounts());
  assert.ok(
    doc.calls.length > 1 &&
      doc.calls.every((c: { tool: string; bytes: number }) => c.tool === "search_customers" && c.bytes > 0),
  );
  const bad = await cli(["run", "-", "--json"], { stdin: "while (true) {}" });
  assert.equal(bad.code, 1);
  assert.equal(JSON.parse(bad.stdout).error.rule, "cpu-time");
  const usage = await cli(["run"]);
  assert.equal(usage.code, 2);
});

test("offline, code mode without a script: a typed tool is listed only in run_code, so the offline model says how to reach it", async () => {
  const r = await cli(["-p", "search customers Globex", "--mode", "code", "--json"]);
  assert.equal(r.code, 0, r.stderr + r.stdout);
  const doc = JSON.parse(r.stdout);
  assert.deepEqual(doc.toolCalls, []);
  assert.match(doc.answer, /search_customers is one of run_code's typed tools \(code mode lists it only there\)/);
  assert.match(doc.answer, /put a ```js block in your prompt/);
  // A tool without a programmatic/structured variant is in run_code too (typed ToolText).
  const direct = await cli(["-p", 'call legacy_weather {"city":"Paris"}', "--mode", "code", "--json"]);
  assert.equal(direct.code, 0, direct.stderr + direct.stdout);
  assert.match(JSON.parse(direct.stdout).answer, /legacy_weather is one of run_code's typed tools/);
});

test("mcp-prism run --server NAME: only that server's tools; a tool not marked read-only runs only with --yes", async () => {
  const file = join(dir, "notes.json");
  writeFileSync(
    file,
    JSON.stringify({
      mcpServers: {
        demo: { command: process.execPath, args: [BIN, "demo-server"], cwd: ROOT },
        notes: {
          command: process.execPath,
          args: ["--import", "tsx", join(ROOT, "test", "fixtures", "notes-server.ts")],
          cwd: ROOT,
        },
      },
      limits: { connectWaitMs: 60_000 },
    }),
  );
  const script =
    "const seen = [typeof tools.search_customers, typeof tools.save_note]; try { return [seen, await tools.save_note({ text: 'hi' })]; } catch (e) { return [seen, e.rule]; }";
  const declined = await cli(["run", "-", "--server", "notes", "--config", file, "--json"], { stdin: script });
  assert.equal(declined.code, 0, declined.stderr);
  assert.deepEqual(JSON.parse(declined.stdout).value, [["undefined", "function"], "declined"]);
  assert.match(declined.stderr, /notes\/save_note is not marked read-only; not run \(pass --yes to allow\)/);
  const yes = await cli(["run", "-", "--server", "notes", "--config", file, "--json", "--yes"], { stdin: script });
  assert.equal(yes.code, 0, yes.stderr);
  assert.deepEqual(JSON.parse(yes.stdout).value, [["undefined", "function"], { saved: "hi" }]);
  const both = await cli(["run", "-", "--config", file, "--json", "--yes"], {
    stdin: "return [typeof tools.search_customers, typeof tools.save_note]",
  });
  assert.deepEqual(JSON.parse(both.stdout).value, ["function", "function"]);
});
