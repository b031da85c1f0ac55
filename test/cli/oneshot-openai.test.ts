// End to end: the REAL one-shot command (-p … --model openai-compatible:NAME --base-url URL)
// drives the REAL openai SDK against the fake Chat Completions API, with the REAL canary MCP
// server over stdio. In every mode only assistant outputs (or receipts) reach the request bodies;
// the fake refuses any request that breaks the API's rules. Needs a build (npm test builds first).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { MODES } from "../../src/host/types.js";
import { FakeOpenAI, type OpenAIResponder } from "../helpers/fake-openai.js";
import { writeCanaryConfig } from "../helpers/canary-config.js";
import { CANARIES, FORBIDDEN, USER_IMAGE } from "../fixtures/canary-server.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const CLI = join(ROOT, "bin", "mcp-prism.js");
let fake: FakeOpenAI;
let dir: string;
let config: string;

const callBothTools: OpenAIResponder = (body) => {
  if (body.messages.some((m: { role: string }) => m.role === "tool"))
    return { kind: "reply", text: "final answer from the fake model" };
  return {
    kind: "reply",
    text: "Probing.",
    calls: [
      { name: "canary_probe", args: { q: "x" } },
      { name: "canary_plain", args: {} },
    ],
  };
};

before(async () => {
  fake = await new FakeOpenAI().start();
  dir = mkdtempSync(join(tmpdir(), "prism-oneshot-openai-"));
  config = writeCanaryConfig(join(dir, "config.json"));
});
after(async () => {
  await fake.stop();
  rmSync(dir, { recursive: true, force: true });
});

function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, OPENAI_API_KEY: "sk-openai-SECRET" };
  for (const k of Object.keys(env)) if (k.startsWith("ANTHROPIC_")) delete env[k];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

for (const mode of MODES) {
  test(`openai-compatible, --mode ${mode}: only assistant outputs (or receipts) reach the request bodies`, async () => {
    fake.responder = callBothTools;
    const from = fake.requests.length;
    const r = await runCli([
      "-p",
      "probe the canaries",
      "--model",
      "openai-compatible:fake-large",
      "--base-url",
      fake.baseURL,
      "--mode",
      mode,
      "--config",
      config,
      "--json",
    ]);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    const doc = JSON.parse(r.stdout);
    assert.equal(doc.answer, "final answer from the fake model");
    assert.deepEqual(
      doc.toolCalls.map((c: { tool: string }) => c.tool),
      ["canary_probe", "canary_plain"],
    );
    const requests = fake.requests.slice(from);
    assert.equal(requests.length, 2);
    assert.deepEqual(fake.refused, []);
    const bodies = requests.map((q) => q.raw).join("\n");
    for (const c of FORBIDDEN) assert.ok(!bodies.includes(c), `${c} leaked into a model request in ${mode} mode`);
    assert.ok(!bodies.includes(USER_IMAGE), `the user image leaked in ${mode} mode`);
    assert.ok(
      bodies.includes(CANARIES.assistant) || mode === "code",
      `the assistant canary is missing in ${mode} mode`,
    );
    // The user's OPENAI_API_KEY never goes to another endpoint.
    assert.ok(!JSON.stringify(requests.map((q) => q.headers)).includes("SECRET"));
  });
}

test("-p: a 429 is retried after the wait it asks, and the wait is one line on stderr (not on stdout)", async () => {
  fake.responder = undefined;
  fake.script(
    { kind: "status", status: 429, message: "Rate limit reached", headers: { "retry-after": "0" } },
    { kind: "reply", text: "answered after the retry" },
  );
  const r = await runCli([
    "-p",
    "hello",
    "--model",
    "openai-compatible:fake-large",
    "--base-url",
    fake.baseURL,
    "--config",
    config,
  ]);
  assert.equal(r.code, 0, r.stderr + r.stdout);
  assert.equal(r.stdout.trim(), "answered after the retry");
  assert.match(
    r.stderr,
    /mcp-prism: the openai-compatible endpoint \S+ is rate-limiting requests \(429: Rate limit reached\); retry 1 of 2 in 0s\n/,
  );
});
