// Figure 1 — what reaches the model. The committed workload runs through the REAL Anthropic
// adapter (runTurn → @anthropic-ai/sdk → the fake Messages API on 127.0.0.1): the fake answers the
// first request with one tool_use block per workload call, runTurn executes them through the Host
// against the spawned demo server, and the second request body — captured at the fake — carries
// every tool_result. Its tool_result payload is measured: text bytes, estimated tokens
// (bytes/4 + w×h/750 per image block). Floor: the assistant/content outputs of the same calls,
// each requested explicitly on 2026-12-01.
import { readAs } from "../src/compare/profiles/index.js";
import { Host } from "../src/host/host.js";
import type { LegacyProfile, Mode, ModelSinkEntry, ToolExecutor } from "../src/host/types.js";
import type { ModelAdapter } from "../src/model/adapter.js";
import { AnthropicModel } from "../src/model/anthropic.js";
import { modelJsonText } from "../src/model/context.js";
import { Conversation } from "../src/model/conversation.js";
import { OpenAIModel } from "../src/model/openai.js";
import { openaiImageTokens } from "../src/model/tokens.js";
import { runTurn } from "../src/model/turn.js";
import { readImageSize } from "../src/ui/image.js";
import { FakeAnthropic } from "../test/helpers/fake-anthropic.js";
import { FakeOpenAI } from "../test/helpers/fake-openai.js";
import { demoConfig, label, loadWorkload, type WorkloadCall } from "./lib/demo.js";
import { fmt, int, ratio, type BenchOptions, type Section, type Table, type Target } from "./lib/report.js";

export const MODES: readonly Mode[] = ["chat", "structured", "code", "app", "minimal"];
export const PROFILES: readonly LegacyProfile[] = [
  "content-only",
  "structured-replaces-content",
  "both",
  "annotation-audience",
  "sep",
];
export const LEGACY_MODERN = "2026-07-28";

export interface Measure {
  textBytes: number;
  images: number;
  /** By the API's own rule: Anthropic's w×h/750, or OpenAI's 512-pixel tiles. */
  imageTokens: number;
  tokens: number;
}
const zero = (): Measure => ({ textBytes: 0, images: 0, imageTokens: 0, tokens: 0 });
export type Api = "anthropic" | "openai";
export const APIS: readonly Api[] = ["anthropic", "openai"];
function finish(m: Measure): Measure {
  m.tokens = Math.ceil(m.textBytes / 4) + m.imageTokens;
  return m;
}

/** An image's tokens as `api` counts them: Anthropic's width × height / 750, OpenAI's tiles. */
export function imageTokens(base64: string, api: Api = "anthropic"): number {
  const size = readImageSize(Buffer.from(base64, "base64"));
  if (!size) return 0;
  return api === "openai" ? openaiImageTokens(size.width, size.height) : Math.ceil((size.width * size.height) / 750);
}

/**
 * Measures the tool results of one captured Chat Completions request body: each `tool` message's
 * text, and the images the adapter moved into the user message after them (with that message's
 * labels, which are host-written), per tool_call_id.
 */
export function measureChatToolResults(body: any): { total: Measure; perCall: Map<string, Measure> } {
  const total = zero();
  const perCall = new Map<string, Measure>();
  const add = (m: Measure) => {
    total.textBytes += m.textBytes;
    total.images += m.images;
    total.imageTokens += m.imageTokens;
  };
  const messages: any[] = body?.messages ?? [];
  const firstTool = messages.findIndex((m) => m.role === "tool");
  if (firstTool < 0) return { total: finish(total), perCall };
  for (const [i, msg] of messages.entries()) {
    if (msg.role === "tool") {
      const m = zero();
      const parts = typeof msg.content === "string" ? [{ type: "text", text: msg.content }] : (msg.content ?? []);
      for (const p of parts) if (p.type === "text") m.textBytes += Buffer.byteLength(p.text, "utf8");
      perCall.set(msg.tool_call_id, finish(m));
      add(m);
    } else if (msg.role === "user" && i > firstTool && Array.isArray(msg.content)) {
      // The images of the round's results, and the lines naming whose output each one is.
      const m = zero();
      for (const p of msg.content) {
        if (p.type === "text" && /^The images? below/.test(p.text)) m.textBytes += Buffer.byteLength(p.text, "utf8");
        else if (p.type === "image_url") {
          m.images++;
          m.imageTokens += imageTokens(String(p.image_url?.url ?? "").replace(/^data:[^,]*,/, ""), "openai");
        }
      }
      add(m);
    }
  }
  return { total: finish(total), perCall };
}

