// tools.<name>() through the host's call path against the REAL demo server (in process) and a
// toolkit server with a write tool: requestedOutputs [programmatic/structured] on the wire, the
// structuredContent handed to the script, ToolError on isError and refusals, approval for tools
// not marked read-only, tools without a programmatic/structured variant left out; the typed
// declarations (checked by the TypeScript compiler); what run_code gives the model.
import { CallGate } from "../../src/host/call/gate.js";
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import ts from "typescript";
import { createDemoServer } from "../../src/demo/server.js";
import { searchCustomers } from "../../src/demo/customers.js";
import { Host } from "../../src/host/host.js";
import { defineTool, ToolkitServer } from "../../src/server/index.js";
import { runScript, scriptTools } from "../../src/code/bridge.js";
import { declarationsFor, toolDeclaration } from "../../src/code/declarations.js";
import { MAX_MODEL_CHARS, modelText, runCodeTool } from "../../src/code/run-code.js";
import type { ToolEntry } from "../../src/host/types.js";
import { config } from "../helpers/host-fixtures.js";
import { memoryServers } from "../helpers/in-memory.js";

const writes: unknown[] = [];
const note = defineTool<{ text: string }, { text: string }>({
  name: "save_note",
  description: "Saves a note (not read-only).",
  inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  outputVariants: [
    { audience: "assistant", format: "content", project: (r) => [{ type: "text", text: `saved ${r.text}` }] },
    {
      audience: "programmatic",
      format: "structured",
      schema: { type: "object", properties: { saved: { type: "string" } }, required: ["saved"] },
      project: (r) => ({ saved: r.text }),
    },
  ],
  run: (a) => {
    writes.push(a);
    return { text: a.text };
  },
});
const notes = () => new ToolkitServer({ info: { name: "notes", version: "1" }, tools: [note] });

const memory = memoryServers({ demo: createDemoServer(), notes: notes() });
let host: Host;
before(async () => {
  host = await Host.start({
    config: config(memory.servers),
    mode: "code",
    transport: memory.transport,
    eraCache: false,
  });
});
after(() => host.close());

const PAGER = `
let cursor; const counts = {}; const all = [];
do {
  const page = await tools.search_customers({ query: "enterprise", limit: 40, ...(cursor ? { cursor } : {}) });
  for (const c of page.items) { counts[c.region] = (counts[c.region] ?? 0) + 1; all.push(c); }
  cursor = page.nextCursor;
} while (cursor);
return { counts, recent: all.slice(0, 5).map((c) => c.customerId) };`;

test("a script pages search_customers by nextCursor; each call requests programmatic/structured only", async () => {
  const from = memory.sent("demo").length;
  const r = await runScript(host, PAGER);
  assert.equal(r.ok, true, JSON.stringify(r.error));
  const all = searchCustomers("enterprise", 0, 100_000).all;
  const counts: Record<string, number> = {};
  for (const c of all) counts[c.region] = (counts[c.region] ?? 0) + 1;
  assert.deepEqual(r.value, { counts, recent: all.slice(0, 5).map((c) => c.customerId) });
  const pages = Math.ceil(all.length / 40);
  assert.ok(pages > 1);
  assert.equal(r.calls.length, pages);
  const sent = memory
    .sent("demo")
    .slice(from)
    .filter((m) => m.method === "tools/call");
  assert.equal(sent.length, pages);
  for (const m of sent)
    assert.deepEqual(m.params.requestedOutputs, [{ audience: "programmatic", format: "structured" }]);
  // Each inner outcome was routed as usual: the programmatic sink holds what the script read.
  for (const c of r.calls) assert.equal(c.outcome?.ok && c.outcome.routed.programmatic.length, 1);
});

