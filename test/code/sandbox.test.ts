// The code-mode sandbox (src/code/runner.ts + sandbox-worker.ts): QuickJS in a worker thread.
// Escapes tried and refused, every limit hit and recovered from, a fault not felt by the next run.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { Sandbox, type CallHandler, type RunResult } from "../../src/code/runner.js";

const sandbox = new Sandbox();
after(() => sandbox.close());

const echo: CallHandler = async (tool, args) => ({ ok: true, value: { tool, args } });
const run = (code: string, opts: Partial<Parameters<Sandbox["run"]>[1]> = {}): Promise<RunResult> =>
  sandbox.run(code, { tools: ["echo"], call: echo, ...opts });

/** The sandbox still works after whatever the previous run did, in the same worker or a new one. */
async function stillWorks(): Promise<void> {
  const r = await run("const r = await tools.echo({ n: 1 }); return r.args.n + 1;");
  assert.equal(r.ok, true, JSON.stringify(r.error));
  assert.equal(r.value, 2);
}

test("a script calls tools, logs, and returns JSON", async () => {
  const r = await run(
    "const a = await tools.echo({ q: 'x' }); console.log('got', a, 3); console.warn('w'); return { a, list: [1, 'two', null] };",
  );
  assert.equal(r.ok, true, JSON.stringify(r.error));
  assert.deepEqual(r.value, { a: { tool: "echo", args: { q: "x" } }, list: [1, "two", null] });
  assert.deepEqual(r.logs, ['got {"tool":"echo","args":{"q":"x"}} 3', "warn: w"]);
  const none = await run("return undefined");
  assert.equal(none.value, null);
});

test("only tools, console and the language inside: no process, require, fetch, timers or host objects", async () => {
  const r = await run(
    "return [typeof process, typeof require, typeof fetch, typeof setTimeout, typeof setInterval, typeof queueMicrotask, typeof module, typeof Buffer, typeof WebAssembly, typeof __prismCall, typeof __prismDone, typeof std, typeof os]",
  );
  assert.deepEqual(r.value, Array(13).fill("undefined"));
  // The Function constructor builds functions of the sandbox's own realm.
  const ctor = await run("return constructor.constructor('return typeof process')()");
  assert.equal(ctor.value, "undefined");
  const viaTools = await run(
    "return tools.echo.constructor('return [typeof process, typeof globalThis.require, this === globalThis]')()",
  );
  assert.deepEqual(viaTools.value, ["undefined", "undefined", true]);
  const esc = await run("return tools.echo.constructor('return process')()");
  assert.equal(esc.ok, false);
  assert.equal(esc.error?.rule, "script-error");
  assert.match(esc.error!.message, /ReferenceError/);
  const imp = await run("return await import('node:fs')");
  assert.equal(imp.ok, false);
  // The global object holds the language's own built-ins plus tools, console and ToolError: the
  // host functions the prelude captured are gone, and no name reaches out of the sandbox.
  const names = await run("return Object.getOwnPropertyNames(globalThis)");
  const own = names.value as string[];
  for (const n of ["tools", "console", "ToolError", "JSON", "Promise"]) assert.ok(own.includes(n), n);
  for (const n of own)
    assert.doesNotMatch(n, /^__prism|^(process|require|module|fetch|setTimeout|Buffer|WebAssembly|std|os|global)$/, n);
  const hidden = await run("return [typeof globalThis.__prismCall, typeof Reflect.get(globalThis, '__prismLog')]");
  assert.deepEqual(hidden.value, ["undefined", "undefined"]);
});

test("prototype tricks on tools are refused or stay inside the sandbox", async () => {
  const r = await run(`
    const out = {};
    out.proto = Object.getPrototypeOf(tools);
    tools.echo = () => 'mine';
    tools.extra = 1;
    tools.echo.call = null;
    delete tools.echo;
    try { Object.defineProperty(tools, 'echo', { value: 1 }); } catch (e) { out.define = e.name; }
    try { Object.setPrototypeOf(tools, { x: 1 }); } catch (e) { out.setProto = e.name; }
    out.frozen = Object.isFrozen(tools) && Object.isFrozen(tools.echo);
    out.extra = typeof tools.extra;
    out.call = typeof tools.echo.call;
    Object.prototype.polluted = 'yes';
    out.still = (await tools.echo({ k: 1 })).args.k;
    return out;`);
  assert.equal(r.ok, true, JSON.stringify(r.error));
  assert.deepEqual(r.value, {
    proto: null,
    define: "TypeError",
    setProto: "TypeError",
    frozen: true,
    extra: "undefined",
    call: "function",
    still: 1,
  });
  // The next run gets a fresh context: nothing the last one changed is left.
  const next = await run("return [({}).polluted === undefined, typeof tools.extra]");
  assert.deepEqual(next.value, [true, "undefined"]);
});