/** Measures the tool_result blocks of one captured Messages API request body. */
export function measureToolResults(body: any): { total: Measure; perCall: Map<string, Measure> } {
  const total = zero();
  const perCall = new Map<string, Measure>();
  for (const msg of body?.messages ?? []) {
    if (!Array.isArray(msg.content)) continue;
    for (const block of msg.content) {
      if (block.type !== "tool_result") continue;
      const m = zero();
      for (const c of Array.isArray(block.content)
        ? block.content
        : [{ type: "text", text: String(block.content ?? "") }]) {
        if (c.type === "text") m.textBytes += Buffer.byteLength(c.text, "utf8");
        else if (c.type === "image") {
          m.images++;
          m.imageTokens += imageTokens(c.source?.data ?? "");
        }
      }
      finish(m);
      perCall.set(block.tool_use_id, m);
      total.textBytes += m.textBytes;
      total.images += m.images;
      total.imageTokens += m.imageTokens;
    }
  }
  return { total: finish(total), perCall };
}

export interface RunResult {
  name: string;
  api: Api;
  results: Measure;
  /** Text bytes in the tool_results that no selected assistant output carried (host receipts). */
  hostWritten: number;
  bodyBytes: number;
  failed: string[];
  perCall: Measure[];
}

/** One full turn of the workload on a started host, in a mode (and, on a legacy connection, a profile). */
export async function runWorkload(
  host: Host,
  calls: WorkloadCall[],
  opts: { mode: Mode; profile?: LegacyProfile; name: string; api?: Api },
): Promise<RunResult> {
  const api = opts.api ?? "anthropic";
  const ids = calls.map((_, i) => (api === "openai" ? `call_bench_${i}` : `toolu_bench_${i}`));
  let adapter: ModelAdapter;
  let lastBody: () => { body: any; raw: string } | undefined;
  let stop: () => Promise<void>;
  if (api === "openai") {
    const fake = await new FakeOpenAI().start();
    fake.contextTokens = 10_000_000;
    fake.responder = (_body, index) =>
      index === 0
        ? { kind: "reply", calls: calls.map((c, i) => ({ id: ids[i], name: c.tool, args: c.args })) }
        : { kind: "reply", text: "done" };
    adapter = new OpenAIModel({
      provider: "openai-compatible",
      model: "fake-large",
      baseURL: fake.baseURL,
      maxRetries: 0,
      contextWindow: 1_000_000,
    });
    lastBody = () => fake.chats().at(-1);
    stop = () => fake.stop();
  } else {
    const fake = await new FakeAnthropic().start();
    fake.responder = (_body, index) =>
      index === 0
        ? {
            kind: "reply",
            blocks: calls.map((c, i) => ({ type: "tool_use" as const, id: ids[i], name: c.tool, input: c.args })),
          }
        : { kind: "reply", blocks: [{ type: "text", text: "done" }] };
    adapter = new AnthropicModel({ apiKey: "bench-key", baseURL: fake.url, maxRetries: 0 });
    lastBody = () => fake.requests.at(-1);
    stop = () => fake.stop();
  }
  try {
    // Each outcome read under the profile (as compare reads it); everything else is the Host itself.
    const executor: ToolExecutor = {
      modelTools: () => host.modelTools(),
      instructions: () => host.instructions(),
      call: async (name, args, o) => {
        const outcome = await host.call(name, args, o);
        return opts.profile ? readAs(opts.profile, outcome) : outcome;
      },
    };
    const turn = await runTurn({
      adapter,
      executor,
      conversation: new Conversation(),
      prompt: "Run the benchmark workload.",
      mode: opts.mode,
      maxRounds: 2,
    });
    const failed: string[] = [];
    if (!turn.ok) failed.push(`turn: ${turn.error?.message}`);
    let selectedText = 0;
    turn.toolCalls.forEach((r, i) => {
      if (!r.outcome?.ok) failed.push(`${label(calls[i])}: ${r.outcome ? r.outcome.error.message : "not run"}`);
      else for (const out of r.outcome.routed.model) selectedText += outputText(out);
    });
    if (turn.toolCalls.length !== calls.length) failed.push(`${turn.toolCalls.length} of ${calls.length} calls ran`);
    const last = lastBody();
    const { total, perCall } = api === "openai" ? measureChatToolResults(last?.body) : measureToolResults(last?.body);
    return {
      name: opts.name,
      api,
      results: total,
      hostWritten: total.textBytes - selectedText,
      bodyBytes: Buffer.byteLength(last?.raw ?? ""),
      failed,
      perCall: ids.map((id) => perCall.get(id) ?? zero()),
    };
  } finally {
    await stop();
  }
}

