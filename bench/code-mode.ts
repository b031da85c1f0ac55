// Code mode against direct calls. A bulk task on the demo server — "for all customers of plan
// enterprise, count per region and list the five most recently active" (several pages) — and a
// single lookup, each through the REAL Anthropic adapter (runTurn → @anthropic-ai/sdk → the fake
// Messages API) against the spawned demo server:
// (a) chat mode, direct calls: the fake model pages search_customers while the results it reads
//     show a nextCursor, then answers;
// (b) code mode: one run_code call with the paging script;
// (c) the legacy client profiles on a 2026-07-28 connection, paging like (a).
// Measured at the fake, over every request of the turn: the tool definitions and the tool results
// the model read (characters, tokens ≈ characters / 4), and the model round trips. "Complete"
// says whether what reached the model holds the answer (every region's count and the five names,
// or every record to count them from).
import { readAs } from "../src/compare/profiles/index.js";
import { Host } from "../src/host/host.js";
import type { LegacyProfile, Mode, ToolExecutor } from "../src/host/types.js";
import { AnthropicModel } from "../src/model/anthropic.js";
import { Conversation } from "../src/model/conversation.js";
import type { HostTool } from "../src/model/host-tool.js";
import { runTurn } from "../src/model/turn.js";
import { runCodeTool } from "../src/code/run-code.js";
import { searchCustomers } from "../src/demo/customers.js";
import { FakeAnthropic, type Responder } from "../test/helpers/fake-anthropic.js";
import { demoConfig } from "./lib/demo.js";
import { int, ratio, type BenchOptions, type Section, type Table, type Target } from "./lib/report.js";

const PROFILES: readonly LegacyProfile[] = ["content-only", "structured-replaces-content", "both", "annotation-audience", "sep"];
const PAGE = 50;

const BULK_SCRIPT = `let cursor; const counts = {}; const all = [];
do {
  const page = await tools.search_customers({ query: "enterprise", limit: ${PAGE}, ...(cursor ? { cursor } : {}) });
  for (const c of page.items) { counts[c.region] = (counts[c.region] ?? 0) + 1; all.push(c); }
  cursor = page.nextCursor;
} while (cursor);
all.sort((a, b) => b.lastActivity.localeCompare(a.lastActivity));
return { counts, mostRecent: all.slice(0, 5).map((c) => c.displayName) };`;
const LOOKUP_ARGS = { orderId: "ord_5007" };
const LOOKUP_SCRIPT = `return await tools.lookup_order(${JSON.stringify(LOOKUP_ARGS)});`;

interface Run {
  name: string;
  defChars: number;
  resultChars: number;
  requests: number;
  calls: number;
  complete: boolean;
}
const tokens = (r: Run) => Math.ceil((r.defChars + r.resultChars) / 4);

/** The tool_result texts of the newest user message (the results this request added). */
function newResults(body: any): string[] {
  const last = body?.messages?.at(-1);
  if (!Array.isArray(last?.content)) return [];
  return last.content.filter((b: any) => b.type === "tool_result").flatMap((b: any) => (Array.isArray(b.content) ? b.content : []).filter((c: any) => c.type === "text").map((c: any) => c.text as string));
}

/** Direct calls: page while a nextCursor is visible, at most `maxPages`. */
function pagingModel(maxPages: number): Responder {
  return (body, index) => {
    if (index === 0) return { kind: "reply", blocks: [{ type: "tool_use", name: "search_customers", input: { query: "enterprise", limit: PAGE } }] };
    const cursor = newResults(body).join("\n").match(/"nextCursor":"([^"]+)"/)?.[1];
    if (cursor && index < maxPages) return { kind: "reply", blocks: [{ type: "tool_use", name: "search_customers", input: { query: "enterprise", limit: PAGE, cursor } }] };
    return { kind: "reply", blocks: [{ type: "text", text: "done" }] };
  };
}
const oneCall = (name: string, input: Record<string, unknown>): Responder => (_b, index) =>
  index === 0 ? { kind: "reply", blocks: [{ type: "tool_use", name, input }] } : { kind: "reply", blocks: [{ type: "text", text: "done" }] };

async function measure(name: string, executor: ToolExecutor, mode: Mode, responder: Responder, hostTools: HostTool[], complete: (seen: string) => boolean): Promise<Run> {
  const fake = await new FakeAnthropic().start();
  try {
    fake.responder = responder;
    const adapter = new AnthropicModel({ apiKey: "bench-key", baseURL: fake.url, maxRetries: 0 });
    const turn = await runTurn({ adapter, executor, conversation: new Conversation(), prompt: "bench", mode, hostTools, maxRounds: 12 });
    let defChars = 0;
    let resultChars = 0;
    let seen = "";
    for (const q of fake.requests) {
      defChars += JSON.stringify(q.body.tools ?? []).length;
      // Every request re-sends the results so far: the model reads them again each round trip.
      for (const m of q.body.messages ?? []) if (Array.isArray(m.content)) for (const b of m.content) if (b.type === "tool_result") for (const c of b.content ?? []) if (c.type === "text") resultChars += c.text.length;
      seen += newResults(q.body).join("\n");
    }
    return { name, defChars, resultChars, requests: fake.requests.length, calls: turn.toolCalls.length, complete: complete(seen) };
  } finally {
    await fake.stop();
  }
}