test("a tool's failure is a ToolError {server, tool, rule, message}", async () => {
  const call: CallHandler = async (tool) => ({
    ok: false,
    error: { server: "demo", tool, rule: "tool-error", message: "no such order" },
  });
  const r = await sandbox.run(
    "try { await tools.lookup({}); } catch (e) { return [e instanceof ToolError, e.server, e.tool, e.rule, e.message]; }",
    { tools: ["lookup"], call },
  );
  assert.deepEqual(r.value, [true, "demo", "lookup", "tool-error", "no such order"]);
  const uncaught = await sandbox.run("await tools.lookup({})", { tools: ["lookup"], call });
  assert.equal(uncaught.error?.rule, "tool-error");
});

test("CPU time: a busy loop and an endless await chain both end", async () => {
  const busy = await run("while (true) {}", { limits: { cpuMs: 200 } });
  assert.equal(busy.error?.rule, "cpu-time");
  await stillWorks();
  const jobs = await run("while (true) await null;", { limits: { cpuMs: 200 } });
  assert.equal(jobs.error?.rule, "cpu-time");
  await stillWorks();
  const promises = await run("const spin = () => Promise.resolve().then(spin); spin(); await new Promise(() => {});", {
    limits: { cpuMs: 200 },
  });
  assert.equal(promises.error?.rule, "cpu-time");
  await stillWorks();
});

// Loops inside the engine's builtins never reach QuickJS's interrupt handler: the parent measures
// the worker's time inside QuickJS and ends the worker past the CPU limit. The wall clock is set
// far above it, so a "wall-time" end (today's main) fails the test, whatever the machine's load.
test("CPU time holds against loops inside the engine's builtins", async () => {
  const payloads = [
    "return Array.prototype.lastIndexOf.call({ length: 1e10 }, 1)",
    "return Array.prototype.includes.call({ length: 1e10 }, 1)",
    "return Array.prototype.indexOf.call({ length: 1e10 }, 1)",
    "return Array.prototype.fill.call({ length: 1e10 }, 1).length",
    "return Array.prototype.join.call({ length: 1e10 }, '').length",
    "const a = []; a[1e9] = 1; a[5] = 2; return Array.prototype.sort.call({ length: 4e9, 0: 2, 3e9: 1 }).length",
    "return Array.prototype.reverse.call({ length: 1e10 }).length",
    "return /(a+)+$/.test('a'.repeat(40) + '!')",
  ];
  for (const code of payloads) {
    const before = sandbox.started;
    const r = await run(code, { limits: { cpuMs: 200, wallMs: 30_000 } });
    // `fill` writes a property per index: on a fast machine the memory limit ends it before the
    // CPU limit does. Either bound holds; the wall clock (today's main) must never be what ends it.
    const bounds = code.includes(".fill.") ? ["cpu-time", "memory"] : ["cpu-time"];
    assert.ok(bounds.includes(r.error?.rule ?? ""), `${code}: ${JSON.stringify(r.error)}`);
    if (r.error?.rule === "cpu-time") assert.match(r.error.message, /more than 200 ms of CPU time/);
    await stillWorks();
    assert.ok(sandbox.started <= before + 1, "at most one fresh worker per run");
  }
});

test("wall clock: a run waiting on a tool past its time ends, the worker is replaced", async () => {
  const hang: CallHandler = (_t, _a, signal) =>
    new Promise((resolve) => signal.addEventListener("abort", () => resolve({ ok: true, value: 0 })));
  const before = sandbox.started;
  const r = await sandbox.run("await tools.slow({}); return 1", {
    tools: ["slow"],
    call: hang,
    limits: { wallMs: 300 },
  });
  assert.equal(r.error?.rule, "wall-time");
  assert.equal(r.fault, true);
  await stillWorks();
  assert.equal(sandbox.started, before + 1, "a fresh worker after the fault");
});

