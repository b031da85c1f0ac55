import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { sanitizeText, sanitizeInline, sanitizeName, sanitizeJson } from "../../src/protocol/sanitize.js";

const ESC = "\x1b";
// [class, input, sanitizeText output]
const CORPUS: [string, string, string][] = [
  ["CSI cursor move", `a${ESC}[5;10Hb`, "a␛[5;10Hb"],
  ["CSI erase screen", `${ESC}[2J${ESC}[H`, "␛[2J␛[H"],
  ["CSI device status report", `${ESC}[6n`, "␛[6n"],
  ["SGR colour", `${ESC}[31mred${ESC}[0m`, "␛[31mred␛[0m"],
  ["OSC 0 title (BEL)", `${ESC}]0;pwned\x07`, "␛]0;pwned␇"],
  ["OSC 2 title (ST)", `${ESC}]2;pwned${ESC}\\`, "␛]2;pwned␛\\"],
  ["OSC 8 link", `${ESC}]8;;http://evil/${ESC}\\click${ESC}]8;;${ESC}\\`, "␛]8;;http://evil/␛\\click␛]8;;␛\\"],
  ["OSC 52 clipboard", `${ESC}]52;c;cm0gLXJmIH4=\x07`, "␛]52;c;cm0gLXJmIH4=␇"],
  ["unterminated OSC", `${ESC}]0;never ends`, "␛]0;never ends"],
  ["DCS", `${ESC}P1$qm${ESC}\\`, "␛P1$qm␛\\"],
  ["APC (kitty graphics)", `${ESC}_Gf=100;AAAA${ESC}\\`, "␛_Gf=100;AAAA␛\\"],
  ["PM", `${ESC}^secret${ESC}\\`, "␛^secret␛\\"],
  ["SOS", `${ESC}Xstring${ESC}\\`, "␛Xstring␛\\"],
  ["RIS reset", `${ESC}c`, "␛c"],
  ["8-bit CSI U+009B", "\u009B2J", "⟨U+009B⟩2J"],
  ["8-bit OSC U+009D", "\u009D0;t\u009C", "⟨U+009D⟩0;t⟨U+009C⟩"],
  ["NEL U+0085", "a\u0085b", "a⟨U+0085⟩b"],
  ["NUL", "a\x00b", "a␀b"],
  ["BEL", "\x07", "␇"],
  ["backspace", "abc\x08\x08x", "abc␈␈x"],
  ["lone CR", "safe\rEVIL", "safe␍EVIL"],
  ["CRLF is a newline", "a\r\nb", "a\nb"],
  ["DEL", "a\x7fb", "a␡b"],
  ["vertical tab / form feed", "\x0b\x0c", "␋␌"],
  ["tab becomes spaces", "a\tb", "a    b"],
  ["newline kept", "a\nb", "a\nb"],
  ["RLO override", "abc\u202Efdp.exe", "abc⟨U+202E⟩fdp.exe"],
  ["LRE/PDF", "\u202Ax\u202C", "⟨U+202A⟩x⟨U+202C⟩"],
  ["isolates", "\u2066x\u2069\u2067\u2068", "⟨U+2066⟩x⟨U+2069⟩⟨U+2067⟩⟨U+2068⟩"],
  ["LRM/RLM marks", "\u200E\u200F", "⟨U+200E⟩⟨U+200F⟩"],
  ["zero-width space", "a\u200Bb", "a⟨U+200B⟩b"],
  ["word joiner", "a\u2060b", "a⟨U+2060⟩b"],
  ["BOM", "\uFEFFhi", "⟨U+FEFF⟩hi"],
  ["tag characters (ASCII smuggling)", "x\u{E0041}", "x⟨U+E0041⟩"],
  ["line separator", "a\u2028b", "a⏎b"],
  ["lone surrogate", "a\uD800b", "a\uFFFDb"],
  ["emoji ZWJ kept in text", "👨\u200D👩", "👨\u200D👩"],
  ["plain unicode untouched", "héllo 世界 ✓", "héllo 世界 ✓"],
];

for (const [name, input, expected] of CORPUS) {
  test(`sanitizeText: ${name}`, () => {
    assert.equal(sanitizeText(input), expected);
  });
}

test("sanitizeInline shows newlines as ⏎ and keeps everything else like sanitizeText", () => {
  assert.equal(sanitizeInline("a\nb\r\nc\td"), "a⏎b⏎c d");
  assert.equal(sanitizeInline(`${ESC}]0;x\x07`), "␛]0;x␇");
});

