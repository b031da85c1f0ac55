// The per-result budget (result-budget.ts, applied by buildContext after routing) and read_result:
// a result over the budget reaches the model as its head and a note; the rest only through
// read_result; the conversation (so the transcript) keeps every byte, and a resumed one still pages.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ANTHROPIC_CAPABILITIES, buildContext, type ModelTextBlock } from "../../src/model/context.js";
import { Conversation, type ToolResultItem } from "../../src/model/conversation.js";
import { budgetBlocks, resultBudget } from "../../src/model/result-budget.js";
import { parsePath, readResultTool } from "../../src/model/read-result.js";
import {
  anthropicImageTokens,
  openaiImageTokens,
  charsWithin,
  estimateImageTokens,
  estimateTextTokens,
} from "../../src/model/tokens.js";
import { contextItemRecord } from "../../src/model/context-record.js";
import { parseContextItem } from "../../src/model/context-parse.js";
import type { ModelSinkEntry } from "../../src/host/types.js";
import { ASSISTANT_PNG } from "./support.js";
import { encodePng } from "../../src/protocol/png.js";
import { parseConfig } from "../../src/host/config/config.js";
import { OpenAIModel } from "../../src/model/openai.js";

const caps = ANTHROPIC_CAPABILITIES;
const text = (t: string) =>
  [{ audience: "assistant", format: "content", content: [{ type: "text", text: t }] }] as unknown as ModelSinkEntry[];
const structured = (v: unknown) =>
  [{ audience: "assistant", format: "structured", structuredContent: v }] as unknown as ModelSinkEntry[];

function conversationWith(result: ModelSinkEntry[], id = "toolu_big"): Conversation {
  const c = new Conversation();
  c.append({ role: "user", text: "read it" });
  c.append({ role: "assistant", text: "", toolCalls: [{ id, name: "read", server: "fs", tool: "read", args: {} }] });
  c.append({ role: "tool", callId: id, isError: false, result });
  return c;
}

function sentText(c: Conversation, resultTokens?: number): string {
  const msgs = buildContext(c.items, caps, { resultTokens });
  const tr = msgs[msgs.length - 1].content[0];
  assert.equal(tr.type, "tool_result");
  return (tr as { content: ModelTextBlock[] }).content.map((b) => b.text).join("\n");
}

test("the estimate: ASCII at four a token, other characters one each, images by Anthropic's rule", () => {
  assert.equal(estimateTextTokens("abcd".repeat(100)), 100);
  assert.equal(estimateTextTokens("日本語"), 3);
  assert.ok(estimateTextTokens("é".repeat(40)) > estimateTextTokens("e".repeat(40)));
  // Anthropic: w×h/750, long edge scaled to 1568 first, area capped near 1.15 MP.
  assert.equal(anthropicImageTokens(750, 1), 1);
  assert.equal(anthropicImageTokens(1000, 1000), 1334);
  assert.ok(anthropicImageTokens(8000, 8000) <= Math.ceil(1_150_000 / 750));
  // OpenAI (high detail): fit 2048², short side to 768, 85 + 170 per 512-pixel tile — the
  // figures of OpenAI's own worked examples.
  assert.equal(openaiImageTokens(1024, 1024), 765);
  assert.equal(openaiImageTokens(2048, 4096), 1105);
  assert.equal(openaiImageTokens(100, 100), 255);
  assert.equal(
    new OpenAIModel({ provider: "openai", model: "m", baseURL: "http://127.0.0.1:1/v1", contextWindow: 1000 })
      .capabilities.imageTokens,
    openaiImageTokens,
  );
  assert.equal(estimateImageTokens(Buffer.from(encodePng(75, 10, new Uint8Array(75 * 10 * 4))).toString("base64")), 1);
  assert.equal(
    estimateImageTokens(ASSISTANT_PNG, () => 42),
    42,
  );
  // charsWithin is the inverse: that many characters fit, one more would not.
  const s = "x".repeat(1000);
  const n = charsWithin(s, 100);
  assert.ok(estimateTextTokens(s.slice(0, n)) <= 100 && estimateTextTokens(s.slice(0, n + 1)) > 100);
  // Never half a surrogate pair.
  const emoji = "😀".repeat(50);
  assert.equal(charsWithin(emoji, 11) % 2, 0);
});

test("the default budget is the smaller of 25,000 tokens and a quarter of the window; a configured one wins", () => {
  assert.equal(resultBudget(caps), 25_000);
  assert.equal(resultBudget({ ...caps, contextWindow: 32_000 }), 8_000);
  assert.equal(resultBudget(caps, 5_000), 5_000);
});

test("a result within the budget is sent whole; a larger one as its head and one note naming its size and handle", () => {
  const small = conversationWith(text("small result"));
  assert.equal(sentText(small), "small result");
  const big = "HEAD-CANARY " + "lorem ipsum dolor ".repeat(20_000) + " TAIL-CANARY";
  const c = conversationWith(text(big));
  const cut: string[] = [];
  buildContext(c.items, caps, { resultTokens: 2_000, onCut: (id) => cut.push(id) });
  assert.deepEqual(cut, ["toolu_big"]);
  const sent = sentText(c, 2_000);
  assert.ok(sent.startsWith("HEAD-CANARY"));
  assert.ok(!sent.includes("TAIL-CANARY"));
  assert.ok(estimateTextTokens(sent) <= 2_000, `sent ≈${estimateTextTokens(sent)} tokens`);
  assert.match(sent, new RegExp(`\\(${big.length.toLocaleString("en-US")} characters\\), over the 2,000-token budget`));
  assert.match(sent, /read_result tool: \{"handle":"toolu_big","offset":\d+\}\]$/);
  // The conversation (what the transcript records) still holds every byte.
  assert.equal(((c.items[2] as ToolResultItem).result as ModelSinkEntry[])[0].format, "content");
  assert.equal(JSON.stringify((c.items[2] as ToolResultItem).result).includes("TAIL-CANARY"), true);
});

