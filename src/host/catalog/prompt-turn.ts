// What a prompt's messages become: the user's turn is their text (text blocks, and the text of
// an embedded text resource the prompt carries: the user chose the prompt); every other kind
// (image, audio, blob, resource link) is named on one line for the user and not sent. Pure, no
// I/O: the CLI prints it, the app puts `text` on the user's turn and shows `notes`.
import type { ContentBlock } from "../../protocol/index.js";
import { base64Bytes, formatBytes } from "../result/measure.js";
import type { GotPrompt, PromptEntry } from "./prompts.js";
import { sanitizeName } from "../../protocol/sanitize.js";

export interface PromptPart {
  role: "user" | "assistant";
  /** Text for the user's turn; undefined when the block is only named (`note`). */
  text?: string;
  /** The block named for the user: kind, MIME type, size, URI; and whether it is sent. */
  note?: string;
}

/** One content block as a part of the user's turn or a line naming it. */
export function promptPart(role: "user" | "assistant", c: ContentBlock): PromptPart {
  switch (c.type) {
    case "text":
      return { role, text: c.text };
    case "resource": {
      const r = c.resource as { uri: string; mimeType?: string; text?: string; blob?: string };
      const mime = r.mimeType ? `, ${r.mimeType}` : "";
      if (typeof r.text === "string")
        return { role, text: r.text, note: `resource ${r.uri}${mime} (its text is part of the turn)` };
      return { role, note: `resource ${r.uri}${mime}, ${formatBytes(base64Bytes(r.blob ?? ""))} binary: not sent` };
    }
    case "image":
    case "audio":
      return { role, note: `${c.type} ${c.mimeType}, ${formatBytes(base64Bytes(c.data))}: not sent` };
    case "resource_link":
      return { role, note: `resource link ${c.uri} (${c.name}): not sent` };
  }
}

export interface PromptTurn {
  /** The user's turn: every part's text, in order (assistant parts marked as such). */
  text: string;
  parts: PromptPart[];
}

/** A prompt's messages as the user's turn (what is sent) and its parts (what is shown). */
export function promptTurn(got: GotPrompt): PromptTurn {
  const parts = got.messages.map((m) => promptPart(m.role, m.content));
  const text = parts
    .filter((p) => p.text !== undefined)
    .map((p) => (p.role === "assistant" ? `(assistant) ${p.text}` : (p.text as string)))
    .join("\n\n");
  return { text, parts };
}

/** A prompt as a command: `server:name <required> [optional]` (sanitized; the app adds the slash). */
export function promptUsage(p: PromptEntry): string {
  const args = p.arguments.map((a) => (a.required ? `<${sanitizeName(a.name)}>` : `[${sanitizeName(a.name)}]`));
  return [`${sanitizeName(p.server)}:${sanitizeName(p.name)}`, ...args].join(" ");
}
