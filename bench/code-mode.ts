// Code mode against direct calls, each through the REAL Anthropic adapter (runTurn →
// @anthropic-ai/sdk → the fake Messages API), measured at the fake over every request of the turn:
// the tool definitions and the tool results the model read (characters, tokens ≈ characters / 4),
// and the model round trips. "Complete" says whether what reached the model holds the answer
// (every region's count and the five names, or every record to count them from).
// The bulk task — "for all customers of plan enterprise, count per region and list the five most
// recently active" (several pages) — is done in full by every approach, on the demo's customer
// directory served the way a server written before SEP-3279 serves it (bench/lib/directory-server.ts:
// the page as structuredContent, its JSON as content), so a direct call shows the model the page
// and its nextCursor:
// (a) chat and structured mode, direct calls: the fake model pages while the newest result shows
//     a nextCursor, one round trip per page, then answers;
// (b) code mode: one run_code call with the paging script;
// (c) the legacy client profiles on a 2026-07-28 connection, each reading the result its own way,
//     paging like (a).
// The same task on the SEP demo server (whose model-facing variants are summaries without a
// cursor: direct calls cannot page) and a single lookup there, where code mode must stay ≤ 1.2×.
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
import { directoryServer } from "./lib/directory-server.js";
import { int, ratio, type BenchOptions, type Section, type Table, type Target } from "./lib/report.js";

const PROFILES: readonly LegacyProfile[] = [
  "content-only",
  "structured-replaces-content",
  "both",
  "annotation-audience",
  "sep",
];
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

export interface Run {
  name: string;
  defChars: number;
  resultChars: number;
  requests: number;
  calls: number;
  complete: boolean;
}
export const tokens = (r: Run) => Math.ceil((r.defChars + r.resultChars) / 4);

/** Runs of one task side by side, each against `base` (chat mode). */
export function runTable(runs: Run[], base: Run, caption: string): Table {
  return {
    caption,
    head: [
      "how",
      "model round trips",
      "tool calls",
      "tool definitions (chars)",
      "tool results read (chars)",
      "tokens ≈",
      "vs chat",
      "complete",
    ],
    rows: runs.map((r) => [
      r.name,
      r.requests,
      r.calls,
      int(r.defChars),
      int(r.resultChars),
      int(tokens(r)),
      ratio(tokens(r) / tokens(base)),
      r.complete ? "yes" : "no",
    ]),
  };
}

/** The tool_result texts of the newest user message (the results this request added). */
function newResults(body: any): string[] {
  const last = body?.messages?.at(-1);
  if (!Array.isArray(last?.content)) return [];
  return last.content
    .filter((b: any) => b.type === "tool_result")
    .flatMap((b: any) =>
      (Array.isArray(b.content) ? b.content : [])
        .filter((c: any) => c.type === "text")
        .map((c: any) => c.text as string),
    );
}

/** Direct calls: page while a nextCursor is visible, at most `maxPages`. */
function pagingModel(maxPages: number): Responder {
  return (body, index) => {
    if (index === 0)
      return {
        kind: "reply",
        blocks: [{ type: "tool_use", name: "search_customers", input: { query: "enterprise", limit: PAGE } }],
      };
    const cursor = newResults(body)
      .join("\n")
      .match(/"nextCursor":"([^"]+)"/)?.[1];
    if (cursor && index < maxPages)
      return {
        kind: "reply",
        blocks: [{ type: "tool_use", name: "search_customers", input: { query: "enterprise", limit: PAGE, cursor } }],
      };
    return { kind: "reply", blocks: [{ type: "text", text: "done" }] };
  };
}
export const oneCall =
  (name: string, input: Record<string, unknown>): Responder =>
  (_b, index) =>
    index === 0
      ? { kind: "reply", blocks: [{ type: "tool_use", name, input }] }
      : { kind: "reply", blocks: [{ type: "text", text: "done" }] };