test("sanitizeName: single line, joiners visible, length capped", () => {
  assert.equal(sanitizeName("get\u200Dweather"), "get⟨U+200D⟩weather");
  assert.equal(sanitizeName("a\nb"), "a⏎b");
  assert.equal(sanitizeName("x".repeat(100)), "x".repeat(63) + "…");
  assert.equal(sanitizeName("abcdef", 4), "abc…");
  assert.equal(sanitizeName(`evil${ESC}[2J`), "evil␛[2J");
});

test("sanitizeJson: string values show ␛, C1 in keys is visible", () => {
  const out = sanitizeJson({ "k\u009b": `${ESC}]0;pwned\x07` });
  assert.ok(out.includes('"␛]0;pwned␇"'), out);
  assert.ok(out.includes("k⟨U+009B⟩"), out);
  assert.ok(!out.includes(ESC));
});

// eslint-disable-next-line no-control-regex
const FORBIDDEN_TEXT = /[\x00-\x08\x0B-\x1F\x7F-\x9F\u202A-\u202E\u2066-\u2069\u200B\u200E\u200F\uFEFF]/;
// eslint-disable-next-line no-control-regex
const FORBIDDEN_LINE = /[\x00-\x1F\x7F-\x9F\u202A-\u202E\u2066-\u2069\u200B\u200E\u200F\uFEFF]/;

const anyString = fc.oneof(
  fc.string({ unit: "binary", maxLength: 200 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0x2070 }).map((c) => String.fromCharCode(c)), maxLength: 200 }),
  fc
    .array(fc.constantFrom("\x1b", "[", "]", "\x07", "\x9b", "\r", "\n", "\t", "\u202e", "a", "0", ";"), {
      maxLength: 60,
    })
    .map((a) => a.join("")),
);

test("property: sanitizeText output has no ESC, C1, or C0 but \\n", () => {
  fc.assert(
    fc.property(anyString, (s) => {
      const out = sanitizeText(s);
      assert.ok(!FORBIDDEN_TEXT.test(out), JSON.stringify(out));
      assert.ok(!out.includes("\t"));
    }),
    { numRuns: 2000 },
  );
});

test("property: sanitizeInline and sanitizeName output is one line without controls", () => {
  fc.assert(
    fc.property(anyString, (s) => {
      for (const out of [sanitizeInline(s), sanitizeName(s)]) {
        assert.ok(!FORBIDDEN_LINE.test(out), JSON.stringify(out));
        assert.ok(!/[\u2028\u2029]/.test(out));
      }
      assert.ok(Array.from(sanitizeName(s)).length <= 64);
    }),
    { numRuns: 2000 },
  );
});

test("property: text without controls passes unchanged", () => {
  fc.assert(
    fc.property(fc.string({ unit: fc.constantFrom(..."abc XYZ 012 é世✓\n".split("")) }), (s) => {
      assert.equal(sanitizeText(s), s);
    }),
  );
});

test("1 MB inputs: benign text passes whole, a dense hostile one leaves no ESC or C1 (speed is measured in bench/)", () => {
  const benign = "The quick brown fox jumps over the lazy dog.\n".repeat(Math.ceil(1_048_576 / 45));
  const hostile = `ok text ${ESC}[2J\u009b\u202e `.repeat(Math.ceil(1_048_576 / 14));
  assert.equal(sanitizeText(benign), benign);
  const out = sanitizeText(hostile);
  assert.ok(!out.includes(ESC));
  assert.ok(!out.includes("\u009b"));
  assert.ok(!out.includes("\u202e"));
});

test("combining-mark floods are capped visibly, legitimate marks kept; Hangul fillers and tags shown", () => {
  const flood = `e${"\u0301".repeat(10_000)}x`;
  for (const f of [sanitizeText, sanitizeInline]) {
    const out = f(flood);
    assert.equal(out, `e${"\u0301".repeat(4)}⟨+9996 marks⟩x`);
    assert.equal(f("Vi\u1EC7t nam\u0303\u0301"), "Vi\u1EC7t nam\u0303\u0301", "a few marks stay as they are");
    assert.equal(f(`x${"\ufe0f".repeat(500)}`), `x${"\ufe0f".repeat(4)}⟨+496 marks⟩`, "variation-selector floods too");
    assert.equal(f("a\u3164b\u115fc\u1160d\uffa0e\u{E0041}"), "a⟨U+3164⟩b⟨U+115F⟩c⟨U+1160⟩d⟨U+FFA0⟩e⟨U+E0041⟩");
  }
  assert.equal(sanitizeName(`n${"\u0301".repeat(50)}`), `n${"\u0301".repeat(4)}⟨+46 marks⟩`);
});
