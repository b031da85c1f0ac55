// protocol/reply-check.ts and protocol/sse-lines.ts as tables: which incoming value is delivered,
// refused for which pending request (and why), or only logged; how SSE lines split.
import { test } from "node:test";
import assert from "node:assert/strict";
import { checkIncoming, stripBom, type Incoming } from "../../src/protocol/reply-check.js";
import { splitSseLines, sseField } from "../../src/protocol/sse-lines.js";

const OK = { outputs: [] };
const stdio = (v: unknown, pending: (string | number)[] = [1]) => checkIncoming(v, { pending });
const http = (v: unknown, exchange: string | number = 7) => checkIncoming(v, { pending: [exchange], exchange });
const refused = (r: Incoming): { ids: (string | number)[]; detail: string } => {
  assert.equal(r.kind, "refuse", JSON.stringify(r));
  return r as Extract<Incoming, { kind: "refuse" }>;
};

test("well-formed replies and server messages are delivered with only their JSON-RPC members", () => {
  assert.deepEqual(stdio({ jsonrpc: "2.0", id: 1, result: OK, extra: true }), {
    kind: "message",
    message: { jsonrpc: "2.0", id: 1, result: OK },
  });
  assert.deepEqual(stdio({ jsonrpc: "2.0", id: 1, error: { code: -1, message: "m", data: 3 } }), {
    kind: "message",
    message: { jsonrpc: "2.0", id: 1, error: { code: -1, message: "m", data: 3 } },
  });
  assert.deepEqual(
    stdio({ jsonrpc: "2.0", method: "notifications/progress", params: { progress: 1 } }).kind,
    "message",
  );
  assert.deepEqual(stdio({ jsonrpc: "2.0", id: "s1", method: "ping" }), {
    kind: "message",
    message: { jsonrpc: "2.0", method: "ping", id: "s1" },
  });
});

test("each broken rule of a reply to a pending request refuses that request, naming what was wrong", () => {
  const table: [unknown, RegExp][] = [
    [{ jsonrpc: "2.0", id: 1, result: null }, /^"result" is null, not an object$/],
    [{ jsonrpc: "2.0", id: 1, result: [1] }, /^"result" is an array, not an object$/],
    [{ jsonrpc: "2.0", id: 1, result: 5 }, /^"result" is a number, not an object$/],
    [
      { jsonrpc: "2.0", id: 1, result: OK, error: { code: 1, message: "m" } },
      /^the reply has both "result" and "error"$/,
    ],
    [{ jsonrpc: "2.0", id: 1 }, /^the reply has neither "result" nor "error"$/],
    [{ jsonrpc: "2.0", id: 1, error: "boom" }, /^"error" is a string, not an object$/],
    [{ jsonrpc: "2.0", id: 1, error: { code: 1.5, message: "m" } }, /^"error\.code" is a number, not an integer$/],
    [{ jsonrpc: "2.0", id: 1, error: { code: 1 } }, /^"error\.message" is missing, not a string$/],
    [{ jsonrpc: "1.0", id: 1, result: OK }, /^"jsonrpc" is "1\.0", not "2\.0"$/],
    [{ id: 1, result: OK }, /^"jsonrpc" is missing, not "2\.0"$/],
    [{ jsonrpc: "2.0", id: 1, method: "x", result: OK }, /^the reply has "method" as well as "result"$/],
    [{ jsonrpc: "2.0", id: "1", result: OK }, /^the reply's id "1" is a string; the request's id is 1$/],
    [[{ jsonrpc: "2.0", id: 1, result: OK }], /^the reply is a JSON array \(a batch\), not one JSON-RPC message$/],
  ];
  for (const [value, detail] of table) {
    const r = refused(stdio(value, [1, 2]));
    assert.deepEqual(r.ids, [1], JSON.stringify(value));
    assert.match(r.detail, detail);
  }
  assert.deepEqual(
    refused(stdio({ jsonrpc: "2.0", id: 2, result: "x" }, ["2", 2])).ids,
    [2],
    "the exact id wins over a same-text one",
  );
});