export async function measure(
  name: string,
  executor: ToolExecutor,
  mode: Mode,
  responder: Responder,
  hostTools: HostTool[],
  complete: (seen: string) => boolean,
  /** The result budget (limits.modelResultTokens); default the model's (25,000 tokens). */
  resultTokens?: number,
): Promise<Run> {
  const fake = await new FakeAnthropic().start();
  try {
    fake.responder = responder;
    const adapter = new AnthropicModel({ apiKey: "bench-key", baseURL: fake.url, maxRetries: 0 });
    const turn = await runTurn({
      adapter,
      executor,
      conversation: new Conversation(),
      prompt: "bench",
      mode,
      hostTools,
      maxRounds: 12,
      ...(resultTokens ? { resultTokens } : {}),
    });
    let defChars = 0;
    let resultChars = 0;
    let seen = "";
    for (const q of fake.requests) {
      defChars += JSON.stringify(q.body.tools ?? []).length;
      // Every request re-sends the results so far: the model reads them again each round trip.
      for (const m of q.body.messages ?? [])
        if (Array.isArray(m.content))
          for (const b of m.content)
            if (b.type === "tool_result")
              for (const c of b.content ?? []) if (c.type === "text") resultChars += c.text.length;
      seen += newResults(q.body).join("\n");
    }
    return {
      name,
      defChars,
      resultChars,
      requests: fake.requests.length,
      calls: turn.toolCalls.length,
      complete: complete(seen),
    };
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
    (answer.ids.every((id) => seen.includes(id)) ||
      Object.entries(answer.counts).every(([r, n]) => seen.includes(`"${r}":${n}`))) &&
    answer.recent.every((n) => seen.includes(n));
  const lookupComplete = (seen: string) => seen.includes(LOOKUP_ARGS.orderId);
  const paging = pagingModel(pages + 2);
  const bulk: Run[] = [];
  const onDemo: Run[] = [];
  const single: Run[] = [];
  const dir = directoryServer();
  const dirConfig = demoConfig({ directory: dir.config });
  const at = (protocol?: string) => ({
    config: dirConfig,
    transport: dir.transport,
    eraCache: false as const,
    ...(protocol ? { protocol } : {}),
  });

  const chat = await Host.start({ ...at(), mode: "chat" });
  try {
    log("code-mode: bulk, chat and structured mode, direct calls");
    bulk.push(await measure("chat mode, direct calls", chat, "chat", paging, [], bulkComplete));
    bulk.push(await measure("structured mode, direct calls", chat, "structured", paging, [], bulkComplete));
    log("code-mode: bulk, code mode");
    bulk.push(
      await measure(
        "code mode, run_code script",
        chat,
        "code",
        oneCall("run_code", { code: BULK_SCRIPT }),
        [runCodeTool(chat)],
        bulkComplete,
      ),
    );
  } finally {
    await chat.close();
  }
  const legacy = await Host.start({ ...at("2026-07-28"), mode: "chat" });
  try {
    for (const profile of PROFILES) {
      log(`code-mode: bulk, legacy ${profile}`);
      const executor: ToolExecutor = {
        modelTools: () => legacy.modelTools(),
        instructions: () => legacy.instructions(),
        call: async (n, a, o) => readAs(profile, await legacy.call(n, a, o)),
      };
      bulk.push(await measure(`legacy ${profile}, direct calls`, executor, "chat", paging, [], bulkComplete));
    }
  } finally {
    await legacy.close();
  }

  const demo = await Host.start({ config: demoConfig(), mode: "chat" });
  try {
    log("code-mode: demo server, direct calls");
    onDemo.push(await measure("chat mode, direct calls", demo, "chat", paging, [], bulkComplete));
    onDemo.push(await measure("structured mode, direct calls", demo, "structured", paging, [], bulkComplete));
    log("code-mode: demo server, code mode");
    const tool = runCodeTool(demo);
    onDemo.push(
      await measure(
        "code mode, run_code script",
        demo,
        "code",
        oneCall("run_code", { code: BULK_SCRIPT }),
        [tool],
        bulkComplete,
      ),
    );
    log("code-mode: single lookup");
    single.push(
      await measure("chat mode, one call", demo, "chat", oneCall("lookup_order", LOOKUP_ARGS), [], lookupComplete),
    );
    single.push(
      await measure(
        "code mode, run_code script",
        demo,
        "code",
        oneCall("run_code", { code: LOOKUP_SCRIPT }),
        [tool],
        lookupComplete,
      ),
    );
  } finally {
    await demo.close();
  }
  const table = runTable;
  const [chatBulk, , codeBulk] = bulk;
  const [chatOne, codeOne] = single;
  const targets: Target[] = [
    {
      name: "code mode, single lookup",
      target: "≤ 1.2× chat mode's tokens",
      figure: ratio(tokens(codeOne) / tokens(chatOne)),
      met: tokens(codeOne) <= 1.2 * tokens(chatOne),
    },
  ];
  return {
    id: "code-mode",
    title: "Code mode: a script against direct calls",
    intro: [
      `The bulk task: all ${answer.ids.length} customers of plan enterprise (${pages} pages of ${PAGE}), counts per region and the five most recently active. Tokens ≈ (tool definitions + tool results, summed over every request of the turn, as each request re-sends them) / 4 (bench/code-mode.ts).`,
      "First on the demo's directory served as a server written before SEP-3279 would (the page as structuredContent, its JSON as content): every approach does the whole task. Direct calls page while the newest result shows a nextCursor, one model round trip per page; the legacy profiles read the same results on a 2026-07-28 connection; code mode runs one script.",
      "Then on the SEP demo server, whose model-facing variants are summaries (chat: prose with the total and three names; structured: the total, counts per region and three names) without a cursor: a direct call cannot page there and none can name five, which the rows say. The single lookup: lookup_order once, directly in chat mode or through a one-line script in code mode.",
    ],
    tables: [
      table(bulk, chatBulk, "bulk task, every approach paging in full"),
      table(onDemo, onDemo[0], "bulk task on the SEP demo server"),
      table(single, chatOne, "single lookup (SEP demo server)"),
    ],
    targets,
    notes: [
      `code mode / chat mode on the full bulk task: ${ratio(tokens(codeBulk) / tokens(chatBulk))} of the tokens, ${codeBulk.requests} round trips against ${chatBulk.requests}.`,
      "In code mode the model gets run_code, whose description holds the TypeScript declarations of the tools a script can call (their input and programmatic/structured output types); those tools are not listed to it a second time (a direct call of one still runs and gets the host's receipt). Tools without one are declared too (typed from a legacy outputSchema, or ToolText), so run_code is the only tool listed. What the single lookup pays for is the declarations and run_code's description over the tool definitions they replace, plus the run's report around the value.",
    ],
  };
}
