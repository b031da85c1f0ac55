// `prompts` and `prompt` output: each server's prompts with their arguments and the entries it
// could not use (with their rule); a prompt's messages as the user's turn would carry them. The
// --json documents keep what the server sent; only the human view is sanitized (terminal.ts).
import type { PromptEntry, PromptError, GotPrompt } from "../../host/catalog/prompts.js";
import { promptTurn, promptUsage } from "../../host/catalog/prompt-turn.js";
import { sanitizeInline, sanitizeName } from "../../protocol/sanitize.js";

export interface PromptsDocument {
  servers: { name: string; state: string; error?: string; prompts: PromptEntry[]; rejected: PromptError[] }[];
}

export function renderPrompts(doc: PromptsDocument): string {
  const lines: string[] = [];
  for (const s of doc.servers) {
    const rejected = s.rejected.length ? `, ${s.rejected.length} rejected` : "";
    const head =
      s.state === "connected"
        ? `${s.prompts.length} prompt${s.prompts.length === 1 ? "" : "s"}${rejected}`
        : sanitizeInline(s.error ?? s.state);
    lines.push(`${sanitizeName(s.name)} · ${head}`);
    for (const p of s.prompts) {
      const about = [p.title, p.description]
        .filter(Boolean)
        .map((t) => sanitizeInline(t as string))
        .join(": ");
      lines.push(`  ${promptUsage(p)}${about ? `  — ${about}` : ""}`);
      for (const a of p.arguments) {
        const d = a.description ? `: ${sanitizeInline(a.description)}` : "";
        lines.push(`      ${sanitizeName(a.name)}${a.required ? " (required)" : ""}${d}`);
      }
    }
    for (const e of s.rejected) lines.push(`  ✗ rejected [${e.rule}]: ${sanitizeInline(e.message)}`);
  }
  return lines.join("\n") + "\n";
}

/** A prompt's messages, one block per message: its role, then its text or the line naming it. */
export function renderPrompt(got: GotPrompt): string {
  const lines: string[] = [];
  if (got.description) lines.push(`# ${sanitizeInline(got.description)}`);
  for (const part of promptTurn(got).parts) {
    if (part.note) lines.push(`[${part.role}] (${sanitizeInline(part.note)})`);
    if (part.text !== undefined) lines.push(`${part.note ? "" : `[${part.role}] `}${part.text}`);
  }
  return lines.join("\n") + "\n";
}
