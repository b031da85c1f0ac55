// Issue 29's figures, in one run: tokens per model request with the six real servers, tool
// search on vs off; the model tokens a 2 MB read_text_file costs vs the result budget; what the
// search index costs for 100 vs 1,000 tools (it should grow linearly). Requests go through the real
// Anthropic SDK to the fake Messages API, counted by its estimator (src/model/tokens.ts).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Host } from "../src/host/host.js";
import { AnthropicModel } from "../src/model/anthropic.js";
import { Conversation } from "../src/model/conversation.js";
import { runTurn } from "../src/model/turn.js";
import { resultBudget } from "../src/model/result-budget.js";
import { ToolIndex } from "../src/host/catalog/tool-index.js";
import type { ToolSearchSetting } from "../src/model/tool-search.js";
import {
  callFirstToolThenAnswer,
  FakeAnthropic,
  requestTokens,
  type Responder,
} from "../test/helpers/fake-anthropic.js";
import { FakeExecutor, tool } from "../test/model/support.js";
import type { ModelSinkEntry } from "../src/host/types.js";
import { sixServers } from "../test/helpers/six-servers.js";
import { fmt, int, median, ratio, type BenchOptions, type Section, type Target } from "./lib/report.js";

const QUERY_BATCH = 50;
const QUERIES = ["take a screenshot of the page", "list the files", "search records by query", "delete a branch"];

function syntheticTools(n: number) {
  const verbs = ["list", "read", "write", "search", "create", "delete", "update", "move", "take", "send"];
  const nouns = ["file", "table", "screenshot", "branch", "entity", "message", "record", "page", "order", "image"];
  return Array.from({ length: n }, (_, i) => ({
    name: `${verbs[i % 10]}_${nouns[Math.floor(i / 10) % 10]}_${i}`,
    server: `s${i % 7}`,
    description: `${verbs[(i * 3) % 10]} the ${nouns[(i * 7) % 10]} number ${i} with options for paging, filtering and sorting the results it returns`,
    inputSchema: { type: "object", properties: { path: {}, query: {}, [`opt${i % 13}`]: {} } },
  }));
}

