// conformance/sep-3279.yaml ↔ the checks of `mcp-prism check`: every traced id is implemented,
// every implemented check is traced, texts are the spec's own, and every BCP 14 keyword of the
// SEP falls inside some entry's text.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { ALL_CHECKS } from "../../src/conformance/index.js";
import { parse } from "yaml";

const FILE = "conformance/sep-3279.yaml";
const LISTS = ["requirements", "proposed", "builds_on"] as const;
// The quoted sources are copied into the repository (conformance/spec/README.md): no skip on a reviewer's clone.
const SPEC_DIR = "conformance/spec";
const SEP = join(SPEC_DIR, "sep-3279-tool-result-variants.txt");

type Entry = Record<string, string>;

/** Each list's entries; the failsafe schema reads every scalar as a string (`sep: 3279` is "3279"). */
function entries(): (Entry & { list: string })[] {
  const doc = parse(readFileSync(FILE, "utf8"), { schema: "failsafe" }) as Record<string, unknown>;
  assert.equal(doc.sep, "3279");
  return LISTS.flatMap((l) => {
    const v = doc[l];
    assert.ok(Array.isArray(v), `${FILE}: ${l} must be a list`);
    return v.map((e: unknown, i) => {
      const flat =
        typeof e === "object" &&
        e !== null &&
        !Array.isArray(e) &&
        Object.values(e).every((x) => typeof x === "string");
      assert.ok(flat, `${FILE}: ${l}[${i}] must be a map of plain values`);
      return { ...(e as Entry), list: l };
    });
  });
}

test("the traceability file parses and every entry is a check or an exclusion", () => {
  const all = entries();
  assert.ok(all.length > 40);
  for (const e of all) {
    const where = `${e.list}: ${e.check ?? e.text?.slice(0, 60)}`;
    assert.ok(e.text, `${where}: text is required`);
    assert.ok(e.url?.startsWith("https://modelcontextprotocol.io/specification/draft/"), `${where}: url`);
    assert.notEqual(e.check === undefined, e.excluded === undefined, `${where}: exactly one of check / excluded`);
    if (e.check !== undefined) {
      assert.match(e.check, /^sep-\d+-[a-z0-9-]+$/, where);
      assert.ok(e.level === "MUST" || e.level === "SHOULD", `${where}: level MUST or SHOULD`);
    } else assert.ok(e.excluded.length > 10, `${where}: the exclusion needs a reason`);
    if (e.list === "requirements" && e.check) assert.match(e.check, /^sep-3279-/, where);
    assert.equal(
      e.check?.startsWith("sep-3279-proposed-") ?? e.list === "proposed",
      e.list === "proposed",
      `${where}: proposed ids are sep-3279-proposed-* and only in the proposed list`,
    );
    if (e.covered_by !== undefined)
      assert.ok(existsSync(e.covered_by), `${where}: covered_by ${e.covered_by} does not exist`);
  }
});

test("every traced check is implemented and every implemented check is traced, at the same level", () => {
  const traced = entries().filter((e) => e.check !== undefined);
  const ids = traced.map((e) => e.check);
  assert.deepEqual(
    ids.filter((id, i) => ids.indexOf(id) !== i),
    [],
    "check ids are unique",
  );
  const implemented = new Map(ALL_CHECKS.map((c) => [c.id, c.level]));
  assert.equal(implemented.size, ALL_CHECKS.length, "implemented ids are unique");
  assert.deepEqual(
    ids.filter((id) => !implemented.has(id)),
    [],
    "traced but not implemented",
  );
  assert.deepEqual(
    [...implemented.keys()].filter((id) => !ids.includes(id)),
    [],
    "implemented but not traced",
  );
  for (const e of traced) assert.equal(e.level, implemented.get(e.check), `${e.check}: level`);
  const proposed = new Set(ALL_CHECKS.filter((c) => c.proposed).map((c) => c.id));
  assert.deepEqual(
    [...proposed].sort(),
    traced
      .filter((e) => e.list === "proposed")
      .map((e) => e.check)
      .sort(),
    "proposed checks are the yaml's proposed list",
  );
});