test("a result's _meta is checked by hand as the SDK's result schema would (which drops the reply silently)", () => {
  const TASK = "io.modelcontextprotocol/related-task";
  for (const [meta, detail] of [
    [5, /^result\._meta: is a number, not an object$/],
    [[], /^result\._meta: is an array/],
    [{ progressToken: 1.5 }, /^result\._meta\.progressToken: is a number, not a string or integer$/],
    [{ progressToken: null }, /^result\._meta\.progressToken: is null/],
    [{ [TASK]: "t1" }, /related-task: is a string, not an object$/],
    [{ [TASK]: { taskId: 3 } }, /related-task\.taskId: is a number, not a string$/],
  ] as const) {
    assert.match(
      refused(stdio({ jsonrpc: "2.0", id: 1, result: { ...OK, _meta: meta } })).detail,
      detail,
      JSON.stringify(meta),
    );
  }
  for (const meta of [
    {},
    { progressToken: "p" },
    { progressToken: 7, [TASK]: { taskId: "t1" }, "com.example/x": [1] },
  ]) {
    assert.equal(
      stdio({ jsonrpc: "2.0", id: 1, result: { ...OK, _meta: meta } }).kind,
      "message",
      JSON.stringify(meta),
    );
  }
});

test("on stdio, what names no pending request is only logged (a late reply, junk, a malformed server request)", () => {
  for (const v of [
    { jsonrpc: "2.0", id: 99, result: OK },
    { jsonrpc: "2.0", id: 99, result: null },
    { jsonrpc: "2.0", result: OK },
    { jsonrpc: "2.0", id: null, error: { code: -32700, message: "parse error" } },
    "text",
    null,
    [1, 2, 3],
    { jsonrpc: "2.0", method: 5 },
    { jsonrpc: "2.0", method: "x", params: [1] },
    { jsonrpc: "2.0", method: "x", id: {} },
  ]) {
    assert.equal(stdio(v).kind, "ignore", JSON.stringify(v));
  }
});

test("on an HTTP exchange, whatever reply arrives there answers its request", () => {
  assert.match(
    refused(http({ jsonrpc: "2.0", id: 8, result: OK })).detail,
    /^the reply's id 8 is not the request's id 7$/,
  );
  assert.match(refused(http({ jsonrpc: "2.0", result: OK })).detail, /^the reply has no id$/);
  assert.match(refused(http("text")).detail, /^the reply is a string, not a JSON-RPC message$/);
  assert.deepEqual(refused(http([])).ids, [7]);
  // An error with a null id: the server could not read this exchange's request.
  assert.deepEqual(http({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "p" } }), {
    kind: "message",
    message: { jsonrpc: "2.0", id: 7, error: { code: -32700, message: "p" } },
  });
  assert.equal(
    http({ jsonrpc: "2.0", method: "notifications/message", params: {} }).kind,
    "message",
    "a notification on the stream is not the reply",
  );
});

test("a leading BOM is dropped, and only a leading one", () => {
  assert.equal(stripBom("\ufeff{}"), "{}");
  assert.equal(stripBom("{}\ufeff"), "{}\ufeff");
  assert.equal(stripBom(""), "");
});

test("SSE lines end with CRLF, LF or a lone CR; a CR last in a chunk waits for the next", () => {
  assert.deepEqual(splitSseLines("a\r\nb\nc\rd", false), { lines: ["a", "b", "c"], rest: "d" });
  assert.deepEqual(splitSseLines("data: x\r", false), { lines: [], rest: "data: x\r" });
  assert.deepEqual(splitSseLines("data: x\r", true), { lines: ["data: x"], rest: "" });
  assert.deepEqual(splitSseLines("a\r\r\n\n", false), { lines: ["a", "", ""], rest: "" });
  // Split mid-CRLF: the same lines as unsplit.
  const first = splitSseLines("data: 1\r", false);
  assert.deepEqual(splitSseLines(first.rest + "\n\r\n", false).lines, ["data: 1", ""]);
  assert.deepEqual(sseField("data: x"), ["data", "x"]);
  assert.deepEqual(sseField("data:x "), ["data", "x "]);
  assert.deepEqual(sseField("data"), ["data", ""]);
  assert.equal(sseField(": keep-alive"), undefined);
});