test("an isError result and a refused call reject with a ToolError {server, tool, rule, message}", async () => {
  const r = await runScript(
    host,
    `
    const out = [];
    try { await tools.search_customers({ query: "x", cursor: "not-ours" }); } catch (e) { out.push([e instanceof ToolError, e.server, e.tool, e.rule, e.message]); }
    let deep = {}; for (let i = 0; i < 150; i++) deep = { deep };
    try { await tools.search_customers({ query: "x", deep }); } catch (e) { out.push([e instanceof ToolError, e.server, e.tool, e.rule]); }
    return out;`,
  );
  assert.equal(r.ok, true, JSON.stringify(r.error));
  const [isError, invalid] = r.value as unknown[][];
  assert.deepEqual(isError.slice(0, 4), [true, "demo", "search_customers", "tool-error"]);
  assert.match(String(isError[4]), /cursor/);
  // Refused by the host before sending (arguments nested past limits.maxJsonDepth).
  assert.deepEqual(invalid, [true, "demo", "search_customers", "too-deep"]);
});

test("a tool not marked read-only asks first: declined is a ToolError and nothing is sent", async () => {
  const from = memory.sent("notes").length;
  const asked: string[] = [];
  const declined = await runScript(host, "try { await tools.save_note({ text: 'a' }); } catch (e) { return e.rule; }", {
    gate: new CallGate({ ask: async (r) => (asked.push(r.tool), "no") }),
  });
  assert.equal(declined.value, "declined");
  assert.deepEqual(asked, ["save_note"]);
  assert.equal(
    memory
      .sent("notes")
      .slice(from)
      .filter((m) => m.method === "tools/call").length,
    0,
  );
  const none = await runScript(host, "try { await tools.save_note({ text: 'a' }); } catch (e) { return e.rule; }");
  assert.equal(none.value, "declined");
  const approved = await runScript(host, "return await tools.save_note({ text: 'b' })", {
    gate: new CallGate({ yes: true }),
  });
  assert.deepEqual(approved.value, { saved: "b" });
  assert.deepEqual(writes, [{ text: "b" }]);
});

test("a tool without a programmatic/structured variant gives {text, content}: assistant/content requested", async () => {
  const all = host.modelTools();
  const offered = scriptTools(all).map((t) => t.name);
  const without = all.find((t) => t.name === "legacy_weather")!;
  assert.ok(!without.variants.some((v) => v.audience === "programmatic" && v.format === "structured"));
  assert.ok(offered.includes(without.name));
  const from = memory.sent(without.server).length;
  const r = await runScript(
    host,
    `const r = await tools[${JSON.stringify(without.qualifiedName)}]({ city: "Oslo" }); return { keys: Object.keys(r), text: typeof r.text, blocks: r.content.map((b) => b.type) };`,
  );
  assert.equal(r.ok, true, JSON.stringify(r.error));
  const value = r.value as { keys: string[]; text: string; blocks: string[] };
  assert.deepEqual(value.keys, ["text", "content"]);
  assert.equal(value.text, "string");
  assert.ok(value.blocks.length > 0);
  const call = memory
    .sent(without.server)
    .slice(from)
    .find((m) => m.method === "tools/call");
  assert.deepEqual(call?.params?.requestedOutputs, [{ audience: "assistant", format: "content" }]);
});

/** Type-checks `body` against the declarations with the real TypeScript compiler. */
function typeErrors(decl: string, body: string): string[] {
  const file = "script.ts";
  const source = `${decl}\nexport {};\nasync function main() {\n${body}\n}\n`;
  const options: ts.CompilerOptions = {
    strict: true,
    target: ts.ScriptTarget.ES2022,
    lib: ["lib.es2022.d.ts"],
    noEmit: true,
    types: [],
  };
  const ch = ts.createCompilerHost(options);
  const get = ch.getSourceFile.bind(ch);
  ch.getSourceFile = (name, lang) => (name === file ? ts.createSourceFile(file, source, lang) : get(name, lang));
  const program = ts.createProgram([file], options, ch);
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}