function bulkAnswer(): { counts: Record<string, number>; recent: string[]; ids: string[] } {
  const all = searchCustomers("enterprise", 0, 100_000).all;
  const counts: Record<string, number> = {};
  for (const c of all) counts[c.region] = (counts[c.region] ?? 0) + 1;
  return { counts, recent: all.slice(0, 5).map((c) => c.displayName), ids: all.map((c) => c.customerId) };
}

export async function codeModeBench({ log }: BenchOptions): Promise<Section> {
  const answer = bulkAnswer();
  const pages = Math.ceil(answer.ids.length / PAGE);
  const bulkComplete = (seen: string) =>
    (answer.ids.every((id) => seen.includes(id)) || Object.entries(answer.counts).every(([r, n]) => seen.includes(`"${r}":${n}`))) && answer.recent.every((n) => seen.includes(n));
  const lookupComplete = (seen: string) => seen.includes(LOOKUP_ARGS.orderId);
  const bulk: Run[] = [];
  const single: Run[] = [];
  const chat = await Host.start({ config: demoConfig(), mode: "chat" });
  try {
    log("code-mode: chat, direct calls");
    bulk.push(await measure("chat mode, direct calls", chat, "chat", pagingModel(pages + 2), [], bulkComplete));
    single.push(await measure("chat mode, one call", chat, "chat", oneCall("lookup_order", LOOKUP_ARGS), [], lookupComplete));
    log("code-mode: structured mode, direct calls");
    bulk.push(await measure("structured mode, direct calls", chat, "structured", pagingModel(pages + 2), [], bulkComplete));
  } finally {
    await chat.close();
  }
  const code = await Host.start({ config: demoConfig(), mode: "code" });
  try {
    log("code-mode: code mode, one script");
    const tool = runCodeTool(code);
    bulk.push(await measure("code mode, run_code script", code, "code", oneCall("run_code", { code: BULK_SCRIPT }), [tool], bulkComplete));
    single.push(await measure("code mode, run_code script", code, "code", oneCall("run_code", { code: LOOKUP_SCRIPT }), [tool], lookupComplete));
  } finally {
    await code.close();
  }
  const legacy = await Host.start({ config: demoConfig(), mode: "chat", protocol: "2026-07-28" });
  try {
    for (const profile of PROFILES) {
      log(`code-mode: legacy ${profile}`);
      const executor: ToolExecutor = { modelTools: () => legacy.modelTools(), instructions: () => legacy.instructions(), call: async (n, a, o) => readAs(profile, await legacy.call(n, a, o)) };
      bulk.push(await measure(`legacy ${profile}, direct calls`, executor, "chat", pagingModel(pages + 2), [], bulkComplete));
    }
  } finally {
    await legacy.close();
  }
  const table = (runs: Run[], base: Run, caption: string): Table => ({
    caption,
    head: ["how", "model round trips", "tool calls", "tool definitions (chars)", "tool results read (chars)", "tokens ≈", "vs chat", "complete"],
    rows: runs.map((r) => [r.name, r.requests, r.calls, int(r.defChars), int(r.resultChars), int(tokens(r)), ratio(tokens(r) / tokens(base)), r.complete ? "yes" : "no"]),
  });
  const chatBulk = bulk[0];
  const codeBulk = bulk.find((r) => r.name.startsWith("code mode"))!;
  const [chatOne, codeOne] = single;
  const targets: Target[] = [
    { name: "code mode, single lookup", target: "≤ 1.2× chat mode's tokens", figure: ratio(tokens(codeOne) / tokens(chatOne)), met: tokens(codeOne) <= 1.2 * tokens(chatOne) },
  ];
  return {
    id: "code-mode",
    title: "Code mode: a script against direct calls",
    intro: [
      `The bulk task: all ${answer.ids.length} customers of plan enterprise (${pages} pages of ${PAGE}), counts per region and the five most recently active. Direct calls page while the model can see a nextCursor; code mode runs one script (bench/code-mode.ts). Tokens ≈ (tool definitions + tool results, summed over every request of the turn, as each request re-sends them) / 4.`,
      "The single lookup: lookup_order once, directly in chat mode or through a one-line script in code mode.",
    ],
    tables: [table(bulk, chatBulk, "bulk task"), table(single, chatOne, "single lookup")],
    targets,
    notes: [
      `code mode / chat mode on the bulk task: ${ratio(tokens(codeBulk) / tokens(chatBulk))} of the tokens, ${codeBulk.requests} round trips against ${chatBulk.requests}.`,
      "search_customers' assistant variants carry no cursor (chat: prose with the total and three names; structured: the total, counts per region and three names), and the legacy results show the model no cursor either: direct calls stop after one page, and none of those rows can list five names — the rows say so rather than hiding it. Code mode reads every page's programmatic/structured output (ids, cursor) in the sandbox and returns only the answer.",
      "In code mode the model gets the servers' tools as in chat mode (a direct call gets the host's receipt) plus run_code, whose description holds the TypeScript declarations of the tools a script can call — their input and programmatic/structured output types. Those declarations are what the single lookup pays for: the tool definitions are the larger part of every request here.",
    ],
  };
}
