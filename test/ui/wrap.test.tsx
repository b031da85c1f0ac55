// Text wrapped to the width, nothing cut: notices and echoed lines (no row starts with a stray
// space, continuation rows under their column), /help under its description column, /tools with
// every variant, JSON in a reply cut only after punctuation, and the CLI's text on a terminal.
import "./env.js";
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { hangingIndent, wrapText } from "../../src/ui/format.js";
import { wrapSpans } from "../../src/ui/markdown.js";
import { fitToTerminal } from "../../src/cli/output/terminal.js";
import { TurnItemView } from "../../src/ui/components/Conversation.js";
import { COMMANDS, type CommandContext, type CommandHost } from "../../src/ui/commands/index.js";
import { SessionStore } from "../../src/ui/state.js";
import type { ToolEntry } from "../../src/host/types.js";
import { renderAt, stripAnsi, type Harness } from "./harness.js";

const open: Harness[] = [];
after(() => open.forEach((h) => h.unmount()));

const lead = (row: string) => row.match(/^ */)![0].length;

test("wrapText: breaks at spaces, drops the space at a break, indents continuation rows, cuts nothing", () => {
  const text = "plain words that go on and on and on beyond the width of the terminal here and further still";
  const rows = wrapText(text, 30);
  assert.ok(rows.length > 2);
  for (const r of rows) assert.ok(r.length <= 30 && !r.startsWith(" ") && !r.endsWith(" "), JSON.stringify(r));
  assert.equal(rows.join(" "), text);
  // A second column (after two spaces) is where continuation rows go.
  const col = wrapText(
    "/mode <chat|structured>  switch the output policy mode for the rest of this session please",
    50,
  );
  assert.equal(hangingIndent("/mode <chat|structured>  switch", 50), 25);
  for (const r of col.slice(1)) assert.equal(lead(r), 25, JSON.stringify(col));
  assert.equal(
    col.map((r) => r.trim()).join(" "),
    "/mode <chat|structured>  switch the output policy mode for the rest of this session please",
  );
});

test("wrapText: a long JSON word is cut after punctuation, never inside a key or a value", () => {
  const json = JSON.stringify({
    customers: [
      { name: "GlobexNorth", region: "NA" },
      { name: "GlobexSouth", region: "EMEA" },
    ],
    total: 37,
  });
  const rows = wrapText(`returned: ${json}`, 24);
  for (const r of rows.slice(0, -1)) assert.match(r, /[,:{}[\]]$|returned:$/, JSON.stringify(rows));
  assert.equal(rows.join("").replace("returned:", "returned: "), `returned: ${json}`);
});

test("markdown: a JSON token wider than the row is cut after punctuation (structured-mode replies)", () => {
  const json = JSON.stringify({
    rows: [
      { id: 1, name: "Initech" },
      { id: 2, name: "Globex" },
    ],
    more: true,
  });
  const lines = wrapSpans([{ text: `search returned: ${json}` }], 20)
    .map((s) => s.text)
    .join("")
    .split("\n");
  for (const l of lines.slice(1, -1)) assert.match(l, /[,:{}[\]]$/, JSON.stringify(lines));
  assert.equal(lines.slice(1).join(""), json);
});

function ctx(tools: ToolEntry[], width: number) {
  const store = new SessionStore();
  const host: CommandHost = {
    tools: async () => tools,
    servers: () => [],
    call: async () => {
      throw new Error("no calls");
    },
  };
  const c: CommandContext = { store, host, width: () => width, quit: () => {}, cwd: "/tmp", commands: COMMANDS };
  const notice = () => {
    const items = [...store.getState().finished, ...(store.getState().live ? [store.getState().live!] : [])].flatMap(
      (t) => t.items,
    );
    return items.filter((i) => i.kind === "notice").at(-1) as { kind: "notice"; level: "info"; text: string };
  };
  return { c, notice };
}

function drawn(item: { kind: "notice"; level: "info"; text: string }, width: number): string[] {
  const h = renderAt(<TurnItemView item={item} width={width} />, width);
  open.push(h);
  return stripAnsi(h.lastFrame()).split("\n");
}

test("/help at 80 columns: every row fits, and a description's continuation sits under the description column", async () => {
  const { c, notice } = ctx([], 80);
  await COMMANDS.find((x) => x.name === "help")!.run("", c);
  const rows = drawn(notice(), 80);
  const col = rows[0].search(/ {2}\S/) + 2;
  assert.ok(col > 10 && col <= 34, rows[0]);
  let continued = 0;
  for (const r of rows.slice(0, rows.indexOf(""))) {
    assert.ok(r.length <= 80, r);
    if (!r.startsWith(" ")) continue;
    assert.equal(lead(r), col, r);
    continued++;
  }
  assert.ok(continued > 0, "some description wraps at 80 columns");
});

test("/tools shows every variant of a tool, wrapped, never cut with …", async () => {
  const variants = [
    "assistant/content",
    "user/structured",
    "user/content",
    "programmatic/structured",
    "io.modelcontextprotocol/ui/structured",
    "assistant/structured",
  ].map((v) => {
    const i = v.lastIndexOf("/");
    return { audience: v.slice(0, i), format: v.slice(i + 1) as "content" | "structured" };
  });
  const t: ToolEntry = {
    server: "demo",
    name: "search_customers",
    qualifiedName: "search_customers",
    inputSchema: { type: "object" },
    era: "2026-12-01",
    variants,
    description:
      "Search the CRM for customers by name, region and last activity, returning a page of records and the total",
  };
  const { c, notice } = ctx([t], 60);
  await COMMANDS.find((x) => x.name === "tools")!.run("", c);
  const rows = drawn(notice(), 60);
  const all = rows.map((r) => r.trim()).join(" ");
  for (const v of [
    "assistant/content",
    "user/structured",
    "user/content",
    "programmatic/structured",
    "io.modelcontextprotocol/ui/structured",
    "assistant/structured",
  ])
    assert.ok(all.includes(v), `${v} in ${all}`);
  assert.ok(all.includes("returning a page of records and the total"), "the whole description");
  assert.ok(!all.includes("…"));
  for (const r of rows) assert.ok(r.length <= 60 && !/^ (?! )/.test(r), JSON.stringify(r));
});

test("the CLI's text: wrapped to a terminal's columns, unchanged in a pipe", () => {
  const text =
    "search_customers (demo, 2026-12-01) → assistant/content, user/structured, programmatic/structured\n  Search the CRM for customers by name and region\n";
  assert.equal(fitToTerminal(text, undefined), text);
  const rows = fitToTerminal(text, 40).split("\n");
  for (const r of rows) assert.ok(r.length <= 40 && !/^ (?! )/.test(r), JSON.stringify(r));
  assert.ok(rows.length > 3);
  assert.equal(rows.at(-1), "", "the final newline kept");
});
