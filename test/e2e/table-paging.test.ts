// Tables tell the truth, all of it: the demo server's search_customers pages (25 of Globex's 37
// rows, a nextCursor). The built CLI says how many rows were sent and reported and how to see the
// rest (`--rows N`, `--json`); the app's `/table next` pages the rows sent, then calls the tool
// again with the server's cursor through the normal call path and shows the remaining rows.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { startApp, type AppTerminal } from "../helpers/tmux.js";
import { BIN } from "../helpers/host-fixtures.js";

const cli = (args: string[]) =>
  spawnSync(process.execPath, [BIN, ...args], {
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, ANTHROPIC_API_KEY: "", COLUMNS: "120" },
  });
const GLOBEX = ["call", "search_customers", "--args", '{"query":"Globex"}'];

test("call: the table says what was sent and reported; --rows N prints N rows; a bad --rows is a usage error", () => {
  const page = cli(GLOBEX);
  assert.equal(page.status, 0, page.stderr);
  assert.match(page.stdout, /│ 20 │ Globex Studios/);
  assert.doesNotMatch(page.stdout, /│ 21 │/);
  assert.match(page.stdout, /rows 1–20 of 25 sent · 5 more rows — --rows 25 shows them all, --json prints every row/);
  assert.match(page.stdout, /the server reported 37 in all/);
  assert.match(page.stdout, /more on the server \(nextCursor\) — --json shows it/);
  const all = cli([...GLOBEX, "--rows", "25"]);
  assert.equal(all.status, 0, all.stderr);
  assert.match(all.stdout, /│ 25 │ Globex Telecom/);
  assert.doesNotMatch(all.stdout, /more rows/);
  const bad = cli([...GLOBEX, "--rows", "0"]);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /^mcp-prism call: --rows: expected a number of rows 1\.\.100000 \(got "0"\)/);
  // The cursor the note points at is in --json, and calling again with it gives the rest.
  const doc = JSON.parse(cli([...GLOBEX, "--json"]).stdout) as {
    routed: { user: { structuredContent: { nextCursor: string; items: unknown[] } }[] };
  };
  const user = doc.routed.user[0].structuredContent;
  assert.equal(user.items.length, 25);
  const rest = cli([
    "call",
    "search_customers",
    "--args",
    JSON.stringify({ query: "Globex", cursor: user.nextCursor }),
  ]);
  assert.match(rest.stdout, /│ 12 │ /);
  assert.doesNotMatch(rest.stdout, /nextCursor/);
});

const open: AppTerminal[] = [];
after(() => open.forEach((t) => t.close()));

test("app: /table next pages the rows sent, then fetches the server's next page with its cursor", async () => {
  const t = await startApp({ columns: 120, rows: 60, env: { ANTHROPIC_API_KEY: "" } });
  open.push(t);
  t.submit("search customers Globex");
  const first = await t.idle(/returned to me: I found 37 Globex/, "the first page", { timeoutMs: 60_000 });
  assert.match(
    first,
    /rows 1–20 of 25 sent · 5 more rows — \/table to page · the server reported 37 in all · more on the server \(nextCursor\)\s+—\s+\/table\s+next\s+fetches\s+them/,
  );
  t.submit("/table next");
  await t.idle(/│ 25 │ Globex Telecom/, "rows 21–25");
  t.submit("/table next");
  // A second call: its own card, with the cursor in its arguments, and the 12 rows left.
  const next = await t.idle(
    /the server's next page, rows 26–37 of the 37 it reported · the last page/,
    "the server's next page",
    { timeoutMs: 60_000 },
  );
  assert.match(next, /search_customers \{"query":"Globex","cursor":"/);
  // Numbered on from the rows sent before (34, polish: it read 1–12 under "rows 26–37").
  assert.match(next, /│ 26 │ Globex[\s\S]*│ 37 │ Globex/);
  t.submit("/table next");
  await t.idle(/nothing after row 37: rows 26–37 were the server's last page/, "the end");
  t.submit("/quit");
  assert.equal(await t.exitCode(20_000), 0);
});
