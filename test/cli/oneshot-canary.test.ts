// End to end: the REAL one-shot command (node bin/mcp-prism.js -p …) drives the REAL Anthropic
// SDK against the fake Messages API, with the REAL canary MCP server over stdio. The captured
// request bodies must hold the assistant canary (or, for code mode's probe, the host receipt)
// and none of the others, in every mode. Needs a build (npm test builds first).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { MODES, type Mode } from "../../src/host/types.js";
import { FakeAnthropic, type Responder } from "../helpers/fake-anthropic.js";
import { writeCanaryConfig } from "../helpers/canary-config.js";
import { ASSISTANT_IMAGE, CANARIES, FORBIDDEN, USER_IMAGE } from "../fixtures/canary-server.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const CLI = join(ROOT, "bin", "mcp-prism.js");
let fake: FakeAnthropic;
let dir: string;
let config: string;

/** First request: call both canary tools; once results are back: answer. */
const callBothTools: Responder = (body) => {
  const last = body?.messages?.[body.messages.length - 1];
  if (Array.isArray(last?.content) && last.content.some((b: { type: string }) => b.type === "tool_result")) {
    return { kind: "reply", blocks: [{ type: "text", text: "final answer from the fake model" }] };
  }
  return {
    kind: "reply",
    blocks: [
      { type: "text", text: "Probing." },
      { type: "tool_use", name: "canary_probe", input: { q: "x" } },
      { type: "tool_use", name: "canary_plain", input: {} },
    ],
  };
};

before(async () => {
  fake = await new FakeAnthropic().start();
  dir = mkdtempSync(join(tmpdir(), "prism-oneshot-"));
  config = writeCanaryConfig(join(dir, "config.json"));
});
after(async () => {
  await fake.stop();
  rmSync(dir, { recursive: true, force: true });
});

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], env: Record<string, string> = {}, timeoutMs = 30_000): Promise<RunResult> {
  const base = { ...process.env };
  for (const k of Object.keys(base)) if (k.startsWith("ANTHROPIC_")) delete base[k];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: dir,
      env: { ...base, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`mcp-prism ${args.join(" ")} timed out; stderr: ${stderr}`));
    }, timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const anthropicEnv = () => ({ ANTHROPIC_API_KEY: "sk-fake", ANTHROPIC_BASE_URL: fake.url });

for (const mode of MODES) {
  test(`anthropic, --mode ${mode}: only assistant outputs (or receipts) reach the request bodies`, async () => {
    fake.responder = callBothTools;
    const from = fake.requests.length;
    const r = await runCli(
      ["-p", "probe the canaries", "--model", "anthropic:claude-test", "--mode", mode, "--config", config, "--json"],
      anthropicEnv(),
    );
    assert.equal(r.code, 0, r.stderr + r.stdout);
    const doc = JSON.parse(r.stdout);
    assert.equal(doc.answer, "final answer from the fake model");
    assert.equal(doc.modelRequests, 2);
    assert.deepEqual(
      doc.toolCalls.map((c: { tool: string }) => c.tool),
      ["canary_probe", "canary_plain"],
    );
    const requests = fake.requests.slice(from);
    assert.equal(requests.length, 2);
    assert.equal(requests[0].body.model, "claude-test");
    const bodies = requests.map((q) => q.raw).join("\n");

    // The canary server really produced the forbidden outputs in this mode (so their absence means something).
    const probe = doc.toolCalls[0];
    const produced = JSON.stringify(doc.toolCalls);
    expectProduced(mode, probe, produced);

    for (const c of FORBIDDEN) assert.ok(!bodies.includes(c), `${c} leaked into a model request in ${mode} mode`);
    assert.ok(!bodies.includes(USER_IMAGE), `the user image leaked into a model request in ${mode} mode`);
    assert.ok(bodies.includes(CANARIES.assistant), `the assistant canary is missing in ${mode} mode`);

    const results = requests[1].body.messages.at(-1).content;
    assert.deepEqual(
      results.map((b: { type: string }) => b.type),
      ["tool_result", "tool_result"],
    );
    const [probeResult, plainResult] = results;
    // canary_plain declares only assistant/content (+ user/content): its image reaches the model as an image block.
    assert.deepEqual(plainResult.content[1], {
      type: "image",
      source: { type: "base64", media_type: "image/png", data: ASSISTANT_IMAGE },
    });
    if (mode === "code") {
      assert.equal(probeResult.content.length, 1);
      assert.match(
        probeResult.content[0].text,
        /^canary_probe: programmatic\/structured \d+ B( \([^)]*\))? went to program logic/,
      );
      assert.ok(!JSON.stringify(probeResult).includes(CANARIES.assistant));
    } else if (mode === "structured") {
      assert.deepEqual(probeResult.content, [{ type: "text", text: JSON.stringify({ note: CANARIES.assistant }) }]);
    } else {
      assert.equal(probeResult.content[0].text, `assistant content ${CANARIES.assistant}`);
      assert.deepEqual(probeResult.content[1], {
        type: "image",
        source: { type: "base64", media_type: "image/png", data: ASSISTANT_IMAGE },
      });
    }
  });
}