test("memory: the WebAssembly.Memory's maximum holds even with the runtime's allocator limit off", async () => {
  const cap = 32 * 1024 * 1024;
  const grow = "const a = []; while (true) a.push('x'.repeat(1 << 16) + a.length);";
  const r = await run(grow, { limits: { memoryBytes: cap, allocatorBytes: -1, cpuMs: 20_000 } });
  assert.equal(r.ok, false);
  assert.ok(r.error?.rule === "memory" || r.error?.rule === "sandbox-fault", JSON.stringify(r.error));
  assert.ok(r.wasmBytes !== undefined && r.wasmBytes <= cap, `memory grew to ${r.wasmBytes}`);
  await stillWorks();
  const limited = await run(grow, { limits: { memoryBytes: cap, cpuMs: 20_000 } });
  assert.equal(limited.error?.rule, "memory");
  await stillWorks();
});

test("stack size: deep recursion is a stack-size error", async () => {
  const r = await run("function f(n) { return f(n + 1) + 1; } return f(0);", { limits: { stackBytes: 64 * 1024 } });
  assert.equal(r.error?.rule, "stack-size");
  await stillWorks();
});

test("number of tool calls: past the limit a call is refused", async () => {
  const r = await run(
    "let ok = 0; for (let i = 0; i < 10; i++) { try { await tools.echo({ i }); ok++; } catch (e) { return [ok, e.rule]; } } return [ok];",
    { limits: { maxCalls: 3 } },
  );
  assert.deepEqual(r.value, [3, "too-many-calls"]);
});

test("sizes in and out: code, arguments, tool results, return value, console output", async () => {
  const code = await run(`return ${JSON.stringify("x".repeat(2000))}`, { limits: { maxCodeBytes: 1000 } });
  assert.equal(code.error?.rule, "code-too-large");
  const args = await run("try { await tools.echo({ big: 'y'.repeat(5000) }); } catch (e) { return e.rule; }", {
    limits: { maxArgsBytes: 1000 },
  });
  assert.equal(args.value, "arguments-too-large");
  const big: CallHandler = async () => ({ ok: true, value: "z".repeat(4000) });
  const input = await sandbox.run(
    "const a = await tools.big({}); try { await tools.big({}); } catch (e) { return [a.length, e.rule]; }",
    { tools: ["big"], call: big, limits: { maxInputBytes: 6000 } },
  );
  assert.deepEqual(input.value, [4000, "input-too-large"]);
  const value = await run("return 'v'.repeat(5000)", { limits: { maxValueBytes: 1000 } });
  assert.equal(value.error?.rule, "value-too-large");
  const logs = await run("for (let i = 0; i < 100; i++) console.log('line ' + i); return 1", {
    limits: { maxLogBytes: 100 },
  });
  assert.equal(logs.value, 1);
  assert.ok(logs.logs.join("").length <= 100);
  assert.ok((logs.logsCut ?? 0) > 80);
  const notJson = await run("return 10n");
  assert.equal(notJson.error?.rule, "value-not-json");
  const syntax = await run("return (");
  assert.equal(syntax.error?.rule, "script-error");
  assert.match(syntax.error!.message, /SyntaxError/);
  await stillWorks();
});

test("a script that awaits nothing that can finish ends at once", async () => {
  const r = await run("await new Promise(() => {});");
  assert.equal(r.error?.rule, "script-error");
});

test("cancelling a run ends it and the next one works", async () => {
  const ac = new AbortController();
  const hang: CallHandler = (_t, _a, signal) =>
    new Promise((resolve) => signal.addEventListener("abort", () => resolve({ ok: true, value: 0 })));
  const pending = sandbox.run("await tools.slow({}); return 1", { tools: ["slow"], call: hang, signal: ac.signal });
  setTimeout(() => ac.abort(), 100);
  const r = await pending;
  assert.equal(r.error?.rule, "cancelled");
  await stillWorks();
});