test("declarations: typed from inputSchema and the programmatic/structured schema, doc comments, checked by tsc", () => {
  const decl = declarationsFor(host.modelTools());
  assert.match(decl, /declare const tools: \{/);
  assert.match(decl, /\/\*\* \[structured\] Search the customer directory/);
  assert.match(decl, /\/\/ server demo\n/);
  assert.match(decl, /search_customers\(args: \{/);
  assert.match(decl, /nextCursor\?: string;/);
  assert.match(decl, /region: "NA" \| "EMEA" \| "APAC" \| "LATAM";/);
  assert.match(decl, /\/\*\* nextCursor from a previous page \*\//);
  assert.match(decl, /\[text\][^\n]*legacy_weather\(args: [^\n]*\): Promise<ToolText>;/);
  assert.deepEqual(
    typeErrors(
      decl,
      "const p = await tools.search_customers({ query: 'x', limit: 5 }); const n: number = p.total; const r: string = p.items[0].region; const c: string | undefined = p.nextCursor; return [n, r, c];",
    ),
    [],
  );
  assert.ok(
    typeErrors(
      decl,
      "const p = await tools.search_customers({ query: 'x' }); const bad: number = p.items[0].displayName; return bad;",
    ).length > 0,
  );
  assert.ok(typeErrors(decl, "return tools.search_customers({ limit: 5 });").length > 0, "query is required");
  // Cached per tool list and per entry.
  assert.equal(declarationsFor(host.modelTools()), decl);
});

const entry = (inputSchema: Record<string, unknown>, out: Record<string, unknown>): ToolEntry =>
  ({
    name: "t",
    qualifiedName: "t-x",
    server: "s",
    era: "2026-12-01",
    description: "end */ here",
    inputSchema,
    variants: [{ audience: "programmatic", format: "structured", schema: out }],
  }) as unknown as ToolEntry;

test("declarations: $refs only within the document; cycles and remote refs are unknown; names quoted", () => {
  const out = {
    $defs: {
      Node: {
        type: "object",
        properties: { value: { type: "integer" }, next: { $ref: "#/$defs/Node" } },
        required: ["value"],
      },
    },
    type: "object",
    properties: {
      head: { $ref: "#/$defs/Node" },
      remote: { $ref: "https://example.com/schema.json" },
      tags: { type: "array", items: { type: ["string", "null"] } },
      "odd-key": { const: 3 },
    },
  };
  const d = toolDeclaration(
    entry({ type: "object", properties: { q: { anyOf: [{ type: "string" }, { type: "number" }] } } }, out),
  );
  assert.match(d, /"t-x"\(args: \{/);
  assert.match(d, /q\?: string \| number\}/);
  assert.match(d, /value: number;/);
  assert.match(d, /next\?: unknown\}/);
  assert.match(d, /remote\?: unknown;/);
  assert.match(d, /tags\?: \(string \| null\)\[\];/);
  assert.match(d, /"odd-key"\?: 3\}/);
  assert.match(d, /\/\*\* \[structured\] end \*\\\/ here \*\//, "a description cannot close its comment");
  assert.deepEqual(
    typeErrors(`declare const tools: {\n${d}\n};`, "const r = await tools['t-x']({ q: 1 }); return r.head?.value;"),
    [],
  );
});

test("run_code's result: the value, logs and calls; bounded with a notice when cut", async () => {
  const tool = runCodeTool(host);
  assert.match(tool.description, /```ts\n[\s\S]*search_customers\(args/);
  const small = await tool.run({ code: PAGER }, {});
  const doc = JSON.parse(small.text);
  // No console output, no `logs` key: the model reads every character of it on every request.
  assert.deepEqual(Object.keys(doc), ["value", "calls"]);
  assert.ok(doc.calls.every((c: { tool: string; bytes: number }) => c.tool === "search_customers" && c.bytes > 0));
  // The pages the script read are not in what the model gets, only the return value.
  assert.ok(!small.text.includes("provenance"));
  const big = await tool.run(
    { code: "const p = await tools.search_customers({ query: 'enterprise', limit: 500 }); return p.items;" },
    {},
  );
  assert.ok(big.text.length <= MAX_MODEL_CHARS + 500, `${big.text.length}`);
  const cut = JSON.parse(big.text);
  assert.equal(cut.value, null);
  assert.match(cut.notice, /value cut: the first \d+ of \d+ characters/);
  const failed = await tool.run({ code: "throw new Error('boom')" }, {});
  assert.equal(failed.isError, true);
  assert.deepEqual(JSON.parse(failed.text).error, { rule: "script-error", message: "Error: boom" });
  assert.equal(
    modelText({ ok: true, value: 1, valueJson: "1", logs: [], calls: [], durationMs: 0 }),
    '{"value":1,"calls":[]}',
  );
  assert.equal(
    modelText({ ok: true, value: 1, valueJson: "1", logs: ["hi"], calls: [], durationMs: 0 }),
    '{"value":1,"logs":["hi"],"calls":[]}',
  );
});

test("declarations: past the budget a server's tools are named (bounded) and $search finds their signatures", async () => {
  const many = Array.from(
    { length: 2000 },
    (_, i) =>
      ({
        ...entry(
          { type: "object", properties: { q: { type: "string", description: "x".repeat(100) } } },
          { type: "object" },
        ),
        qualifiedName: `t${i}`,
        name: `t${i}`,
        description: i === 1234 ? "Counts the penguins of an island" : "Other",
      }) as ToolEntry,
  );
  const small = {
    ...entry({ type: "object" }, { type: "object" }),
    server: "small",
    qualifiedName: "tiny",
    name: "tiny",
  } as ToolEntry;
  const d = declarationsFor([small, ...many]);
  assert.ok(d.length < 12_000, `${d.length}`);
  assert.match(
    d,
    /\/\/ server small\n[^\n]*tiny\(args: Record<string, unknown>\): Promise<Record<string, unknown>>;/,
    "a server that fits is declared whole",
  );
  assert.match(d, /\$search\(query: string\): Promise<\{name: string; server: string; signature: string\}\[\]>;/);
  assert.match(d, /\/\/ server s: t0, t1, [^\n]* and \d+ more\n/);
  assert.deepEqual(
    typeErrors(d, "const m = await tools.$search('penguins'); const s: string = m[0].signature; return s;"),
    [],
  );
  const { searchTools } = await import("../../src/code/search.js");
  const found = searchTools([small, ...many], "how many penguins on the island");
  assert.equal(found[0].name, "t1234");
  assert.match(found[0].signature, /t1234\(args: \{/);
  // The same index as the model's tool search: stemmed words, names weighted most, parameters too.
  const shot = { ...small, server: "pw", qualifiedName: "browser_take_screenshot", name: "browser_take_screenshot" };
  const nav = {
    ...small,
    server: "pw",
    qualifiedName: "browser_navigate",
    name: "browser_navigate",
    description: "Go to a URL",
  };
  assert.deepEqual(
    searchTools([small, nav, shot, ...many], "taking screenshots").map((m) => m.name),
    ["browser_take_screenshot"],
  );
});

test("code mode offers the typed tools once, in run_code; the others directly; a direct call of a typed one still gets its receipt", async () => {
  const { runTurn } = await import("../../src/model/turn.js");
  const { Conversation } = await import("../../src/model/conversation.js");
  const seen: { name: string; description?: string }[][] = [];
  let round = 0;
  const adapter = {
    id: "recording",
    capabilities: (await import("../../src/model/context.js")).ANTHROPIC_CAPABILITIES,
    async *respond(req: { tools: { name: string; description?: string }[] }) {
      seen.push(req.tools);
      // A model that calls a typed tool directly anyway (the name resolves): the host's receipt.
      if (round++ === 0)
        yield { type: "tool_use" as const, id: "t1", name: "search_customers", input: { query: "Globex" } };
      else yield { type: "text" as const, text: "ok" };
    },
  };
  const turn = await runTurn({
    adapter,
    executor: host,
    conversation: new Conversation(),
    prompt: "p",
    mode: "code",
    hostTools: [runCodeTool(host)],
  });
  const names = seen[0].map((t) => t.name);
  const typed = scriptTools(host.modelTools()).map((t) => t.qualifiedName);
  assert.ok(typed.includes("search_customers"));
  for (const t of typed) assert.ok(!names.includes(t), `${t} is listed again beside run_code`);
  for (const t of host.modelTools())
    if (!typed.includes(t.qualifiedName))
      assert.ok(names.includes(t.qualifiedName), `${t.qualifiedName} (no programmatic/structured variant) is listed`);
  assert.match(seen[0].find((t) => t.name === "run_code")!.description!, /search_customers\(args: \{/);
  const direct = turn.toolCalls[0].outcome;
  assert.ok(direct?.ok);
  assert.equal(direct.routed.model.length, 0);
  assert.match(direct.receipt!.text, /went to program logic/);
});