export async function contextScaleBench(opts: BenchOptions): Promise<Section> {
  const six = sixServers();
  const fake = await new FakeAnthropic().start();
  const host = await Host.start({ config: six.config, eraCache: false });
  const adapter = new AnthropicModel({ apiKey: "sk-bench", baseURL: fake.url, model: "claude-bench", maxRetries: 0 });
  const turn = async (prompt: string, setting: ToolSearchSetting, responder: Responder) => {
    fake.requests.length = 0;
    fake.refused.length = 0;
    fake.responder = responder;
    const r = await runTurn({
      adapter,
      executor: host,
      conversation: new Conversation(),
      prompt,
      mode: "chat",
      toolSearch: setting,
    });
    return { r, tokens: fake.requests.map((q) => requestTokens(q.body)), refused: fake.refused.length };
  };
  try {
    opts.log("context-scale: six servers, tool search off / on");
    const text = (): ReturnType<Responder> => ({ kind: "reply", blocks: [{ type: "text", text: "ok" }] });
    const off = await turn("hello", "off", text);
    const on = await turn("hello", "on", text);
    const searchRatio = on.tokens[0] / off.tokens[0];

    opts.log("context-scale: a 2 MB read_text_file");
    const line = "2026-12-03T08:00:00Z INFO request served in 12 ms from the upstream cache\n";
    const path = join(six.dir, "big.log");
    writeFileSync(path, line.repeat(Math.ceil((2 * 1024 * 1024) / line.length)));
    const read = await turn("read big.log", "off", (_b, i) =>
      i === 0
        ? { kind: "reply", blocks: [{ type: "tool_use", name: "read_text_file", input: { path } }] }
        : { kind: "reply", blocks: [{ type: "text", text: "done" }] },
    );
    const body = fake.requests[1]?.body;
    const resultTokens = body ? requestTokens({ messages: [body.messages.at(-1)] }) - 4 : NaN;
    const budget = resultBudget(adapter.capabilities);
    const budgetRatio = resultTokens / budget;

    opts.log("context-scale: a 300-turn session, a tool call in every turn");
    const session = new Conversation();
    const text1500 = (n: number) => `row ${n}: ${"lorem ipsum dolor sit amet ".repeat(220)}`;
    let rows = 0;
    const executor = new FakeExecutor(
      [tool("lookup", { inputSchema: { type: "object", properties: { q: { type: "string" } } } })],
      () => ({
        routed: {
          model: [
            {
              audience: "assistant",
              format: "content",
              content: [{ type: "text", text: text1500(++rows) }],
            } as ModelSinkEntry,
          ],
          user: [],
          programmatic: [],
          app: [],
          appMeta: {},
        },
      }),
    );
    fake.requests.length = 0;
    fake.refused.length = 0;
    fake.peakTokens = 0;
    fake.responder = callFirstToolThenAnswer({ q: "x" });
    let compactions = 0;
    let failedTurns = 0;
    const turns = opts.quick ? 120 : 300;
    for (let i = 0; i < turns; i++) {
      const r = await runTurn({
        adapter,
        executor,
        conversation: session,
        prompt: `turn ${i}: ${"please look this up and tell me what you find. ".repeat(40)}`,
        mode: "chat",
        events: (e) => void (e.type === "notice" && e.text.startsWith("context compacted") && compactions++),
      });
      if (!r.ok) failedTurns++;
    }
    const peakRatio = fake.peakTokens / fake.contextWindow;
    const sessionRefused = fake.refused.length;

    opts.log("context-scale: index build and query, 100 vs 1,000 tools");
    const reps = opts.quick ? 5 : 15;
    const cost = (n: number) => {
      const tools = syntheticTools(n);
      const build: number[] = [];
      const query: number[] = [];
      for (let i = 0; i < reps; i++) {
        let t0 = performance.now();
        const index = new ToolIndex(tools);
        build.push(performance.now() - t0);
        // One query is a few microseconds: timed as the mean of a batch, after one untimed.
        index.search("take a screenshot of the page");
        t0 = performance.now();
        for (let q = 0; q < QUERY_BATCH; q++) index.search(QUERIES[q % QUERIES.length]);
        query.push((performance.now() - t0) / QUERY_BATCH);
      }
      return { build: median(build), query: median(query) };
    };
    cost(100); // warm-up
    const small = cost(100);
    const large = cost(1000);
    const buildGrowth = large.build / small.build / 10;
    const queryGrowth = large.query / small.query / 10;

    const targets: Target[] = [
      {
        name: "Tokens per request, six real servers: tool search on vs off",
        target: "≤ 0.15×",
        figure: `${ratio(searchRatio)}: ${int(on.tokens[0])} vs ${int(off.tokens[0])} tokens (first request)`,
        met: searchRatio <= 0.15,
      },
      {
        name: "Model tokens for a 2 MB read_text_file vs the result budget",
        target: "≤ 1.0×",
        figure: `${ratio(budgetRatio)}: ${int(resultTokens)} vs ${int(budget)} tokens; ${read.refused} requests refused by the 200,000-token window`,
        met: budgetRatio <= 1 && read.refused === 0,
      },
      {
        name: `Peak request over a ${turns}-turn session vs the window`,
        target: "≤ 0.9×",
        figure: `${ratio(peakRatio)}: ${int(fake.peakTokens)} of ${int(fake.contextWindow)} tokens; ${compactions} compactions, ${sessionRefused} requests refused, ${failedTurns} turns failed`,
        met: peakRatio <= 0.9 && sessionRefused === 0 && failedTurns === 0,
      },
      {
        name: "Search index: build per tool, 1,000 vs 100 tools (linear = 1×)",
        target: "≤ 1.5×",
        figure: `${ratio(buildGrowth)}: ${fmt(large.build, 3)} ms vs ${fmt(small.build, 3)} ms`,
        met: buildGrowth <= 1.5,
      },
      {
        name: "Search index: one query per tool, 1,000 vs 100 tools (linear = 1×)",
        target: "≤ 1.5×",
        figure: `${ratio(queryGrowth)}: ${fmt(large.query, 3)} ms vs ${fmt(small.query, 3)} ms`,
        met: queryGrowth <= 1.5,
      },
    ];
    return {
      id: "context-scale",
      title: "Context at scale: tool search and the result budget",
      intro: [
        `The six real servers of issue 29 (playwright-mcp on Debian's Chromium, git, SQLite, filesystem, memory, everything: ${host.modelTools().length} tools), driven through the real Anthropic SDK against the fake Messages API (a 200,000-token window). Tokens are the fake's estimate (src/model/tokens.ts) of each request body.`,
        `The index is timed on synthetic tool sets (median of ${reps}); the ratio divides the per-tool cost at 1,000 tools by that at 100.`,
      ],
      tables: [
        {
          caption: "Per request",
          head: ["run", "requests", "first request tokens", "largest request tokens"],
          rows: [
            ["tool search off", off.tokens.length, off.tokens[0], Math.max(...off.tokens)],
            ["tool search on", on.tokens.length, on.tokens[0], Math.max(...on.tokens)],
            ["2 MB read (off)", read.tokens.length, read.tokens[0], Math.max(...read.tokens)],
          ],
        },
      ],
      targets,
      notes: [
        "The long session: each turn's prompt is ≈500 tokens and its tool result ≈1,500; near 0.85 of the window the older turns are compacted into a summary the model writes (src/model/compact.ts).",
      ],
    };
  } finally {
    await host.close();
    await fake.stop();
    six.remove();
  }
}