/** The BCP 14 keywords of a text (MUST NOT counts as MUST, SHOULD NOT as SHOULD). */
const keywordsOf = (text: string) =>
  new Set([...text.matchAll(/\b(MUST|SHOULD|MAY|REQUIRED)\b/g)].map((m) => (m[1] === "REQUIRED" ? "MUST" : m[1])));

test("every check's level is the keyword of the statement it traces, never a MAY", () => {
  for (const e of entries().filter((x) => x.check !== undefined)) {
    const own = keywordsOf(e.text);
    if (own.has("MUST") || own.has("SHOULD"))
      assert.ok(own.has(e.level), `${e.check}: level ${e.level}, but the statement says ${[...own].join("/")}`);
    else {
      assert.ok(!own.has("MAY"), `${e.check}: a check cannot rest on a MAY ("${e.text.slice(0, 60)}…")`);
      assert.ok(e.basis, `${e.check}: the text has no keyword; a basis sentence must carry the level`);
      assert.ok(keywordsOf(e.basis).has(e.level), `${e.check}: level ${e.level} is not the basis sentence's keyword`);
    }
  }
});

// ---------------------------------------------------------------- texts against the spec

/** Lower-case alphanumerics with a map back to positions in the original text. */
function normalize(text: string): { norm: string; at: number[] } {
  let norm = "";
  const at: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (/[A-Za-z0-9]/.test(c)) {
      norm += c.toLowerCase();
      at.push(i);
    }
  }
  return { norm, at };
}

/** Markdown → prose: link targets and emphasis markers removed. */
const unmark = (md: string) => md.replace(/\]\([^)]*\)/g, "]").replace(/\]\[[^\]]*\]/g, "]");

/** The quoted pieces of an entry text: split on " / " and on [bracketed remarks]. */
function fragments(text: string): string[] {
  return text
    .split(" / ")
    .flatMap((t) => t.split(/\[[^\]]*\]/))
    .map((t) => normalize(t).norm)
    .filter((t) => t.length > 0);
}

test("entry texts are quoted from the SEP and the 2026-07-28 pages", () => {
  const sep = normalize(readFileSync(SEP, "utf8")).norm;
  const up = join(SPEC_DIR, "upstream-2026-07-28");
  const upstream = normalize(
    readdirSync(up)
      .map((f) => unmark(readFileSync(join(up, f), "utf8")))
      .join("\n"),
  ).norm;
  for (const e of entries()) {
    const source = e.list === "builds_on" ? upstream : sep;
    const quoted = e.list === "proposed" ? e.derived_from : e.text;
    assert.ok(quoted, `${e.check}: needs the quoted text`);
    for (const f of fragments(quoted))
      assert.ok(
        source.includes(f),
        `${e.check ?? e.text.slice(0, 50)}: "${f.slice(0, 60)}…" is not in the ${e.list === "builds_on" ? "2026-07-28 pages" : "SEP"}`,
      );
    if (e.list === "proposed")
      for (const f of fragments(e.text))
        assert.ok(!sep.includes(f), `${e.check}: the proposed text is already the SEP's`);
    if (e.basis)
      for (const f of fragments(e.basis))
        assert.ok(sep.includes(f) || upstream.includes(f), `${e.check}: basis "${f.slice(0, 60)}…" is not quoted`);
  }
});

test("every BCP 14 keyword of the SEP lies inside a traced statement", () => {
  const raw = readFileSync(SEP, "utf8");
  const { norm, at } = normalize(raw);
  const covered: [number, number][] = [];
  for (const e of entries().filter((x) => x.list === "requirements")) {
    for (const f of fragments(e.text)) {
      for (let from = norm.indexOf(f); from !== -1; from = norm.indexOf(f, from + 1))
        covered.push([at[from], at[from + f.length - 1]]);
    }
  }
  const boilerplate = raw.indexOf("The key words MUST");
  const missing: string[] = [];
  for (const m of raw.matchAll(/\b(MUST|SHOULD|MAY|REQUIRED|SHALL|RECOMMENDED|OPTIONAL)\b/g)) {
    const i = m.index!;
    if (i >= boilerplate && i < raw.indexOf("\n", boilerplate)) continue;
    if (!covered.some(([a, b]) => i >= a && i <= b))
      missing.push(raw.slice(Math.max(0, i - 60), i + 40).replace(/\s+/g, " "));
  }
  assert.deepEqual(missing, [], "keywords outside every entry");
});
