import { test } from "node:test";
import assert from "node:assert/strict";
import { renderTable, summarizeCell, fitWidths, totalRows } from "../../src/ui/table.js";
import { displayWidth } from "../../src/ui/format.js";

const widthOf = (s: string) => Math.max(...s.split("\n").map(displayWidth));
const customers = Array.from({ length: 10_000 }, (_, i) => ({
  id: i + 1,
  name: `Customer number ${i + 1}`,
  email: `customer${i + 1}@example.com`,
  notes: "a long free-text note that certainly does not fit in any narrow column at all",
  tags: ["vip", "eu"],
  address: { city: "Paris", zip: "75001", street: "Rue de Rivoli" },
}));

for (const width of [60, 120]) {
  test(`table fits width ${width}`, () => {
    const out = renderTable(customers.slice(0, 5), { width });
    const tableLines = out.split("\n").filter((l) => /^[┌│├└]/.test(l));
    assert.ok(tableLines.length >= 7);
    for (const l of tableLines)
      assert.ok(displayWidth(l) <= width, `line wider than ${width}: ${displayWidth(l)}\n${l}`);
    assert.ok(out.includes("…"), "long cells are cut with an ellipsis");
    if (width >= 120)
      assert.ok(out.includes("[vip, eu]") && out.includes("{city: Paris"), "small nested values inline");
    else assert.ok(out.includes("[vi") && out.includes("{ci"), "small nested values inline (cut)");
  });
}

test("wider terminal shows more of each cell", () => {
  const narrow = renderTable(customers.slice(0, 3), { width: 60 });
  const wide = renderTable(customers.slice(0, 3), { width: 120 });
  assert.ok(wide.includes("customer1@example.com"));
  assert.ok(!narrow.includes("customer1@example.com"));
});

test("10,000 rows: one window of 20 plus the remainder note, reading only that window", () => {
  const out = renderTable(customers, { width: 100 });
  const dataRows = out.split("\n").filter((l) => /^│ \d+\s/.test(l));
  assert.equal(dataRows.length, 20);
  assert.match(out, /9980 more rows — \/table to page/);
  // Windowing, not timing (timing lives in bench/): count which rows the renderer touches.
  const touched = new Set<number>();
  const watched = new Proxy(customers, {
    get(target, key, receiver) {
      if (typeof key === "string" && /^\d+$/.test(key)) touched.add(Number(key));
      return Reflect.get(target, key, receiver);
    },
  });
  renderTable(watched, { width: 100, offset: 5000 });
  // Allowed: the column sample (the first 200 rows) and the window itself.
  const beyond = [...touched].filter((i) => i >= 200 && (i < 5000 || i >= 5020));
  assert.deepEqual(beyond, [], "renderer read rows outside the column sample and the window");
});

test("paging: offset windows and the last page has no 'more' note", () => {
  const out = renderTable(customers, { width: 100, offset: 9990 });
  assert.match(out, /│ 9991 /);
  assert.match(out, /│ 10000 /);
  assert.match(out, /rows 9991–10000 of 10000/);
  assert.ok(!/more rows/.test(out));
});

test("an object is drawn as a property view", () => {
  const out = renderTable({ city: "Paris", temp: 21.5, wind: { speed: 3, dir: "NW" }, days: [1, 2, 3] }, { width: 60 });
  assert.match(out, /│ key\s+│ value/);
  assert.match(out, /│ city\s+│ Paris/);
  assert.match(out, /│ wind\s+│ \{speed: 3, dir: NW\}/);
  assert.match(out, /│ days\s+│ \[1, 2, 3\]/);
});