function expectProduced(
  mode: Mode,
  probe: { routed: Record<string, unknown[]>; appMeta?: unknown },
  all: string,
): void {
  const has = (s: string) => assert.ok(all.includes(s), `${s} was not produced in ${mode} mode`);
  if (mode === "chat" || mode === "structured") {
    has(CANARIES.user);
    has(CANARIES.userStructured);
    has(USER_IMAGE);
  }
  if (mode === "code") has(CANARIES.programmatic);
  if (mode === "app") {
    has(CANARIES.app);
    assert.ok(JSON.stringify(probe.appMeta).includes(CANARIES.appMeta));
  }
  // The result-level _meta canary goes to no sink at all.
  assert.ok(!all.includes(CANARIES.resultMeta));
}

test("offline model through the one-shot command: the answer shows only what reached the model", async () => {
  for (const mode of MODES) {
    const r = await runCli(["-p", "call canary_probe {}", "--model", "offline", "--mode", mode, "--config", config]);
    assert.equal(r.code, 0, r.stderr);
    for (const c of FORBIDDEN) assert.ok(!r.stdout.includes(c), `${c} in the offline answer (${mode})`);
    if (mode === "code") {
      // canary_probe has a programmatic/structured variant: code mode lists it only in run_code's
      // declarations (the receipt of a direct call is checked through the Anthropic adapter above).
      assert.match(r.stdout, /canary_probe is one of run_code's typed tools/);
      assert.ok(!r.stdout.includes(CANARIES.assistant));
      continue;
    }
    assert.ok(r.stdout.includes(CANARIES.assistant), r.stdout);
    if (mode !== "structured") assert.match(r.stdout, /I received 1 image \(image\/png\)/);
    assert.match(r.stderr, /→ canary\/canary_probe \{\}/);
    // 34 (polish): what the tool made for the person is shown on stderr, never in the answer.
    if (mode === "chat") {
      assert.match(r.stderr, /^ {2}for you, user\/content:\n[\s\S]*CANARY-USER-a4402c/m);
      assert.match(r.stderr, /^ {2}for you, user\/structured:\n[\s\S]*rows/m);
    }
  }
});

test("errors: a 401 is one clear line and exit 1; usage errors exit 2", async () => {
  fake.responder = undefined;
  fake.script({ kind: "status", status: 401, errorType: "authentication_error", message: "invalid x-api-key" });
  const r = await runCli(["-p", "hello", "--model", "anthropic", "--config", config], anthropicEnv());
  assert.equal(r.code, 1);
  assert.equal(r.stdout, "");
  assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
  assert.match(r.stderr, /the Anthropic API rejected the API key \(401: invalid x-api-key\)/);

  const noKey = await runCli(["-p", "hello", "--model", "anthropic", "--config", config]);
  assert.equal(noKey.code, 1);
  assert.match(noKey.stderr, /needs ANTHROPIC_API_KEY/);

  for (const bad of [["-p"], ["-p", "x", "--mode", "nope"], ["-p", "x", "--model", "gpt"], ["-p", "x", "stray"]]) {
    const u = await runCli([...bad, "--config", config]);
    assert.equal(u.code, 2, `${bad.join(" ")}: ${u.stderr}`);
    assert.equal(u.stderr.trim().split("\n").length, 1, u.stderr);
  }
});

test("--yes: a tool not marked read-only runs only when approved", async () => {
  const refused = await runCli(["-p", "call canary_write {}", "--model", "offline", "--config", config]);
  assert.equal(refused.code, 1, refused.stderr);
  // The model reads the host-written rule; the user's line (stderr) says how to allow it.
  assert.match(
    refused.stdout,
    /The call failed \(not-approved\): server canary, tool canary_write: the user did not approve running this tool/,
  );
  assert.match(refused.stderr, /canary_write failed \(not-approved\): .*pass --yes to allow/);
  assert.ok(!refused.stdout.includes("wrote it"));
  const approved = await runCli([
    "-p",
    "call canary_write {}",
    "--model",
    "offline",
    "--config",
    config,
    "--yes",
    "--json",
  ]);
  assert.equal(approved.code, 0, approved.stderr);
  const doc = JSON.parse(approved.stdout);
  assert.match(doc.answer, /canary_write wrote it/);
  assert.equal(doc.toolCalls[0].tool, "canary_write");
  assert.equal(doc.model, "offline");
});
