// `mcp-prism check-client`, the bundled CLI end to end: mcp-prism itself (the real -p turn, the
// real openai and Anthropic SDKs against the scripted model, stdio and HTTP scenario servers)
// passes; the legacy-era stand-in client fails each rule it breaks; a client that never speaks
// 2026-12-01 is NOT-TESTED, never a pass. Plus the runner's own bounds and the keys it withholds.
import { test } from "node:test";
import assert from "node:assert/strict";
import OpenAI from "openai";
import { FakeModel, matchTool } from "../../src/conformance/client/fake-model.js";
import { clientEnv, DUMMY_KEY } from "../../src/conformance/client/run.js";
import { CLIENT_SCENARIOS } from "../../src/conformance/client/scenarios.js";
import { CLIENT_CHECKS } from "../../src/conformance/client/checks.js";
import { CLI, ROOT, runCli } from "./run-check.js";

const STANDIN = `${ROOT}test/fixtures/legacy-standin-client.mjs`;
const PRISM = [process.execPath, CLI, "conformance-client"];

type Report = {
  runs: { scenario: string; transport: string; exitCode: number | null; modelRequests: number; toolCalls: number }[];
  checks: { id: string; status: string; detail: string }[];
  failed: number;
  notTested: number;
  outcome: string;
};

async function checkClient(args: string[]): Promise<{ code: number | null; report: Report }> {
  const r = await runCli(["check-client", "--json", ...args], 240_000);
  assert.ok(r.stdout.trim().startsWith("{"), `no JSON report: ${r.stdout.slice(0, 300)} ${r.stderr.slice(0, 500)}`);
  return { code: r.code, report: JSON.parse(r.stdout) as Report };
}

const statuses = (r: Report) => Object.fromEntries(r.checks.map((c) => [c.id, c.status]));

test("mcp-prism passes check-client in chat mode over stdio and HTTP (openai SDK)", async () => {
  const { code, report } = await checkClient(["--", ...PRISM]);
  assert.equal(report.runs.length, CLIENT_SCENARIOS.length * 2);
  const s = statuses(report);
  assert.equal(report.failed, 0, JSON.stringify(report.checks, null, 1));
  assert.equal(report.notTested, 0, JSON.stringify(report.checks, null, 1));
  for (const id of [
    "sep-3279-client-selects-declared",
    "sep-3279-client-no-duplicate-selector",
    "sep-3279-client-no-unnegotiated-extension-audience",
    "sep-3279-client-no-requested-outputs-before-2026-12-01",
    "sep-3279-client-rejects-tool-without-variants",
    "sep-3279-client-user-outputs-not-in-model-context",
    "sep-3279-client-result-meta-not-forwarded",
    "sep-3279-client-no-error-substitution",
    "sep-3279-proposed-client-ignores-unrequested-output",
  ])
    assert.equal(s[id], "PASS", `${id}: ${report.checks.find((c) => c.id === id)?.detail}`);
  // Chat mode requests no programmatic or App output: nothing to route, so nothing is claimed.
  assert.equal(s["sep-3279-client-programmatic-outputs-not-in-model-context"], "N/A");
  assert.equal(s["sep-3279-proposed-client-app-outputs-not-in-model-context"], "N/A");
  assert.equal(report.outcome, "pass");
  assert.equal(code, 0);
  // Every run reached the model after its call (the canaries had something to be absent from).
  for (const run of report.runs.filter((r) => r.toolCalls > 0)) assert.ok(run.modelRequests >= 2, JSON.stringify(run));
});

test("mcp-prism in app mode keeps the App output from the model; the Anthropic SDK too", async () => {
  const app = await checkClient(["--scenario", "routing", "--transport", "http", "--", ...PRISM, "--mode", "app"]);
  assert.equal(statuses(app.report)["sep-3279-proposed-client-app-outputs-not-in-model-context"], "PASS");
  assert.equal(app.code, 0);
  const anthropic = await checkClient([
    "--scenario",
    "routing",
    "--scenario",
    "error-output",
    "--transport",
    "stdio",
    "--",
    ...PRISM,
    "--api",
    "anthropic",
  ]);
  const s = statuses(anthropic.report);
  assert.equal(s["sep-3279-client-user-outputs-not-in-model-context"], "PASS");
  assert.equal(s["sep-3279-client-no-error-substitution"], "PASS");
  assert.equal(anthropic.code, 0);
});

