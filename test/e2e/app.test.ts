// The real app in tmux on the bundled demo server with the offline model: the conversation,
// the table, images, code mode's side pane, the transcript file and a clean /quit.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { layoutFor } from "../../src/ui/App.js";
import { leftColumn, rightColumn, startApp, type AppTerminal } from "../helpers/tmux.js";

const COLS = 120;
const { main } = layoutFor(COLS, true);
const open: AppTerminal[] = [];
after(() => open.forEach((t) => t.close()));

async function app(): Promise<AppTerminal> {
  const t = await startApp({ columns: COLS, rows: 50 });
  open.push(t);
  return t;
}

test("one session: chat table, images, code mode JSON only in the side pane, transcript, /quit exits 0", async () => {
  const t = await app();
  const first = t.screen();
  assert.match(first, /● demo 2026-12-01 connected/);
  assert.match(first, /mode chat · model offline/);
  // Bracketed paste is on: a pasted multi-line text (tmux paste-buffer -p sends the markers) is
  // one input, not submitted; Enter then submits it whole.
  t.tmux("set-buffer", "-b", "p1", "/mode\nstructured");
  t.tmux("paste-buffer", "-p", "-b", "p1", "-t", "e2e");
  await t.waitFor("[2 lines · Enter sends all]", "the paste held in the prompt");
  assert.ok(!t.screen().includes("200~"), "paste markers never typed");
  t.keys("C-u", "BSpace", "C-u"); // clear both lines
  await t.waitFor((x) => !x.includes("2 lines ·"), "the prompt cleared");

  // Chat mode: typed line + Enter in one chunk is submitted; the table is drawn in place.
  t.submit("search customers Globex");
  let s = await t.idle(/Globex Retail[\s\S]*returned to me/, "the table and the answer");
  const conv = leftColumn(s, main);
  assert.match(conv, /✓ demo · search_customers/);
  assert.match(conv, /│ \d+\s+│ Globex Retail\s+│/);
  assert.match(conv, /returned to me: I found 37 Globex customer records/);
  assert.ok(!/I received no image data/.test(s), "no image sentence after a plain search");

  // Images: half-blocks in the conversation; the offline model only got the description.
  t.submit("generate 2 images of a sunrise");
  await t.idle(/generate_images returned to me/, "the image turn", { timeoutMs: 30_000 });
  s = t.screen(400);
  assert.ok(/[▀▄]{20}/.test(s), "half-block image rows drawn");
  assert.match(s, /image\/(png|jpeg) .* — \/save-output \d/);
  assert.match(s, /I received no image data\./);
  assert.ok(!/I received \d+ images?/.test(s), "the model never saw pixels");

  // Code mode: the programmatic JSON goes to the side pane and nowhere else.
  t.submit("/mode code");
  await t.waitFor("mode code · model offline", "the status bar in code mode");
  // search_customers is typed in run_code's declarations (code mode lists it only there): the
  // person's own direct call shows the receipt a direct call gets.
  t.submit('/call search_customers {"query":"Globex"}');
  s = await t.idle(/nextCursor[\s\S]*mode code/, "programmatic JSON in the side pane");
  const side = rightColumn(s, main + 1);
  assert.match(side, /Programmatic \(1\)/);
  // The new entry from its head, its header summing it up (the closing braces are below).
  assert.match(side, /\{[^}]*nextCursor/);
  assert.match(side, /"customerId": "cust_\d+"/);
  assert.match(s, /→ model receipt · user — · programmatic [\d.]+ k?B · app —/);
  // PgUp until the first record is in view: cust_1042 (Globex Retail) is the first id.
  let found = false;
  for (let i = 0; i < 60 && !found; i++) {
    t.keys("PPage");
    s = await t.waitFor(() => true, "a frame");
    found = rightColumn(s, main + 1).includes("cust_1042");
  }
  assert.ok(found, "cust_1042 reachable by scrolling the programmatic pane");
  const history = t.screen(3000);
  const codeTurn = history.slice(history.lastIndexOf("› /call search_customers"));
  const codeConv = leftColumn(codeTurn, main);
  for (const leak of ["cust_1042", "nextCursor", "customerId", "Globex Retail"])
    assert.ok(!codeConv.includes(leak), `${leak} leaked into the conversation`);
  assert.match(codeConv, /receipt/);

  t.submit("/quit");
  assert.equal(await t.exitCode(), 0);
  assert.equal(t.format("#{cursor_flag}"), "1", "the cursor is shown after exit");
  // Bracketed paste is off again: a paste into the shell's tty shows no ^[[200~ marker.
  t.tmux("set-buffer", "-b", "p2", "after-exit-paste");
  t.tmux("paste-buffer", "-p", "-b", "p2", "-t", "e2e");
  await t.waitFor("after-exit-paste", "the pasted text echoed by the tty");
  assert.ok(!t.screen().includes("[200~"), "bracketed paste left on after exit");

  // The transcript: one JSONL file, every event of the session.
  const dir = join(t.stateDir, "mcp-prism");
  const files = readdirSync(dir).filter((f) => f.startsWith("session-") && f.endsWith(".jsonl")); // eras.json (the era cache) and history.jsonl (the prompt history) live there too
  assert.equal(files.length, 1);
  assert.ok(
    readdirSync(dir).every((f) => f.endsWith(".jsonl") || f === "eras.json"),
    readdirSync(dir).join(", "),
  );
  const recs = readFileSync(join(dir, files[0]), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  const kinds = recs.map((r) => r.kind);
  assert.deepEqual([kinds[0], recs[0].event], ["session", "start"]);
  assert.deepEqual([kinds.at(-1), recs.at(-1).event], ["session", "end"]);
  const users = recs.filter((r) => r.kind === "user").map((r) => r.text);
  assert.deepEqual(users, [
    "search customers Globex",
    "generate 2 images of a sunrise",
    "/mode code",
    `/call search_customers {"query":"Globex"}`,
    "/quit",
  ]);
  const tools = recs.filter((r) => r.kind === "tool");
  assert.deepEqual(
    tools.map((r) => r.tool),
    ["search_customers", "generate_images", "search_customers"],
  );
  assert.deepEqual(tools[2].requestedOutputs, [{ audience: "programmatic", format: "structured" }]);
  assert.ok(JSON.stringify(tools[2].routed.programmatic).includes("cust_1042"));
  assert.equal(tools[2].routed.model.length, 0);
  assert.ok(tools[1].routed.user[0].content.some((b: { type: string }) => b.type === "image"));
  assert.ok(recs.filter((r) => r.kind === "request").length === 3);
  assert.ok(recs.some((r) => r.kind === "mode" && r.mode === "code"));
});
