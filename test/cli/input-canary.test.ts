// Canaries: the REAL one-shot command (-p) with the REAL Anthropic SDK against the fake Messages
// API. A server's elicitation question and its sampling request (messages, system prompt) carry
// canaries; none reaches the conversation's model requests. The sampling request is its own
// model request (no tools, none of the user's prompt) and its answer goes only to the server.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, ROOT, tempDir } from "../helpers/host-fixtures.js";
import { FakeAnthropic, type Responder } from "../helpers/fake-anthropic.js";
import { INPUT_CANARIES, inputLegacyEntry } from "../fixtures/input-legacy-server.js";
import { startMrtrServer } from "../fixtures/input-mrtr-server.js";

const dir = tempDir();
const PROMPT = "PROMPT-MARK-5a1e please ask";
let fake: FakeAnthropic;
let mrtr: Awaited<ReturnType<typeof startMrtrServer>>;
let config: string;

/** The conversation calls TOOL once, then answers; a request without tools is a sampling request. */
const responder =
  (tool: string): Responder =>
  (body) => {
    if (!body.tools) return { kind: "reply", blocks: [{ type: "text", text: "a sampled summary" }] };
    const last = body.messages.at(-1);
    if (Array.isArray(last.content) && last.content.some((b: { type: string }) => b.type === "tool_result"))
      return { kind: "reply", blocks: [{ type: "text", text: "all done" }] };
    return { kind: "reply", blocks: [{ type: "tool_use", name: tool, input: {} }] };
  };

before(async () => {
  [fake, mrtr] = await Promise.all([new FakeAnthropic().start(), startMrtrServer()]);
  config = join(dir, "config.json");
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: {
        legacy: inputLegacyEntry(ROOT),
        mrtr: { url: mrtr.url },
      },
      limits: { connectWaitMs: 60_000 },
    }),
  );
});
after(async () => {
  await fake.stop();
  mrtr.close();
});

function run(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const env: Record<string, string | undefined> = {
    ...process.env,
    XDG_CONFIG_HOME: dir,
    ANTHROPIC_API_KEY: "sk-fake",
    ANTHROPIC_BASE_URL: fake.url,
  };
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("close", (code) => resolve({ code, out, err }));
  });
}

for (const [server, tools] of [
  ["legacy", ["ask", "sample"]],
  ["mrtr", ["ask"]],
] as const) {
  for (const tool of tools) {
    test(`${server} ${tool}: nothing the server asks reaches the conversation`, async () => {
      fake.responder = responder(tool);
      const from = fake.requests.length;
      const r = await run([
        "-p",
        PROMPT,
        "--model",
        "anthropic:claude-test",
        "--server",
        server,
        "--config",
        config,
        "--answer",
        '{"name":"Ada"}',
        "--yes",
        "--json",
      ]);
      assert.equal(r.code, 0, r.err + r.out);
      const doc = JSON.parse(r.out);
      assert.equal(doc.answer, "all done");
      const requests = fake.requests.slice(from);
      const conversation = requests.filter((q) => q.body.tools);
      const sampling = requests.filter((q) => !q.body.tools);
      assert.equal(conversation.length, 2);
      const said = conversation.map((q) => q.raw).join("\n");
      for (const c of Object.values(INPUT_CANARIES)) assert.ok(!said.includes(c), `${c} reached the conversation`);
      assert.ok(!said.includes("a sampled summary"), "the sampled text went only to the server");
      const result = JSON.stringify(doc.toolCalls[0].routed.model);
      if (tool === "sample" || server === "mrtr") {
        assert.equal(sampling.length, 1, "sampling is one model request of its own");
        const s = sampling[0];
        assert.ok(
          s.raw.includes(INPUT_CANARIES.sampling) && s.body.system === `Be brief ${INPUT_CANARIES.system}`,
          "the sampling request carries the server's messages and system prompt",
        );
        assert.ok(!s.raw.includes(PROMPT), "the sampling request carries nothing of the conversation");
        assert.match(result, /sampled 17 chars from claude-test/);
      } else {
        assert.equal(sampling.length, 0);
        assert.match(result, /action=accept/);
      }
      assert.ok(
        !requests
          .map((q) => q.raw)
          .join("\n")
          .includes(INPUT_CANARIES.elicitation),
        "the elicitation question reached no model at all",
      );
    });
  }
}