test("the legacy-era stand-in client fails every rule it breaks, over both transports", async () => {
  const { code, report } = await checkClient(["--", process.execPath, STANDIN]);
  const s = statuses(report);
  for (const id of [
    "sep-3279-client-no-unnegotiated-extension-audience",
    "sep-3279-client-no-requested-outputs-before-2026-12-01",
    "sep-3279-client-rejects-tool-without-variants",
    "sep-3279-client-user-outputs-not-in-model-context",
    "sep-3279-client-programmatic-outputs-not-in-model-context",
    "sep-3279-client-result-meta-not-forwarded",
    "sep-3279-client-no-error-substitution",
  ]) {
    assert.equal(s[id], "FAIL", id);
    // Both transports show it.
    assert.match(report.checks.find((c) => c.id === id)!.detail, /\/stdio.*\/http/, id);
  }
  // A proposed rule warns at most.
  assert.equal(s["sep-3279-proposed-client-app-outputs-not-in-model-context"], "WARN");
  // What it does right stays right: every selector it sends was declared, none twice.
  assert.equal(s["sep-3279-client-selects-declared"], "PASS");
  assert.equal(s["sep-3279-client-no-duplicate-selector"], "PASS");
  assert.equal(report.outcome, "fail");
  assert.equal(code, 1);
});

test("a client that never speaks 2026-12-01 is not tested, and that is not a pass", async () => {
  const args = ["--transport", "http", "--", process.execPath, STANDIN, "--era", "2026-07-28"];
  const { code, report } = await checkClient(args);
  const s = statuses(report);
  assert.equal(s["sep-3279-client-user-outputs-not-in-model-context"], "NOT-TESTED");
  assert.equal(s["sep-3279-client-rejects-tool-without-variants"], "NOT-TESTED");
  assert.ok(report.notTested >= 5);
  assert.equal(code, 1);
  const allowed = await runCli(["check-client", "--allow-untested", "--scenario", "routing", ...args], 120_000);
  assert.equal(allowed.code, 0, allowed.stdout);
  assert.match(allowed.stdout, /went untested \(--allow-untested: exit 0\)/);
});

test("the text report: a line per run and per check, the tally; usage errors exit 2", async () => {
  const r = await runCli(["check-client", "--scenario", "routing", "--transport", "stdio", "--", ...PRISM], 120_000);
  assert.match(r.stdout, /^ {2}routing\/stdio +exit 0, 2 model request\(s\), 1 tools\/call$/m);
  assert.match(r.stdout, /^PASS +sep-3279-client-user-outputs-not-in-model-context — routing\/stdio: /m);
  assert.match(r.stdout, /passed, 0 failed/);
  assert.equal(r.code, 0);
  for (const bad of [["--"], ["--scenario", "nope", "--", "true"], ["--transport", "ws", "--", "true"]]) {
    const u = await runCli(["check-client", ...bad]);
    assert.equal(u.code, 2, bad.join(" "));
    assert.match(u.stderr, /^mcp-prism check-client: /);
  }
  const gone = await runCli([
    "check-client",
    "--scenario",
    "routing",
    "--transport",
    "http",
    "--",
    "/nonexistent/client",
  ]);
  assert.equal(gone.code, 1);
  assert.match(gone.stdout, /NOT-TESTED/);
  // conformance-client outside check-client: one line naming what is missing, exit 2.
  const alone = await runCli(["conformance-client"]);
  assert.equal(alone.code, 2);
  assert.match(
    alone.stderr,
    /^mcp-prism conformance-client: MCP_CONFORMANCE_CONTEXT is not set \(run under check-client\)$/m,
  );
});

