// Markdown for model text: the blocks (ui/markdown.ts), their drawing (components/Markdown.tsx,
// through ink-testing-library), the streaming split (live-text.ts) and the sanitizer on the way.
import "./env.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import { render } from "ink-testing-library";
import { Box } from "ink";
import { Markdown } from "../../src/ui/components/Markdown.js";
import { markdownBlocks, type MdContext } from "../../src/ui/markdown.js";
import { highlightLine } from "../../src/ui/markdown-code.js";
import { settledPart, splitFinished, TABLE_HOLD_LINES } from "../../src/ui/live-text.js";
import type { TurnItem } from "../../src/ui/state.js";

// eslint-disable-next-line no-control-regex
const plain = (s: string | undefined) => (s ?? "").replace(/\x1b\[[0-9;]*m/g, "");
const frame = (text: string, width = 60, context?: MdContext) => {
  const r = render(<Markdown text={text} width={width} context={context} />);
  const f = r.lastFrame() ?? "";
  r.unmount();
  return f;
};

const DOC = [
  "# Title",
  "## Globex summary",
  "",
  "We have **37** customers, *many* in `NA`, ~~none~~ lost. See [docs](https://ex.com/d) and <https://q.r>.",
  "",
  "1. first item that is long enough to wrap at forty columns for sure",
  "2. second",
  "   - nested",
  "",
  "> quoted **words**",
  "",
  "```js",
  'const a = "s"; // note',
  "return 42;",
  "```",
  "",
  "| name | n |",
  "|---|--:|",
  "| Globex Retail | 16 |",
  "| Globex Energy | 9 |",
  "",
  "---",
  "a &amp; b",
].join("\n");

test("markdown drawn: no raw marks, links with their URL, lists indented under their text, a boxed table", () => {
  const f = plain(frame(DOC, 40));
  for (const raw of ["##", "**", "~~", "```", "|---", "](", "&amp;"])
    assert.ok(!f.includes(raw), `no raw ${raw} in:\n${f}`);
  assert.match(f, /^Title$/m);
  assert.match(f, /^Globex summary$/m);
  assert.match(f, /We have 37 customers, many in NA, none/);
  assert.match(f, /docs \(https:\/\/ex\.com\/d\)/);
  assert.match(f, /https:\/\/q\.r\./);
  assert.match(
    f,
    /^1\. first item that is long enough to\n {3}wrap/m,
    "a wrapped item stays under its text, not at column 0",
  );
  assert.match(f, /^2\. second\n {3}• nested$/m);
  assert.match(f, /│ quoted words/);
  assert.match(f, /┌ js\n│ const a = "s"; \/\/ note\n│ return 42;/);
  assert.match(f, /│ Globex Retail │ 16 │\n│ Globex Energy │  9 │/);
  assert.match(f, /^a & b$/m);
  for (const line of f.split("\n")) assert.ok(line.length <= 40, `fits 40 columns: ${line}`);
});

test("styles reach the terminal: bold, italic, code colour, highlighted keywords/strings/comments", () => {
  const f = frame("**b** *i* `c`\n\n```ts\nconst s = 'x'; // c\n```");
  assert.ok(f.includes("\x1b[1mb"), "bold");
  assert.ok(f.includes("\x1b[3mi"), "italic");
  assert.deepEqual(
    highlightLine("const s = 'x'; // c", "ts").map((p) => p.kind ?? "-"),
    ["keyword", "-", "string", "-", "comment"],
  );
  assert.deepEqual(
    highlightLine("x = 1  # note", "py").map((p) => p.kind ?? "-"),
    ["-", "number", "-", "comment"],
  );
  assert.deepEqual(highlightLine("no colours here", "text"), [{ text: "no colours here" }]);
});

test("markdown is sanitized: escapes in text, code, links and table cells are shown, never sent", () => {
  const esc = "\x1b]0;pwned\x07\x1b[2J";
  const f = frame(
    `# h${esc}\n\n**${esc}** [x](https://e/${esc})\n\n\`\`\`\n${esc}\n\`\`\`\n\n| a |\n|---|\n| ${esc} |\n\n&#27;[31m`,
  );
  assert.ok(!/\x1b\]0;pwned|\x1b\[2J|\x07|\x1b\[31m/.test(f), "no raw payload");
  assert.ok(f.includes("␛]0;pwned"), "shown visibly");
  assert.ok(f.includes("␛[31m"), "a numeric entity naming ESC is sanitized after decoding");
});

test("streaming-safe: an unclosed fence, a table cut mid-row, an empty part", () => {
  assert.match(plain(frame("```py\nprint(1)")), /┌ py\n│ print\(1\)/);
  assert.match(plain(frame("| a | b |\n|---|---|\n| 1")), /│ a │ b │[\s\S]*│ 1 │/);
  assert.equal(plain(frame("")).trim(), "");
  assert.deepEqual(
    markdownBlocks("```ts", 60),
    [{ type: "code", lang: "ts", label: true, lines: [] }],
    "an opening line alone draws only its label",
  );
  assert.deepEqual(
    markdownBlocks("```", 60, { fence: "```ts" }),
    [{ type: "code", lang: "ts", label: false, lines: [] }],
    "the closing line alone draws nothing",
  );
});

/** What the store does while a reply streams: settle finished parts after every delta. */
function streamParts(text: string, delta: number): TurnItem[] {
  const parts: TurnItem[] = [];
  let live: TurnItem[] = [{ kind: "assistant", text: "" }];
  for (let i = 0; i < text.length; i += delta) {
    const last = live[0] as Extract<TurnItem, { kind: "assistant" }>;
    live = [{ ...last, text: last.text + text.slice(i, i + delta) }];
    const split = settledPart(live, () => true);
    if (split) {
      parts.push(...split.part);
      live = split.rest;
    }
  }
  return [...parts, ...live];
}

test("a reply streamed in deltas of any size draws as the whole reply does", () => {
  const whole = plain(frame(DOC, 60));
  for (const delta of [1, 3, 7, 50]) {
    const parts = streamParts(DOC, delta) as Extract<TurnItem, { kind: "assistant" }>[];
    assert.equal(parts.map((p) => p.text).join("\n"), DOC, "the parts are the lines of the reply");
    const r = render(
      <Box flexDirection="column">
        {parts.map((p, i) => (
          <Markdown key={i} text={p.text} width={60} context={p.md} />
        ))}
      </Box>,
    );
    assert.equal(plain(r.lastFrame()), whole, `delta ${delta}: streamed parts draw the same frame`);
    r.unmount();
  }
});

test("splitFinished keeps table rows together, up to a bound, and says where a part starts in a fence", () => {
  assert.equal(splitFinished("| a | b |\n|---|---|\n| 1 | 2 |\n"), undefined, "a table is held while it may go on");
  assert.deepEqual(splitFinished("| a |\n|---|\n| 1 |\nafter\nx"), { done: "| a |\n|---|\n| 1 |\nafter", tail: "x" });
  assert.deepEqual(splitFinished("```ts\nconst a\nco"), {
    done: "```ts\nconst a",
    tail: "co",
    context: { fence: "```ts" },
  });
  assert.deepEqual(
    splitFinished("```\nx", { fence: "```ts" }),
    { done: "```", tail: "x" },
    "the closing line ends the context",
  );
  const rows = Array.from({ length: TABLE_HOLD_LINES + 4 }, (_, i) => `| r${i} |`);
  const big = splitFinished(["| h |", "|---|", ...rows, ""].join("\n"))!;
  assert.ok(big, "a long table is settled at the bound");
  assert.deepEqual(big.context, { tableHead: "| h |\n|---|" });
  const rest = plain(frame(big.tail.replace(/\n$/, ""), 40, big.context));
  assert.match(rest, /^├/, "the continuation starts under the header, not with it");
  assert.ok(!rest.includes("│ h"), "the header is not drawn again");
});

test("cost linear in the text: lexing and drawing 10× the text is not quadratic", () => {
  const block = markdownBlocks(DOC, 80);
  assert.ok(block.length > 5);
  // Timing belongs to the bench (bench/markdown.ts); here only that a 10× text gives ~10× blocks.
  const ten = markdownBlocks(Array.from({ length: 10 }, () => DOC).join("\n\n"), 80);
  assert.ok(ten.length >= block.length * 10 && ten.length <= block.length * 10 + 20);
});

test("wrapped lines never start with a space, and long words are cut at the width", () => {
  const text =
    "search_customers returned to me: I found 37 Globex customer records. The three most recently active accounts are **Globex Retail**, Globex Energy, and Globex Labs. " +
    "x".repeat(70);
  for (const width of [20, 33, 40, 68]) {
    const lines = plain(frame(text, width)).split("\n");
    assert.ok(lines.length > 1);
    for (const l of lines) {
      assert.ok(!l.startsWith(" "), `width ${width}: ${JSON.stringify(l)}`);
      assert.ok(l.length <= width, `width ${width}: ${l}`);
    }
  }
});

test("a JSON reply (structured mode) is drawn pretty-printed: no token broken by wrapping", () => {
  const json = JSON.stringify({
    query: "Globex",
    total: 37,
    mostRecent: [{ name: "Globex Retail", region: "NA", lastActivity: "2026-08-17T21:10:00Z" }],
    byRegion: { NA: 16, EMEA: 9 },
  });
  const f = plain(frame(`search_customers returned to me:\n\n${json}`, 60));
  assert.match(f, /┌ json\n│ \{\n│ {3}"query": "Globex",/);
  assert.match(f, /│ {7}"lastActivity": "2026-08-17T21:10:00Z"/);
  assert.ok(!/^"/m.test(f));
  assert.match(plain(frame("{not json", 40)), /^\{not json$/m, "what does not parse stays text");
});

test("JSON written over several lines keeps its indentation in one json box, whole or streamed in deltas", () => {
  const value = {
    customer: { id: "cust_1005", plans: [{ name: "enterprise", seats: 40, tags: ["a]", "{b"] }] },
    total: 2,
  };
  const reply = [
    "Here is the record:",
    "",
    JSON.stringify(value, null, 4),
    "",
    "[docs](https://ex.com/d) say more.",
    "and a closing line",
  ].join("\n");
  const whole = plain(frame(reply, 60));
  assert.equal((whole.match(/┌ json/g) ?? []).length, 1, `one json box:\n${whole}`);
  assert.match(
    whole,
    /│ \{\n│ {5}"customer": \{\n│ {9}"id": "cust_1005",\n│ {9}"plans": \[\n│ {13}\{/,
    "the model's indentation kept",
  );
  assert.match(whole, /│ \}\n/, "the box closes with the value");
  assert.match(
    whole,
    /^docs https:\/\/ex\.com\/d say more\.$|^docs.*say more\.$/m,
    "a line starting with a link is not JSON",
  );
  assert.match(whole, /^and a closing line$/m);
  for (const delta of [1, 5, 13, 64]) {
    const parts = streamParts(reply, delta) as Extract<TurnItem, { kind: "assistant" }>[];
    assert.equal(parts.map((p) => p.text).join("\n"), reply);
    const r = render(
      <Box flexDirection="column">
        {parts.map((p, i) => (
          <Markdown key={i} text={p.text} width={60} context={p.md} />
        ))}
      </Box>,
    );
    assert.equal(plain(r.lastFrame()), whole, `delta ${delta}: streamed parts draw the same frame`);
    r.unmount();
  }
  assert.deepEqual(splitFinished('{\n  "a": [\n    1,\n'), {
    done: '{\n  "a": [\n    1,',
    tail: "",
    context: { fence: "```json", json: 2 },
  });
});
