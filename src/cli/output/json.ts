// One JSON document on stdout that is also safe on a terminal: JSON.stringify escapes C0
// controls but not DEL, the C1 controls (0x9b is an 8-bit CSI), the line separators, the bidi
// overrides, the invisible fillers and tag characters, or a flood of combining marks, which a
// server can put in any string it sends. They are written as \uXXXX escapes, so the document
// parses to exactly the same values while a terminal shows only inert ASCII for them.
const UNSAFE =
  /\p{M}{5,}|[\u007f-\u009f\u2028\u2029\u200b-\u200f\u202a-\u202e\u2066-\u2069\u115f\u1160\u3164\uffa0\ufeff\u{e0000}-\u{e007f}]/gu;

const escape = (s: string) => {
  let out = "";
  for (let i = 0; i < s.length; i++) out += `\\u${s.charCodeAt(i).toString(16).padStart(4, "0")}`;
  return out;
};

export function terminalSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(UNSAFE, escape);
}
