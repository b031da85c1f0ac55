// One JSON document on stdout that is also safe on a terminal: JSON.stringify escapes C0
// controls but not DEL, the C1 controls (0x9b is an 8-bit CSI), the line separators or the bidi
// overrides, which a server can put in any string it sends. They are written as \uXXXX escapes,
// so the document parses to exactly the same values.
const UNSAFE = /[\u007f-\u009f\u2028\u2029\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g;

export function terminalSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
