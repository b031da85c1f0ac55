// How a receipt (receipt.ts) reads, on its own: the offline model loads before the first frame,
// without the protocol code receipt.ts imports.
const RECEIPT_TEXT =
  /^[^\n]*: (?:[^\n]* went to (?:the user|program logic|the App view)[^\n]*, not to you\.|produced no output\.)$/;

/** Whether a text in the model's context is a receipt this module wrote (its own wording, not server data). */
export function isReceiptText(text: string): boolean {
  return RECEIPT_TEXT.test(text);
}
