// Hostile servers through the real CLI (`node bin/mcp-prism.js`, built): for every fault, `call
// --json` prints one valid document with the rule and nothing routed, and the human output shows
// ONE line naming the server, the tool and the rule, with no terminal control bytes and no canary.
// Escape sequences in tool names/descriptions come out sanitized (human) or JSON-escaped (--json).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, ROOT, tempDir } from "../helpers/host-fixtures.js";
import {
  CANARY,
  DEFAULT_TIMEOUT_MS,
  ESC_NAME,
  FAULTS,
  HOSTILE_JS,
  SERVER,
  startHostileHttp,
  type Fault,
} from "../helpers/hostile.js";

const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
/** The CLI runs in parallel (node:test runs a suite's tests one by one unless told otherwise). */
const PARALLEL = { concurrency: 6 };

/** A config file for one server, per call timeout. */
function configFor(server: Record<string, unknown>): (timeoutMs?: number) => string {
  const files = new Map<number, string>();
  return (timeoutMs = DEFAULT_TIMEOUT_MS) => {
    let file = files.get(timeoutMs);
    if (!file) {
      file = join(tempDir(), "hostile.json");
      writeFileSync(
        file,
        JSON.stringify({
          mcpServers: { [SERVER]: server },
          limits: { callTimeoutMs: timeoutMs, discoverTimeoutMs: 15000 },
        }),
      );
      files.set(timeoutMs, file);
    }
    return file;
  };
}
const stdioConfig = configFor({ command: process.execPath, args: [HOSTILE_JS], cwd: ROOT });

/** Runs the CLI; a small pool keeps the machine responsive while the table runs in parallel. */
let running = 0;
const waiting: (() => void)[] = [];
async function cli(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  if (running >= 6) await new Promise<void>((r) => waiting.push(r));
  running++;
  try {
    return await new Promise((resolve) => {
      const child = spawn(process.execPath, [BIN, ...args], {
        cwd: tempDir(),
        env: { ...process.env, XDG_CONFIG_HOME: tempDir() },
      });
      let out = "";
      let err = "";
      child.stdout.on("data", (c) => (out += c));
      child.stderr.on("data", (c) => (err += c));
      const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
      child.on("close", (code) => {
        clearTimeout(timer);
        resolve({ code, out, err });
      });
    });
  } finally {
    running--;
    waiting.shift()?.();
  }
}

function callArgs(f: Fault, config: (timeoutMs?: number) => string, json: boolean): string[] {
  const args = ["call", f.tool, "--config", config(f.timeoutMs)];
  if (f.args) args.push("--args", JSON.stringify(f.args));
  for (const s of f.select ?? []) args.push("--select", s);
  if (json) args.push("--json");
  return args;
}

function checkJson(f: Fault, r: { code: number | null; out: string; err: string }): void {
  assert.equal(r.code, 1, r.err);
  const lines = r.out.trim().split("\n");
  assert.equal(lines.length, 1, "exactly one document");
  const doc = JSON.parse(lines[0]);
  assert.equal(doc.server, SERVER);
  assert.equal(doc.tool, f.tool);
  assert.equal(doc.error.rule, f.rule, doc.error.message);
  // The error as data, and its one line rendered from the fields.
  assert.equal(doc.error.server, SERVER);
  assert.equal(doc.error.tool, f.tool);
  assert.match(doc.error.detail, f.detail);
  assert.equal(doc.error.message, `server ${SERVER}, tool ${f.tool}: ${doc.error.detail}`);
  assert.deepEqual(doc.routed, { model: [], user: [], programmatic: [], app: [] });
  assert.ok(!r.out.includes(CANARY) && !r.err.includes(CANARY));
}

function checkHuman(f: Fault, r: { code: number | null; out: string; err: string }): void {
  assert.equal(r.code, 1, r.err);
  assert.ok(!CONTROL.test(r.out) && !CONTROL.test(r.err), "no terminal control bytes");
  assert.ok(!r.out.includes(CANARY) && !r.err.includes(CANARY));
  const lines = r.out.split("\n").filter((l) => l.startsWith("✗"));
  assert.equal(lines.length, 1, r.out);
  const lead = `✗ rejected [${f.rule}]: server ${SERVER}, tool ${f.tool}: `;
  assert.ok(lines[0].startsWith(lead), lines[0]);
  assert.match(lines[0].slice(lead.length), f.detail);
  assert.match(r.out, /^nothing was routed\.$/m);
}

describe("hostile server through `mcp-prism call` over stdio", PARALLEL, () => {
  for (const f of FAULTS.filter((x) => x.transports.includes("stdio"))) {
    test(`${f.fault}: --json and human output`, async () => {
      const [json, human] = await Promise.all([
        cli(callArgs(f, stdioConfig, true)),
        cli(callArgs(f, stdioConfig, false)),
      ]);
      checkJson(f, json);
      checkHuman(f, human);
    });
  }
});

describe("hostile server through `mcp-prism call` over HTTP", PARALLEL, () => {
  let http: Awaited<ReturnType<typeof startHostileHttp>>;
  let httpConfig: (timeoutMs?: number) => string;
  before(async () => {
    http = await startHostileHttp();
    httpConfig = configFor({ url: http.url });
  });
  after(() => http.close());
  for (const f of FAULTS.filter((x) => x.transports.includes("http"))) {
    test(`${f.fault}: --json`, async () => checkJson(f, await cli(callArgs(f, httpConfig, true))));
  }
});

describe("escape sequences in tool names and descriptions", PARALLEL, () => {
  test("`tools` human output shows them neutralized; --json keeps them JSON-escaped and valid", async () => {
    const [human, json] = await Promise.all([
      cli(["tools", "--config", stdioConfig()]),
      cli(["tools", "--config", stdioConfig(), "--json"]),
    ]);
    assert.equal(human.code, 0, human.err);
    assert.ok(!CONTROL.test(human.out), "no control bytes in the human listing");
    assert.match(human.out, /esc␛\[31m_red␛\]0;pwned␇/);
    assert.match(
      human.out,
      /no_assistant_content rejected \[assistant-content-required\]: server hx, tool no_assistant_content: .*\[assistant-content-required\]/,
    );
    assert.equal(json.code, 0, json.err);
    assert.ok(!CONTROL.test(json.out), "JSON escapes control characters itself");
    const doc = JSON.parse(json.out);
    assert.ok(
      JSON.stringify(doc).includes(JSON.stringify(ESC_NAME).slice(1, -1)),
      "the raw name survives inside the JSON",
    );
    const described = doc.servers[0].tools.find((t: { name: string }) => t.name === ESC_NAME);
    assert.equal(
      described.description,
      "desc \u001b[2J\u001b]52;c;cHduZWQ=\u0007 \u009b31m",
      "the description as sent, C1 CSI included (escaped on the wire)",
    );
  });

  test("`call` on an escape-named tool: human output sanitized, --json valid", async () => {
    const [human, json] = await Promise.all([
      cli(["call", ESC_NAME, "--config", stdioConfig()]),
      cli(["call", ESC_NAME, "--config", stdioConfig(), "--json"]),
    ]);
    assert.equal(human.code, 0, human.err);
    assert.ok(!CONTROL.test(human.out));
    assert.match(human.out, /^esc␛\[31m_red␛\]0;pwned␇ on hx/m);
    assert.equal(json.code, 0, json.err);
    assert.equal(JSON.parse(json.out).tool, ESC_NAME);
  });
});
