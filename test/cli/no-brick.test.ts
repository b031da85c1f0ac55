// The built CLI (`node bin/mcp-prism.js -p …`) with the REAL Anthropic SDK pointed at the fake
// Messages API (which refuses, as the real API does, any request that breaks its rules) and the
// brick fixture server: a failing, a declined, a leaking and an undecodable tool each leave the
// next model request valid, the server's stderr never reaches a request body or the offline
// model's reply, and bounds on what a server sends the model are one line each on stderr.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BIN } from "../helpers/host-fixtures.js";
import { FakeAnthropic, type Responder } from "../helpers/fake-anthropic.js";
import { brickJson, CORRUPT_PNG, freshState, SERVER_MESSAGE, STDERR_CANARY } from "../helpers/brick.js";

let fake: FakeAnthropic;
let dir: string;
before(async () => {
  fake = await new FakeAnthropic().start();
  dir = mkdtempSync(join(tmpdir(), "prism-nobrick-"));
});
after(async () => {
  await fake.stop();
  rmSync(dir, { recursive: true, force: true });
});

function configFile(name: string, server: Record<string, unknown>): string {
  const file = join(dir, `${name}.json`);
  writeFileSync(
    file,
    JSON.stringify({ mcpServers: { brick: server }, limits: { callTimeoutMs: 20_000, connectWaitMs: 60_000 } }),
  );
  return file;
}

function run(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const base = { ...process.env };
  for (const k of Object.keys(base)) if (k.startsWith("ANTHROPIC_")) delete base[k];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
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
      reject(new Error(`timed out; stderr: ${stderr}`));
    }, 60_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const anthropic = () => ({ ANTHROPIC_API_KEY: "sk-fake", ANTHROPIC_BASE_URL: fake.url });

/** Calls each tool in turn (one per round), then answers. */
function sequence(...tools: string[]): Responder {
  return (body) => {
    const done = body.messages.filter((m: { role: string; content: unknown }) => m.role === "assistant").length;
    if (done < tools.length)
      return {
        kind: "reply",
        blocks: [
          { type: "text", text: "Calling." },
          { type: "tool_use", name: tools[done], input: {} },
        ],
      };
    return { kind: "reply", blocks: [{ type: "text", text: "the model answered" }] };
  };
}

async function oneShot(tools: string[], server: Record<string, unknown>, extra: string[] = []) {
  fake.responder = sequence(...tools);
  const from = fake.requests.length;
  const refusedFrom = fake.refused.length;
  const r = await run(
    ["-p", "go", "--model", "anthropic:claude-test", "--config", configFile(tools.join("-"), server), ...extra],
    anthropic(),
  );
  const requests = fake.requests.slice(from);
  return { ...r, requests, bodies: requests.map((q) => q.raw).join("\n"), refused: fake.refused.slice(refusedFrom) };
}

test("-p, a failing tool then a good one: each next request valid, the model reads the server's message and no stderr", async () => {
  const r = await oneShot(["fails", "good"], brickJson());
  assert.equal(r.stdout.trim(), "the model answered", r.stderr);
  assert.equal(r.code, 1, "a failed call is exit 1");
  assert.deepEqual(r.refused, []);
  assert.equal(r.requests.length, 3);
  assert.ok(r.bodies.includes(SERVER_MESSAGE));
  assert.ok(!r.bodies.includes(STDERR_CANARY), "server stderr reached a model request");
  assert.match(r.stderr, /← fails failed \(server-error\): server brick, tool fails: /);
});

test("-p, a server that prints a secret on stderr, exits mid-call and cannot restart: the secret reaches no request body", async () => {
  const r = await oneShot(["leaks_and_exits", "good"], brickJson({ state: freshState() }));
  assert.equal(r.stdout.trim(), "the model answered", r.stderr);
  assert.deepEqual(r.refused, []);
  assert.equal(r.requests.length, 3);
  assert.match(r.bodies, /\(connection-closed\): server brick, tool leaks_and_exits/);
  assert.match(r.bodies, /\(connection-failed\): server brick, tool good: the host could not connect to the server/);
  assert.ok(!r.bodies.includes(STDERR_CANARY), "server stderr reached a model request");
});