test("an object holding one array is drawn as that array, captioned", () => {
  const out = renderTable({ customers: customers.slice(0, 2) }, { width: 120 });
  assert.match(out, /^customers:/);
  assert.match(out, /│ #\s+│ id\s+│ name/);
});

test("array of scalars is one column; union of keys in first-seen order", () => {
  const scalars = renderTable(["a", "b", 3], { width: 60 });
  assert.match(scalars, /│ #\s+│ value/);
  const mixed = renderTable([{ a: 1 }, { b: 2, a: 3 }, { c: 4 }], { width: 60 });
  const head = mixed.split("\n")[1];
  assert.ok(head.indexOf(" a ") < head.indexOf(" b ") && head.indexOf(" b ") < head.indexOf(" c "), head);
});

test("too many columns are capped with +N cols", () => {
  const wide = [Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`col${i}`, i]))];
  const out = renderTable(wide, { width: 60 });
  assert.match(out, /\+\d+ cols/);
  assert.ok(widthOf(out) <= 60);
});

test("cells and headers are sanitized", () => {
  const out = renderTable([{ "\x1b]0;pwned\x07": "x\x1b[2J\u009b" }], { width: 80 });
  assert.ok(!out.includes("\x1b"));
  assert.ok(out.includes("␛[2J"));
  assert.ok(!out.includes("\u009b"));
});

test("summaries and width fitting", () => {
  assert.equal(summarizeCell([1]), "[1]");
  assert.equal(summarizeCell([]), "[0 items]");
  assert.equal(summarizeCell({}), "{0 keys}");
  // 34 (polish): an error object reads as what it says, not `{2 keys}`.
  assert.equal(summarizeCell({ code: 404, message: "Not found" }), "{code: 404, message: Not found}");
  assert.equal(summarizeCell({ a: { b: 1 }, c: [1, 2] }), "{a: {1 key}, c: [2 items]}");
  assert.equal(summarizeCell(Array.from({ length: 9 }, (_, i) => i)), "[9 items]");
  assert.ok(summarizeCell({ s: "x".repeat(1e6) }).length <= 200, "bounded");
  assert.equal(summarizeCell(null), "null");
  assert.deepEqual(fitWidths([5, 10], 40), [5, 10]);
  const f = fitWidths([5, 50, 50], 40);
  assert.equal(f[0], 5);
  assert.ok(f[1] + f[2] <= 35);
  assert.equal(renderTable([], { width: 60 }), "(empty)");
});

test("a table tells what the server sent and the total it reported, and how to see the rest", () => {
  const rows = Array.from({ length: 30 }, (_, i) => ({ id: i + 1 }));
  const out = renderTable({ customers: rows, total: 37, nextCursor: "abc" }, { width: 80 });
  assert.match(out, /^customers:/);
  assert.match(
    out,
    /rows 1–20 of 30 sent · 10 more rows — \/table to page · the server reported 37 in all · more on the server \(nextCursor\)/,
  );
  assert.equal(totalRows({ customers: rows, total: 37 }), 30, "/table pages through every row sent");
  const last = renderTable(
    { customers: rows, total: 37 },
    { width: 80, offset: 20, moreHint: "--json prints every row" },
  );
  assert.match(last, /│ 30 │/, "the last page reaches the last row");
  assert.ok(!/more rows/.test(last));
  assert.match(
    renderTable({ customers: rows }, { width: 80, moreHint: "--json prints every row" }),
    /10 more rows — --json prints every row/,
    "the CLI names its own way",
  );
});

test("a server's next page numbers on from the rows sent before (rowBase)", () => {
  const rows = Array.from({ length: 12 }, (_, i) => ({ name: `r${i}` }));
  const out = renderTable({ items: rows, total: 37 }, { width: 60, rowBase: 25 });
  assert.match(out, /│ 26 │ r0/);
  assert.match(out, /│ 37 │ r11/);
  assert.doesNotMatch(out, /│ 1 │ r0/);
  const paged = renderTable(rows, { width: 60, rowBase: 25, pageSize: 5, offset: 5 });
  assert.match(paged, /│ 31 │ r5/);
  assert.match(paged, /rows 31–35 \(6–10 of the 12 on this page\)/);
});
