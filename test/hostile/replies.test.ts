// Replies a client can refuse at once (test/fixtures/bad-reply-server.mjs), through the real Host
// over stdio and HTTP and through the built CLI: each fails its call at once with malformed-reply
// naming what was wrong — with a 60 s call timeout, so waiting for the timeout would show up as a
// bounded wait running out — and the next call on the same connection succeeds. CR-only SSE line
// ends and a UTF-8 BOM before the first message are tolerated (both are valid input).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Host } from "../../src/host/host.js";
import type { ServerConfig } from "../../src/host/config/config.js";
import { BIN, config, ROOT, tempDir } from "../helpers/host-fixtures.js";
import { waitForListeningUrl } from "../helpers/listening.js";

const FIXTURE = join(ROOT, "test", "fixtures", "bad-reply-server.mjs");
const CALL_TIMEOUT_MS = 60_000;
/** The test's own bound on one refused call: far under the call timeout. */
const FAST_MS = 15_000;
const S = "br";

/** "legacy": a 2025-11-25 server over HTTP, read by the SDK's client transport. */
type Transport = "stdio" | "http" | "legacy";
interface Bad {
  tool: string;
  detail: RegExp;
  transports: Transport[];
}
const BOTH: Transport[] = ["stdio", "http", "legacy"];
const HTTP: Transport[] = ["http", "legacy"];
const BAD: Bad[] = [
  { tool: "result_null", detail: /"result" is null, not an object/, transports: BOTH },
  { tool: "result_array", detail: /"result" is an array, not an object/, transports: BOTH },
  { tool: "result_string", detail: /"result" is a string, not an object/, transports: BOTH },
  { tool: "result_and_error", detail: /the reply has both "result" and "error"/, transports: BOTH },
  { tool: "error_not_object", detail: /"error" is a string, not an object/, transports: BOTH },
  { tool: "error_code_string", detail: /"error\.code" is a string, not an integer/, transports: BOTH },
  { tool: "neither", detail: /the reply has neither "result" nor "error"/, transports: BOTH },
  { tool: "wrong_jsonrpc", detail: /"jsonrpc" is "1\.0", not "2\.0"/, transports: BOTH },
  { tool: "id_type_change", detail: /the reply's id "\d+" is a string; the request's id is \d+/, transports: BOTH },
  { tool: "bad_meta", detail: /result\._meta: /, transports: BOTH },
  { tool: "batch", detail: /the reply is a JSON array \(a batch\), not one JSON-RPC message/, transports: BOTH },
  { tool: "wrong_id", detail: /the reply's id 1000000 is not the request's id \d+/, transports: HTTP },
  { tool: "notification_body", detail: /the reply body is no response to the request/, transports: HTTP },
  { tool: "sse_no_response", detail: /the SSE stream ended without a response to the request/, transports: HTTP },
];

function stdio(...flags: string[]): ServerConfig {
  return { kind: "stdio", command: process.execPath, args: [FIXTURE, ...flags], cwd: ROOT };
}