test("-p with the offline model: the reply (what the model saw) has the server's message and never its stderr", async () => {
  for (const tool of ["fails", "leaks_and_exits"]) {
    const r = await run([
      "-p",
      `call ${tool} {}`,
      "--model",
      "offline",
      "--config",
      configFile(`offline-${tool}`, brickJson({ state: freshState() })),
    ]);
    assert.match(r.stdout, new RegExp(`${tool} reported an error to me: The call failed`), r.stderr);
    assert.ok(!r.stdout.includes(STDERR_CANARY), `the offline model saw the stderr: ${r.stdout}`);
    if (tool === "fails") assert.ok(r.stdout.includes(SERVER_MESSAGE));
  }
});

test("-p, a declined tool (not read-only, no --yes): an error result, the next request valid", async () => {
  const r = await oneShot(["write_note", "good"], brickJson());
  assert.equal(r.stdout.trim(), "the model answered", r.stderr);
  assert.deepEqual(r.refused, []);
  assert.match(
    r.requests[1].raw,
    /\(not-approved\): server brick, tool write_note: the user did not approve running this tool/,
  );
});

test("-p, an image the provider cannot decode: one refusal, a notice, the retry and the next round succeed", async () => {
  const r = await oneShot(["bad_image", "good"], brickJson());
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), "the model answered");
  assert.deepEqual(
    r.refused.map((x) => x.message),
    ["Could not process image"],
  );
  assert.equal(r.requests.length, 4, "tool request, refused, retried, last round");
  assert.match(
    r.stderr,
    /mcp-prism: the Anthropic API refused the request \(400: Could not process image\): 1 image from brick\/bad_image, replaced by a note for the model; retrying once \(the transcript keeps the original\)/,
  );
  assert.ok(!r.requests.at(-1)!.raw.includes(CORRUPT_PNG), "the refused image is not sent again");
});

test("-p, a server with 1 MB instructions and a 1 MB description: the request is bounded, one line per cut on stderr", async () => {
  fake.responder = () => ({ kind: "reply", blocks: [{ type: "text", text: "hi" }] });
  const from = fake.requests.length;
  const r = await run(
    ["-p", "hello", "--model", "anthropic:claude-test", "--config", configFile("huge", brickJson({ huge: true }))],
    anthropic(),
  );
  assert.equal(r.code, 0, r.stderr);
  const req = fake.requests[from];
  assert.ok(req.raw.length < 100_000, `${req.raw.length} bytes`);
  const lines = r.stderr.split("\n").filter((l) => l.startsWith("mcp-prism: server brick:"));
  assert.equal(lines.length, 2, r.stderr);
  assert.match(r.stderr, /server brick: its instructions \(1048576 characters\) were cut to 8000 for the model/);
  assert.match(
    r.stderr,
    /server brick: for the model, 1 tool description cut to 2000 characters; left out deep_schema \(its inputSchema nests deeper than 32 levels\), wide_schema \(its inputSchema is over 32 KB\)\n/,
  );
  assert.ok(!req.raw.includes("deep_schema") && !req.raw.includes("wide_schema"), "neither schema reaches the model");
  // --json: the same lines in the document's `notices`, stdout one JSON document.
  const j = await run(
    [
      "-p",
      "hello",
      "--json",
      "--model",
      "anthropic:claude-test",
      "--config",
      configFile("huge", brickJson({ huge: true })),
    ],
    anthropic(),
  );
  assert.equal(j.code, 0, j.stderr);
  const doc = JSON.parse(j.stdout);
  assert.deepEqual(
    doc.notices,
    lines.map((l) => l.slice("mcp-prism: ".length)),
  );
});
