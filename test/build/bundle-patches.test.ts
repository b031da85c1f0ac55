// The start-up patches scripts/bundle.js applies to dependencies keep their behaviour: the
// string-width pre-check lets through every RGI emoji sequence, and string-width built with the
// patch measures a corpus exactly as the unpatched package does.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { BUNDLE_PATCHES, MAY_BE_RGI_EMOJI, patchPlugin, type BundlePatch } from "../../scripts/bundle-patches.js";

const RGI = new RegExp("^\\p{RGI_Emoji}$", "v"); // (tsc targets ES2022: no /v literals)
const cp = (n: number) => String.fromCodePoint(n);
const isSurrogate = (n: number) => n >= 0xd800 && n <= 0xdfff;

/** Every single code point, with VS16, as a keycap and with each skin tone; every flag; tag flags; ZWJ pairs. */
function* candidates(): Generator<string> {
  const emoji: string[] = [];
  for (let n = 0; n <= 0x10ffff; n++) {
    if (isSurrogate(n)) continue;
    const c = cp(n);
    yield c;
    if (!/\p{Emoji}/u.test(c)) continue;
    emoji.push(c);
    yield `${c}\uFE0F`;
    yield `${c}\u20E3`;
    yield `${c}\uFE0F\u20E3`;
    for (let m = 0x1f3fb; m <= 0x1f3ff; m++) yield c + cp(m);
  }
  for (let a = 0x1f1e6; a <= 0x1f1ff; a++) for (let b = 0x1f1e6; b <= 0x1f1ff; b++) yield cp(a) + cp(b);
  const tags = (s: string) => [...s].map((ch) => cp(0xe0000 + ch.charCodeAt(0))).join("");
  for (const sub of ["gbeng", "gbsct", "gbwls", "usca"]) yield `\u{1F3F4}${tags(sub)}\u{E007F}`;
  // ZWJ sequences: a deterministic spread of pairs of emoji, plain and with VS16.
  for (let i = 0; i < emoji.length; i += 7)
    for (let j = 0; j < emoji.length; j += 53) {
      yield `${emoji[i]}\u200D${emoji[j]}`;
      yield `${emoji[i]}\uFE0F\u200D${emoji[j]}\uFE0F`;
    }
  for (const s of ["👨‍👩‍👧‍👦", "🧑🏽‍💻", "🏳️‍🌈", "🏳️‍⚧️", "👁️‍🗨️", "❤️‍🔥", "🧑‍🤝‍🧑", "#️⃣", "*️⃣", "0️⃣", "🇺🇳"]) yield s;
}

test("the string-width pre-check lets through every RGI emoji sequence", () => {
  let rgi = 0;
  const missed: string[] = [];
  for (const s of candidates()) {
    if (!RGI.test(s)) continue;
    rgi++;
    if (!MAY_BE_RGI_EMOJI.test(s)) missed.push(s);
  }
  assert.ok(rgi > 2000, `only ${rgi} RGI sequences generated: the generator is broken`);
  assert.deepEqual(missed, []);
  // It is a filter, not a pass-all: ASCII, box drawing and the UI's punctuation are turned away.
  for (const s of ["a", "1", "#", "─", "╭", "·", "…", "▸", "●", "⇧", "│"])
    assert.equal(MAY_BE_RGI_EMOJI.test(s), false, s);
});

const CORPUS = [
  "",
  "plain ascii",
  "mode chat · model offline",
  "╭────────╮",
  "● demo 2026-12-01 connected │ Tab/⇧Tab pane",
  "connecting…",
  "▸ Programmatic (0)",
  "中文字符",
  "ｶﾀｶﾅ",
  "한국어 각",
  "e\u0301",
  "a\u200Bb",
  "\u001b[31mred\u001b[0m",
  "👍",
  "👍🏽",
  "👨‍👩‍👧‍👦",
  "🇫🇷🇩🇪",
  "#️⃣ 1️⃣ #⃣",
  "🏴󠁧󠁢󠁳󠁣󠁴󠁿",
  "©️ ® ™",
  "☺ ☺️",
  "⌚⌛",
  "🧑‍💻 and text",
  "↔️↔",
  "x\u20E3",
  "ﾟ゛ｰ",
  "Ａｂｃ",
  "\t tab",
  "\u0000\u0007",
  "🏳️‍🌈 flag",
  "⚧",
  "9\uFE0F",
  "*\uFE0F\u20E3",
  "👩🏾‍🤝‍👨🏻",
];

test("string-width built with the patch measures like the unpatched package", async (t) => {
  const patch = BUNDLE_PATCHES.find((p) => p.name.startsWith("string-width")) as BundlePatch;
  const dir = mkdtempSync(join(tmpdir(), "mcp-prism-patch-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const entry = join(process.cwd(), "node_modules", "ink", "node_modules", "string-width", "index.js");
  const applied = new Map<BundlePatch, number>();
  await build({
    entryPoints: [entry],
    outfile: join(dir, "patched.mjs"),
    bundle: true,
    format: "esm",
    platform: "node",
    plugins: [patchPlugin([patch], applied)],
    logLevel: "silent",
  });
  assert.equal(applied.get(patch), 1, "the patch did not apply to Ink's string-width");
  const patched = (await import(pathToFileURL(join(dir, "patched.mjs")).href)).default as (
    s: string,
    o?: object,
  ) => number;
  const original = (await import(pathToFileURL(entry).href)).default as (s: string, o?: object) => number;
  for (const s of CORPUS) {
    assert.equal(patched(s), original(s), JSON.stringify(s));
    assert.equal(
      patched(s, { ambiguousIsNarrow: false }),
      original(s, { ambiguousIsNarrow: false }),
      JSON.stringify(s),
    );
  }
  // And one grapheme at a time across every code point next to an emoji-bearing one.
  for (let n = 0x2000; n <= 0x2bff; n++) assert.equal(patched(`x${cp(n)}`), original(`x${cp(n)}`), n.toString(16));
  for (let n = 0x1f000; n <= 0x1faff; n++) assert.equal(patched(`x${cp(n)}`), original(`x${cp(n)}`), n.toString(16));
});