async function startHttp(...flags: string[]): Promise<{ url: string; close(): Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, [FIXTURE, "--http", "0", ...flags], {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "pipe"],
  });
  const { url } = await waitForListeningUrl(child, "bad-reply server", 15_000);
  return {
    url,
    close: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/** `promise`, or a failure naming `what` once `ms` pass (the call timeout is far longer). */
async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: still waiting after ${ms} ms`)), ms)),
  );
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

async function goodCall(host: Host): Promise<void> {
  const out = await within(FAST_MS, "good", host.call("good", {}));
  assert.ok(out.ok, out.ok ? "" : out.error.message);
  assert.equal(out.routed.model.length, 1);
}

for (const transport of BOTH) {
  describe(`replies refused at once over ${transport}`, () => {
    let host: Host;
    let close = async () => {};
    before(async () => {
      let server: ServerConfig = stdio();
      if (transport !== "stdio") {
        const http = await startHttp(...(transport === "legacy" ? ["--era", "legacy"] : []));
        close = http.close;
        server = { kind: "http", url: http.url };
      }
      host = await Host.start({ config: config({ [S]: server }, { callTimeoutMs: CALL_TIMEOUT_MS }), eraCache: false });
      const status = host.servers()[0];
      assert.equal(status.state, "connected", status.error);
      assert.equal(status.era === "legacy", transport === "legacy");
    });
    after(async () => {
      await host.close();
      await close();
    });

    for (const b of BAD.filter((x) => x.transports.includes(transport))) {
      test(`${b.tool} → malformed-reply at once; the next call succeeds`, async () => {
        const out = await within(FAST_MS, b.tool, host.call(b.tool, {}));
        assert.equal(out.ok, false);
        if (out.ok) return;
        assert.equal(out.error.rule, "malformed-reply", out.error.message);
        const lead = `server ${S}, tool ${b.tool}: refused the reply to tools/call: `;
        assert.ok(out.error.message.startsWith(lead), out.error.message);
        assert.match(out.error.message.slice(lead.length), b.detail);
        assert.ok(!out.error.message.includes("\n"), "one line");
        await goodCall(host);
        assert.equal(host.servers()[0].state, "connected");
      });
    }

    test("a server's own -32000 error is its error, not a closed connection", async () => {
      const out = await within(FAST_MS, "server_error_32000", host.call("server_error_32000", {}));
      assert.equal(out.ok, false);
      if (out.ok) return;
      assert.equal(out.error.rule, "server-error", out.error.message);
      assert.match(out.error.message, /upstream rate limit, try again in 30 s/);
      assert.equal(host.servers()[0].state, "connected");
      await goodCall(host);
    });

    if (transport === "stdio") {
      test("a reply whose id matches no request is logged and ignored; the real reply after it is used", async () => {
        const out = await within(FAST_MS, "wrong_id", host.call("wrong_id", {}));
        assert.ok(out.ok, out.ok ? "" : out.error.message);
        const diag = host.servers()[0].diagnostics;
        assert.ok(
          diag.some((d) => d.includes("(a reply with id 1000000, which matches no request in flight)")),
          diag.join("\n"),
        );
      });

      test("a log notification nested 100,000 levels deep is kept as one line naming it; the call's reply is used", async () => {
        const out = await within(FAST_MS, "deep_notification", host.call("deep_notification", {}));
        assert.ok(out.ok, out.ok ? "" : out.error.message);
        const logs = host.logs(S).map((l) => l.text);
        assert.ok(
          logs.some((t) => /^⟨data nested deeper than \d+ levels⟩$/.test(t)),
          logs.join("\n"),
        );
        await goodCall(host);
      });
    }
  });
}

describe("a refused reply while connecting", () => {
  for (const transport of ["stdio", "legacy"] as const) {
    test(`${transport}: initialize answered with "result": null fails the connection at once, naming the rule`, async () => {
      const http = transport === "legacy" ? await startHttp("--era", "legacy", "--bad-init") : undefined;
      const server: ServerConfig = http ? { kind: "http", url: http.url } : stdio("--era", "legacy", "--bad-init");
      try {
        const host = await within(
          FAST_MS,
          "connect",
          Host.start({ config: config({ [S]: server }, { callTimeoutMs: CALL_TIMEOUT_MS }), eraCache: false }),
        );
        try {
          const status = host.servers()[0];
          assert.equal(status.state, "failed");
          assert.match(
            status.error ?? "",
            /^server br: refused the reply to initialize: "result" is null, not an object/,
          );
          const out = await within(FAST_MS, "call", host.call("good", {}));
          assert.ok(
            !out.ok && out.error.message.includes('refused the reply to initialize: "result" is null'),
            JSON.stringify(out),
          );
        } finally {
          await host.close();
        }
      } finally {
        await http?.close();
      }
    });
  }
});

describe("valid input that used to fail: tolerated", () => {
  test("stdio: a UTF-8 BOM before the first message (the discover reply)", async () => {
    const host = await Host.start({
      config: config({ [S]: stdio("--bom") }, { callTimeoutMs: CALL_TIMEOUT_MS }),
      eraCache: false,
    });
    try {
      assert.equal(host.servers()[0].state, "connected", host.servers()[0].error);
      await goodCall(host);
    } finally {
      await host.close();
    }
  });

  for (const flags of [
    ["--bom"],
    ["--sse", "cr"],
    ["--sse", "lf"],
    ["--era", "legacy", "--bom"],
    ["--era", "legacy", "--sse", "cr"],
  ]) {
    test(`HTTP ${flags.join(" ")}: connects, lists and calls; a bad reply is still refused`, async () => {
      const http = await startHttp(...flags);
      const host = await Host.start({
        config: config({ [S]: { kind: "http", url: http.url } }, { callTimeoutMs: CALL_TIMEOUT_MS }),
        eraCache: false,
      });
      try {
        assert.equal(host.servers()[0].state, "connected", host.servers()[0].error);
        assert.ok((await host.tools()).some((t) => t.name === "good"));
        await goodCall(host);
        const out = await within(FAST_MS, "result_null", host.call("result_null", {}));
        assert.ok(!out.ok && out.error.rule === "malformed-reply", JSON.stringify(out));
        await goodCall(host);
      } finally {
        await host.close();
        await http.close();
      }
    });
  }
});

/** The built CLI; killed (and the test failed) if it outlives `FAST_MS`. */
function cli(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: tempDir(),
      env: { ...process.env, XDG_CONFIG_HOME: tempDir() },
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (c) => (out += c));
    child.stderr.on("data", (c) => (err += c));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(
        new Error(
          `mcp-prism ${args.join(" ")}: still running after ${FAST_MS} ms (call timeout ${CALL_TIMEOUT_MS} ms)`,
        ),
      );
    }, FAST_MS);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
  });
}

function configFile(server: Record<string, unknown>): string {
  const file = join(tempDir(), "bad-reply.json");
  writeFileSync(
    file,
    JSON.stringify({
      mcpServers: { [S]: server },
      limits: { callTimeoutMs: CALL_TIMEOUT_MS, discoverTimeoutMs: 15_000 },
    }),
  );
  return file;
}

describe("replies refused at once through `mcp-prism call`", { concurrency: 4 }, () => {
  let http: Awaited<ReturnType<typeof startHttp>>;
  let files: Record<"stdio" | "http", string>;
  before(async () => {
    http = await startHttp();
    files = {
      stdio: configFile({ command: process.execPath, args: [FIXTURE], cwd: ROOT }),
      http: configFile({ url: http.url }),
    };
  });
  after(() => http.close());

  for (const transport of ["stdio", "http"] as const) {
    for (const tool of [
      "result_null",
      "result_and_error",
      "batch",
      ...(transport === "http" ? ["sse_no_response"] : []),
    ]) {
      const b = BAD.find((x) => x.tool === tool)!;
      test(`${transport}: ${tool} → one line naming server, tool and rule; exit 1`, async () => {
        const [human, json] = await Promise.all([
          cli(["call", tool, "--config", files[transport]]),
          cli(["call", tool, "--config", files[transport], "--json"]),
        ]);
        assert.equal(human.code, 1, human.err);
        const lines = human.out.split("\n").filter((l) => l.startsWith("✗"));
        assert.equal(lines.length, 1, human.out);
        const lead = `✗ rejected [malformed-reply]: server ${S}, tool ${tool}: refused the reply to tools/call: `;
        assert.ok(lines[0].startsWith(lead), lines[0]);
        assert.match(lines[0].slice(lead.length), b.detail);
        assert.equal(json.code, 1, json.err);
        const doc = JSON.parse(json.out);
        assert.equal(doc.error.rule, "malformed-reply");
        assert.match(doc.error.message, b.detail);
      });
    }
  }

  test("stdio --bom and HTTP --sse cr: `call good` succeeds", async () => {
    const cr = await startHttp("--sse", "cr");
    try {
      const bom = configFile({ command: process.execPath, args: [FIXTURE, "--bom"], cwd: ROOT });
      const [a, b] = await Promise.all([
        cli(["call", "good", "--config", bom]),
        cli(["call", "good", "--config", configFile({ url: cr.url })]),
      ]);
      assert.equal(a.code, 0, a.out + a.err);
      assert.equal(b.code, 0, b.out + b.err);
      assert.match(a.out + b.out, /fine/);
    } finally {
      await cr.close();
    }
  });
});