/** Text bytes of one model-sink output as context.ts renders it (structured → compact JSON). */
function outputText(out: ModelSinkEntry): number {
  if (out.format === "structured") return Buffer.byteLength(modelJsonText(out.structuredContent), "utf8");
  let n = 0;
  for (const b of out.content) if (b.type === "text") n += Buffer.byteLength(b.text, "utf8");
  return n;
}

/** The floor: each call's assistant/content output alone, requested explicitly (2026-12-01). */
export async function measureFloor(
  host: Host,
  calls: WorkloadCall[],
  api: Api = "anthropic",
): Promise<{ total: Measure; perCall: Measure[]; failed: string[] }> {
  const total = zero();
  const perCall: Measure[] = [];
  const failed: string[] = [];
  for (const c of calls) {
    const o = await host.call(c.tool, c.args, { mode: "chat", select: [{ audience: "assistant", format: "content" }] });
    const m = zero();
    if (!o.ok) failed.push(`${label(c)}: ${o.error.message}`);
    else
      for (const out of o.routed.model)
        if (out.format === "content")
          for (const b of out.content) {
            if (b.type === "text") m.textBytes += Buffer.byteLength(b.text, "utf8");
            else if (b.type === "image") {
              m.images++;
              m.imageTokens += imageTokens(b.data, api);
            }
          }
    perCall.push(finish(m));
    total.textBytes += m.textBytes;
    total.images += m.images;
    total.imageTokens += m.imageTokens;
  }
  return { total: finish(total), perCall, failed };
}

/**
 * A mode's own floor: the assistant outputs that mode selects (structured mode: assistant/structured
 * where declared), called one by one and measured as context.ts renders them, with nothing else.
 */
async function measureModeFloor(host: Host, calls: WorkloadCall[], mode: Mode, api: Api): Promise<Measure> {
  const m = zero();
  for (const c of calls) {
    const o = await host.call(c.tool, c.args, { mode });
    if (!o.ok) continue;
    for (const out of o.routed.model) {
      m.textBytes += outputText(out);
      if (out.format === "content")
        for (const b of out.content)
          if (b.type === "image") {
            m.images++;
            m.imageTokens += imageTokens(b.data, api);
          }
    }
  }
  return finish(m);
}