test("images count by the provider's rule: one that does not fit is left out and named", () => {
  const blocks = [
    { type: "text" as const, text: "a".repeat(4000) },
    { type: "image" as const, mimeType: "image/png", data: ASSISTANT_PNG },
  ];
  const r = budgetBlocks(blocks, 1_200, { ...caps, imageTokens: () => 5_000 }, "h", false);
  assert.ok(r.cut);
  assert.ok(!r.blocks.some((b) => b.type === "image"));
  assert.match((r.blocks.at(-1) as ModelTextBlock).text, /1 image left out \(the user sees them\)/);
  const fits = budgetBlocks(blocks, 1_200, { ...caps, imageTokens: () => 10 }, "h", false);
  assert.equal(fits.cut, undefined);
});

test("read_result pages through the whole text: the pages put together are the result, each within the budget", async () => {
  const big = Array.from({ length: 30_000 }, (_, i) => `line ${i} ✓`).join("\n");
  const c = conversationWith(text(big));
  const reader = readResultTool(c, caps, 5_000);
  let offset = 0;
  let whole = "";
  for (let pages = 0; pages < 100; pages++) {
    const r = await reader.run({ handle: "toolu_big", offset }, {});
    assert.equal(r.isError, false, r.text);
    assert.ok(estimateTextTokens(r.text) <= 5_000);
    const [header, ...rest] = r.text.split("\n");
    whole += rest.join("\n");
    const next = /Next: (\{.*\})\]$/.exec(header);
    if (!next) break;
    offset = JSON.parse(next[1]).offset;
  }
  assert.equal(whole, big);
  const bounded = await reader.run({ handle: "toolu_big", offset: 10, length: 5 }, {});
  assert.equal(bounded.text.split("\n")[1], big.slice(10, 15));
});

test("read_result reads a structured result by JSON path, and says in one line what was wrong", async () => {
  const rows = Array.from({ length: 5_000 }, (_, i) => ({ id: i, name: `customer ${i}`, tags: ["a", "b"] }));
  const c = conversationWith(structured({ rows, total: 5000 }));
  assert.match(sentText(c, 2_000), /or by JSON path into it/);
  const reader = readResultTool(c, caps, 5_000);
  for (const path of ["$.rows[4321].name", "rows.4321.name", "/rows/4321/name", "$['rows'][4321].name"]) {
    const r = await reader.run({ handle: "toolu_big", path }, {});
    assert.equal(r.isError, false, r.text);
    assert.equal(r.text.split("\n")[1], '"customer 4321"');
  }
  assert.deepEqual(parsePath("$"), []);
  const errs = [
    await reader.run({ handle: "nope" }, {}),
    await reader.run({ handle: "toolu_big", path: "rows.99999" }, {}),
    await reader.run({ handle: "toolu_big", offset: -1 }, {}),
    await reader.run({ handle: "toolu_big", offset: 10 ** 9 }, {}),
    await reader.run({ handle: 5 }, {}),
  ];
  for (const e of errs) {
    assert.equal(e.isError, true);
    assert.equal(e.text.split("\n").length, 1);
  }
});

test("after a resume (the transcript's records read back), read_result still pages the whole result", async () => {
  const big = "HEAD " + "z".repeat(400_000) + " TAIL-CANARY";
  const c = conversationWith(text(big));
  const items = c.items.map((i) => {
    const rec = contextItemRecord(i);
    assert.ok("item" in rec);
    const back = parseContextItem(JSON.parse(JSON.stringify(rec.item)));
    assert.ok(back.ok);
    return back.value;
  });
  const resumed = Conversation.from(items);
  assert.ok(!sentText(resumed).includes("TAIL-CANARY"));
  const r = await readResultTool(resumed, caps, 25_000).run({ handle: "toolu_big", offset: big.length - 20 }, {});
  assert.match(r.text, /TAIL-CANARY$/);
});

test("config limits.modelResultTokens: an integer of tokens, else one line naming the key", () => {
  const servers = { mcpServers: { a: { command: "x" } } };
  assert.equal(
    parseConfig(JSON.stringify({ ...servers, limits: { modelResultTokens: 8000 } }), "/tmp/c.json").limits
      .modelResultTokens,
    8000,
  );
  assert.equal(parseConfig(JSON.stringify(servers), "/tmp/c.json").limits.modelResultTokens, undefined);
  for (const bad of [0, 12.5, "8000", 10 ** 9]) {
    assert.throws(
      () => parseConfig(JSON.stringify({ ...servers, limits: { modelResultTokens: bad } }), "/tmp/c.json"),
      /limits\.modelResultTokens: expected integer from 1000/,
    );
  }
});
