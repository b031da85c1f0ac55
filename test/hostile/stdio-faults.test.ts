// Faults only a stdio server can commit: junk on stdout, a stderr flood, exiting mid-call (state,
// restart with backoff), and the transport's reply-size limit in isolation.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Host } from "../../src/host/host.js";
import { findReplyId, LimitedStdioTransport } from "../../src/host/connection/stdio-transport.js";
import { RESULT_TOO_LARGE_CODE } from "../../src/host/connection/size-limit.js";
import { TailBuffer } from "../../src/host/connection/tail-buffer.js";
import { COMMANDS, dispatch, type CommandHost } from "../../src/ui/commands/index.js";
import { SessionStore } from "../../src/ui/state.js";
import { config } from "../helpers/host-fixtures.js";
import { ESC_NAME, hostileStdio, SERVER } from "../helpers/hostile.js";

describe("stdio-only faults", () => {
  let host: Host;
  before(async () => {
    host = await Host.start({ config: config({ [SERVER]: hostileStdio() }, { callTimeoutMs: 5000 }) });
  });
  after(() => host.close());
  const status = () => host.servers()[0];

  test("non-JSON lines on stdout are logged as diagnostics; the reply after them is routed", async () => {
    const out = await host.call("junk_stdout", {});
    assert.ok(out.ok, out.ok ? "" : out.error.message);
    assert.equal(out.routed.model.length, 1);
    const diag = status().diagnostics;
    assert.ok(
      diag.some((d) => d.includes("not JSON-RPC: this is not JSON")),
      diag.join("\n"),
    );
    assert.ok(
      diag.some((d) => d.includes("not JSON-RPC: [1,2,3]")),
      "valid JSON that is not JSON-RPC is ignored too",
    );
    assert.equal(status().state, "connected");
  });

  test("a stderr flood (2 MB of lines + 2 MB without a newline) is kept as a bounded tail", async () => {
    const out = await host.call("stderr_flood", {});
    assert.ok(out.ok, out.ok ? "" : out.error.message);
    await new Promise((r) => setTimeout(r, 200)); // stderr is a separate pipe
    const tail = status().stderr;
    assert.ok(tail.length <= 20, `${tail.length} lines kept`);
    for (const line of tail) assert.ok(line.length <= 520, `a kept line is ${line.length} chars`);
    assert.ok(
      tail.some((l) => l.startsWith("NNNN")),
      "the newline-less flood is cut into bounded lines",
    );
  });

  test("/servers in the app shows the real server's diagnostics and stderr tail, neutralized", async () => {
    const store = new SessionStore();
    const commandHost: CommandHost = host; // the Host is the UI's command host, no adapter
    await dispatch("/servers", {
      store,
      host: commandHost,
      width: () => 120,
      quit: () => {},
      cwd: ".",
      commands: COMMANDS,
    });
    const notice = store
      .getState()
      .finished.flatMap((t) => t.items)
      .find((i) => i.kind === "notice") as { text: string } | undefined;
    assert.ok(notice, "/servers answered");
    // The Host itself is the command host: its rejected tools are listed before the tails.
    assert.match(
      notice.text,
      /^hx {2}2026-12-01 {2}connected\n {2}tools: \d+ usable, 2 rejected; set aside:\n(?: {4}✗ [^\n]*\n){2} {2}diagnostics \(last 3 of \d+ kept\):/,
    );
    assert.match(notice.text, /\n {2}stderr \(last 3 of \d+ kept\):\n {4}NNNN/);
    assert.ok(!notice.text.includes("\u001b"), "no raw escape sequence from the server reaches the screen");
  });

  test("escape sequences in tool names and descriptions reach the host raw (sanitized only at draw time)", async () => {
    const tool = (await host.tools()).find((t) => t.name === ESC_NAME);
    assert.ok(tool, "the tool is listed");
    assert.match(tool.description!, /\u001b\[2J/);
    const out = await host.call(ESC_NAME, {});
    assert.ok(out.ok, out.ok ? "" : out.error.message);
  });

  test("a process that exits mid-call: connection-closed naming server and tool, state disconnected, restarted on the next call", async () => {
    const out = await host.call("exit_mid_call", {});
    assert.ok(!out.ok);
    assert.equal(out.error.rule, "connection-closed");
    assert.match(
      out.error.message,
      /^server hx, tool exit_mid_call: the server closed the connection during the call; it will be restarted on the next call$/,
    );
    assert.equal(status().state, "disconnected");
    assert.match(status().error!, /exited; it will be restarted/);
    const t0 = performance.now();
    const next = await host.call("good", {});
    assert.ok(next.ok, next.ok ? "" : next.error.message);
    assert.ok(performance.now() - t0 >= 100, "the restart waits a backoff first");
    assert.equal(status().state, "connected");
  });

  test("concurrent calls after an exit share one restart", async () => {
    assert.ok(!(await host.call("exit_mid_call", {})).ok);
    const outs = await Promise.all([host.call("good", {}), host.call("good", {}), host.call("good", {})]);
    for (const o of outs) assert.ok(o.ok, o.ok ? "" : o.error.message);
    assert.equal(status().state, "connected");
  });
});

describe("LimitedStdioTransport", () => {
  test("finds the reply id at the start or at the end of an oversized line", () => {
    assert.equal(findReplyId('{"jsonrpc":"2.0","id":7,"result":{"outputs":[', ""), 7);
    assert.equal(findReplyId('{"id":"a\\"b","result":', ""), 'a"b');
    assert.equal(findReplyId('{"result":{"items":[{"id":1}', 'xxx"]}]}},"jsonrpc":"2.0","id":12}'), 12);
    assert.equal(findReplyId('{"result":{"x":[', '"}]},"id":3,"jsonrpc":"2.0"}\r'), 3);
    assert.equal(findReplyId('{"result":{"items":[{"id":1}', "xxx"), undefined);
  });

  test("a line over the limit is answered locally, skipped, and the next line still parses", async () => {
    // A real child: `cat` echoes what we send, so we control stdout byte for byte.
    const t = new LimitedStdioTransport({ command: "cat", args: [] }, { maxLineBytes: 1000 });
    const got: any[] = [];
    t.onmessage = (m) => got.push(m);
    await t.start();
    const big = JSON.stringify({ jsonrpc: "2.0", result: { pad: "x".repeat(5000) }, id: 41 });
    // Two requests in flight: the id must come from the end of the line.
    await t.send({ jsonrpc: "2.0", id: 41, method: "tools/call", params: {} } as any);
    await t.send({ jsonrpc: "2.0", id: 42, method: "ping" } as any);
    (t as any).child.stdin.write(big + "\n" + JSON.stringify({ jsonrpc: "2.0", id: 42, result: {} }) + "\n");
    for (let i = 0; i < 100 && got.filter((m) => !("method" in m)).length < 2; i++)
      await new Promise((r) => setTimeout(r, 20));
    await t.close();
    const replies = got.filter((m) => !("method" in m));
    assert.equal(replies[0].id, 41);
    assert.equal(replies[0].error.code, RESULT_TOO_LARGE_CODE);
    assert.match(replies[0].error.message, /^reply is \d+ bytes \(limit 1000\)$/);
    assert.deepEqual(replies[1], { jsonrpc: "2.0", id: 42, result: {} });
    assert.equal((t as any).pieces.length, 0);
  });

  test("an oversized request from the server is skipped as a diagnostic, never taken for a reply", async () => {
    const diag: string[] = [];
    const t = new LimitedStdioTransport(
      { command: "cat", args: [] },
      { maxLineBytes: 1000, onDiagnostic: (d) => diag.push(d) },
    );
    const got: any[] = [];
    t.onmessage = (m) => got.push(m);
    await t.start();
    // cat echoes the request itself: a 5 kB line starting like a request, with a pending id.
    await t.send({ jsonrpc: "2.0", id: 5, method: "tools/call", params: { pad: "x".repeat(5000) } } as any);
    for (let i = 0; i < 100 && diag.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    await t.close();
    assert.deepEqual(got, []);
    assert.match(diag[0], /skipped a 5\d{3}-byte line over the 1000-byte limit/);
  });

  test("TailBuffer keeps at most 20 lines of at most ~500 chars, whatever is written", () => {
    const b = new TailBuffer();
    for (let i = 0; i < 1000; i++) b.write(`line ${i}\n`);
    b.write("y".repeat(100_000));
    b.write("z".repeat(10) + "\n" + "w".repeat(3));
    const lines = b.lines();
    assert.equal(lines.length, 20);
    assert.ok(lines.every((l) => l.length <= 520));
    assert.equal(lines.at(-1), "z".repeat(10));
    assert.ok(lines.some((l) => l.startsWith("line 99")));
  });
});