export async function contextBench({ log }: BenchOptions): Promise<Section> {
  const { calls } = loadWorkload();
  // Anthropic's runs are the main table; OpenAI's (Chat Completions) are its per-provider columns.
  const runs: RunResult[] = [];
  const openaiRuns = new Map<string, RunResult>();
  let floor: Awaited<ReturnType<typeof measureFloor>>;
  let openaiFloor: Awaited<ReturnType<typeof measureFloor>>;
  let structuredFloor: Measure;
  const both = async (host: Host, o: { mode: Mode; profile?: LegacyProfile; name: string }) => {
    runs.push(await runWorkload(host, calls, o));
    openaiRuns.set(o.name, await runWorkload(host, calls, { ...o, api: "openai" }));
  };
  const sep = await Host.start({ config: demoConfig(), mode: "chat" });
  try {
    log(`context: floor over ${calls.length} calls`);
    floor = await measureFloor(sep, calls);
    openaiFloor = await measureFloor(sep, calls, "openai");
    structuredFloor = await measureModeFloor(sep, calls, "structured", "anthropic");
    for (const mode of MODES) {
      log(`context: mode ${mode}`);
      await both(sep, { mode, name: `SEP ${mode}` });
    }
  } finally {
    await sep.close();
  }
  const legacy = await Host.start({ config: demoConfig(), mode: "chat", protocol: LEGACY_MODERN });
  try {
    for (const profile of PROFILES) {
      log(`context: legacy profile ${profile}`);
      await both(legacy, { mode: "chat", profile, name: `legacy ${profile}` });
    }
  } finally {
    await legacy.close();
  }
  const byName = new Map(runs.map((r) => [r.name, r]));
  const fo = openaiFloor.total.tokens;
  const bothTokens = byName.get("legacy both")!.results.tokens;
  const srp = byName.get("legacy structured-replaces-content")!.results.tokens;
  const f = floor.total.tokens;

  const summary: Table = {
    caption: `Tool results in the final Messages API request, and in the final Chat Completions request (the OpenAI columns: tool messages plus the images moved into the next user message) (${calls.length} calls; floor = assistant/content alone: ${int(floor.total.textBytes)} B, ${int(f)} tokens by Anthropic's count, ${int(fo)} by OpenAI's, ${floor.total.images} image blocks)`,
    head: [
      "run",
      "tool_result text bytes",
      "of which host-written",
      "image blocks",
      "est. tokens",
      "× floor",
      "× both",
      "× structured-replaces-content",
      "whole request body bytes",
      "OpenAI: tool text bytes",
      "OpenAI: est. tokens",
      "OpenAI: × floor",
    ],
    rows: runs.map((r) => [
      r.name,
      int(r.results.textBytes),
      int(r.hostWritten),
      r.results.images,
      int(r.results.tokens),
      ratio(r.results.tokens / f),
      ratio(r.results.tokens / bothTokens),
      ratio(r.results.tokens / srp),
      int(r.bodyBytes),
      int(openaiRuns.get(r.name)!.results.textBytes),
      int(openaiRuns.get(r.name)!.results.tokens),
      ratio(openaiRuns.get(r.name)!.results.tokens / fo),
    ]),
  };
  const perCallRuns = runs.filter((r) =>
    ["SEP chat", "SEP structured", "SEP code", "SEP app", "legacy both", "legacy structured-replaces-content"].includes(
      r.name,
    ),
  );
  const perCall: Table = {
    caption: "Per call: estimated tokens reaching the model",
    head: ["call", "floor", ...perCallRuns.map((r) => r.name)],
    rows: calls.map((c, i) => [label(c), floor.perCall[i].tokens, ...perCallRuns.map((r) => r.perCall[i].tokens)]),
  };
  const targets: Target[] = MODES.map((m) => {
    const r = byName.get(`SEP ${m}`)!;
    const x = r.results.tokens / f;
    return {
      name: `SEP ${m} at the floor`,
      target: "≤ 1.02× floor tokens",
      figure: `${ratio(x)}: ${int(r.results.tokens)} vs ${int(f)} tokens; ${fmt(bothTokens / r.results.tokens, 2)}× fewer than both, ${fmt(srp / r.results.tokens, 2)}× fewer than structured-replaces-content`,
      met: x <= 1.02,
    };
  });
  // The per-provider promise: SEP chat at the assistant/content floor on Chat Completions too.
  const openaiChat = openaiRuns.get("SEP chat")!.results;
  targets.push({
    name: "SEP chat at the floor through the OpenAI adapter (Chat Completions)",
    target: "≤ 1.02× floor tokens (OpenAI's count)",
    figure: `${ratio(openaiChat.tokens / fo)}: ${int(openaiChat.tokens)} vs ${int(fo)} tokens (${int(openaiChat.textBytes)} vs ${int(openaiFloor.total.textBytes)} B)`,
    met: openaiChat.tokens / fo <= 1.02,
  });
  const structuredRun = byName.get("SEP structured")!.results;
  const ownFloor = structuredRun.tokens / structuredFloor.tokens;
  targets.push({
    name: "SEP structured at its own floor (the assistant/structured-or-content outputs of the same calls, alone)",
    target: "≤ 1.02× (nothing duplicated, nothing added)",
    figure: `${ratio(ownFloor)}: ${int(structuredRun.tokens)} vs ${int(structuredFloor.tokens)} tokens (${int(structuredRun.textBytes)} vs ${int(structuredFloor.textBytes)} B)`,
    met: ownFloor <= 1.02,
  });
  const failures = [
    ...floor.failed,
    ...runs.flatMap((r) => r.failed.map((x) => `${r.name}: ${x}`)),
    ...[...openaiRuns.values()].flatMap((r) => r.failed.map((x) => `${r.name} (OpenAI): ${x}`)),
  ];
  return {
    id: "context",
    title: "1. Model context: what reaches the model",
    intro: [
      `Workload \`bench/workloads/context.json\` (${calls.length} calls: search_customers incl. Globex → 37 and NA → 300 records, lookup_order incl. one error, legacy_weather, generate_images ×2 (one image each), wait). Each run is one \`runTurn\` through the real Anthropic adapter against the fake Messages API: the fake's first reply holds all ${calls.length} tool_use blocks, the second request body (captured) holds all tool_results. SEP runs speak 2026-12-01 to the spawned demo server; legacy runs force \`--protocol ${LEGACY_MODERN}\` (content + structuredContent) and read the result under each client profile (mode chat).`,
      '"Host-written" is the part of the tool_result text that no selected assistant output carried: the host\'s receipts (code mode) — 0 means the host added nothing to what the server sent for the model.',
      "Bytes are deterministic (one run per configuration; the demo server is seeded). Tokens = ceil(text bytes / 4) + the images as each API counts them: Anthropic Σ ceil(w×h/750), OpenAI 85 + 170 per 512-pixel tile at high detail.",
      "The OpenAI columns are the same runs through the real `openai` SDK against the fake Chat Completions endpoint (which enforces the API's message rules): `tool` messages carry text only, so an image result would move to the next user message with one host-written line naming its call; both are counted.",
    ],
    tables: [summary, perCall],
    targets,
    notes: [
      "The demo's images never reach the model in any run: generate_images sends pixels only as user/content, and its legacy `content` is the assistant/content description, so no image blocks appear (the image-token term is 0).",
      "Code mode: tools with a programmatic/structured variant (search_customers, lookup_order) send the host's receipt (one line: what went where, size, schema title; never data) instead of assistant/content; the receipt is counted in full. It is about as long as a short assistant/content (lookup_order) and shorter than a long one (search_customers), so code mode sits at or below the floor.",
      'App mode: the demo\'s assistant/content for search_customers is shorter when a ui output is requested ("…displayed them in an interactive table"), so app mode can sit below the floor.',
      "Structured mode sends assistant/structured (compact JSON) where declared (search_customers, legacy_weather) instead of prose, by design: it is the mode for a model that wants data, not the assistant/content floor. Against the assistant/content floor (as issue 7 defines it) it stays above 1.02× — the demo's assistant/structured JSON is simply longer than its one-line prose, a property of the demo's variants, not of the host. Against its own floor (the outputs structured mode selects, requested one call at a time and measured alone) it is at 1.000×: the host sends each selected output once and adds nothing.",
      ...(failures.length
        ? [`Calls that failed: ${failures.join("; ")}`]
        : ["Every workload call succeeded in every run (ord_9999 is an isError result by design)."]),
    ],
  };
}