test("the client's environment: the scenario in the official variables, model keys replaced", () => {
  const env = clientEnv(
    { OPENAI_API_KEY: "sk-real", ANTHROPIC_API_KEY: "sk-ant-real", OPENROUTER_API_KEY: "or-real", PATH: "/bin" },
    CLIENT_SCENARIOS[0],
    "http",
    { url: "http://127.0.0.1:1/mcp" },
    "http://127.0.0.1:2",
  );
  assert.equal(env.OPENAI_API_KEY, DUMMY_KEY);
  assert.equal(env.ANTHROPIC_API_KEY, DUMMY_KEY);
  assert.equal(env.OPENROUTER_API_KEY, undefined);
  assert.equal(env.PATH, "/bin");
  assert.equal(env.MCP_CONFORMANCE_SCENARIO, "routing");
  assert.equal(env.MCP_CONFORMANCE_PROTOCOL_VERSION, "2026-12-01");
  assert.equal(env.MCP_CONFORMANCE_SERVER_URL, "http://127.0.0.1:1/mcp");
  assert.equal(env.OPENAI_BASE_URL, "http://127.0.0.1:2/v1");
  const ctx = JSON.parse(env.MCP_CONFORMANCE_CONTEXT!);
  assert.equal(ctx.serverUrl, "http://127.0.0.1:1/mcp");
  assert.ok(!JSON.stringify(env).includes("real"));
  const stdio = clientEnv({}, CLIENT_SCENARIOS[0], "stdio", { command: ["node", "x"] }, "http://127.0.0.1:2");
  assert.deepEqual(JSON.parse(stdio.MCP_CONFORMANCE_SERVER_COMMAND!), ["node", "x"]);
});

test("the scripted model: finds the tool behind a host's prefix, bounds what it takes", async () => {
  assert.equal(matchTool(["a", "scenario__lookup_order"], "lookup_order"), "scenario__lookup_order");
  assert.equal(matchTool(["lookup_order", "x_lookup_order"], "lookup_order"), "lookup_order");
  assert.equal(matchTool(["relookup_order"], "lookup_order"), undefined);
  const model = await new FakeModel({ tool: "lookup_order", args: { id: "A-1" } }).start();
  try {
    const client = new OpenAI({ baseURL: `${model.url}/v1`, apiKey: DUMMY_KEY, maxRetries: 0 });
    const tools = [
      { type: "function" as const, function: { name: "srv_lookup_order", parameters: { type: "object" } } },
    ];
    const first = await client.chat.completions.create({
      model: "m",
      messages: [{ role: "user", content: "hi" }],
      tools,
    });
    const call = first.choices[0].message.tool_calls?.[0];
    assert.ok(call && call.type === "function");
    assert.equal(call.function.name, "srv_lookup_order");
    assert.deepEqual(JSON.parse(call.function.arguments), { id: "A-1" });
    const big = await fetch(`${model.url}/v1/chat/completions`, {
      method: "POST",
      body: "x".repeat(9 * 1024 * 1024),
    });
    assert.equal(big.status, 413);
    const notJson = await fetch(`${model.url}/v1/chat/completions`, { method: "POST", body: "{" });
    assert.equal(notJson.status, 400);
    for (let i = model.requests.length; i < 100; i++)
      await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "hi" }] });
    await assert.rejects(
      client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "hi" }] }),
      (e: { status?: number }) => e.status === 429,
    );
  } finally {
    await model.stop();
  }
});

test("every client check is traced in conformance/sep-3279.yaml, and only those", async () => {
  const { readFileSync } = await import("node:fs");
  const { parse } = await import("yaml");
  const doc = parse(readFileSync(`${ROOT}conformance/sep-3279.yaml`, "utf8"), { schema: "failsafe" }) as Record<
    string,
    Record<string, string>[]
  >;
  const entries = [...doc.requirements, ...doc.proposed].filter((e) => e.client_check);
  const traced = new Set(entries.flatMap((e) => e.client_check.split(" ")));
  assert.deepEqual([...traced].sort(), CLIENT_CHECKS.map((c) => c.id).sort());
  for (const e of entries)
    for (const id of e.client_check.split(" ")) {
      const check = CLIENT_CHECKS.find((c) => c.id === id)!;
      assert.equal(e.client_level, check.level, id);
      // A proposed client rule sits in the proposed list, a SEP one in the requirements.
      assert.equal(check.proposed, doc.proposed.includes(e), id);
      assert.equal(check.proposed, id.startsWith("sep-3279-proposed-"), id);
    }
});
