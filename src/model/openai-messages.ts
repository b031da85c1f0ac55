// Neutral messages (context.ts) → Chat Completions messages, the shape every OpenAI-compatible
// endpoint serves. What the API cannot take where the neutral messages have it:
// - `tool` messages carry text only: a tool result's images go into a `user` message right after
//   the round's tool messages, each labelled as that call's output (the tool message says so);
// - call ids are the target API's: one that breaks its rules (Anthropic's are fine; another
//   endpoint's may not be) is remapped the same way on the call and on its answer.
import { createHash } from "node:crypto";
import type { ModelContentBlock, ModelMessage, ModelToolUseBlock } from "./context.js";

export type ChatPart = { type: "text"; text: string } | { type: "image_url"; image_url: { url: string } };
export type ChatMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string | ChatPart[] }
  | { role: "assistant"; content: string | null; tool_calls?: ChatToolCall[] }
  | { role: "tool"; tool_call_id: string; content: string };
export interface ChatToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** Ids some deployments take: short, plain. */
const SAFE_ID = /^[A-Za-z0-9_-]{1,40}$/;

/** The id a call has in a Chat Completions request (stable: the same on the call and its answer). */
export function chatCallId(id: string): string {
  return SAFE_ID.test(id) ? id : `call_${createHash("sha256").update(id).digest("hex").slice(0, 24)}`;
}

export function toChatMessages(system: string, messages: readonly ModelMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  if (system) out.push({ role: "system", content: system });
  for (const m of messages) {
    if (m.role === "assistant") {
      const text = m.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n");
      const calls = m.content.filter((b): b is ModelToolUseBlock => b.type === "tool_use");
      out.push({
        role: "assistant",
        content: text || null,
        ...(calls.length
          ? {
              tool_calls: calls.map((c) => ({
                id: chatCallId(c.id),
                type: "function" as const,
                function: { name: c.name, arguments: JSON.stringify(c.input) },
              })),
            }
          : {}),
      });
      continue;
    }
    const images: ChatPart[] = [];
    const texts: ChatPart[] = [];
    for (const b of m.content) {
      if (b.type === "text") {
        texts.push({ type: "text", text: b.text });
        continue;
      }
      const id = chatCallId(b.toolUseId);
      const own = b.content.filter((c): c is Extract<ModelContentBlock, { type: "image" }> => c.type === "image");
      if (own.length) {
        images.push({
          type: "text",
          text: `The image${own.length > 1 ? "s" : ""} below ${own.length > 1 ? "are" : "is"} the output of tool call ${id}:`,
        });
        for (const img of own)
          images.push({ type: "image_url", image_url: { url: `data:${img.mimeType};base64,${img.data}` } });
      }
      out.push({ role: "tool", tool_call_id: id, content: toolText(b.content, b.isError, own.length) });
    }
    const parts = [...images, ...texts];
    if (!parts.length) continue;
    // A plain prompt stays a string (every endpoint takes it; some local ones take nothing else without images).
    out.push({
      role: "user",
      content: images.length ? parts : parts.map((p) => (p as { text: string }).text).join("\n\n"),
    });
  }
  return out;
}

function toolText(content: readonly ModelContentBlock[], isError: boolean, images: number): string {
  const lines = content.flatMap((c) => (c.type === "text" ? [c.text] : []));
  if (images)
    lines.push(
      `[${images} image${images > 1 ? "s" : ""} of this result ${images > 1 ? "are" : "is"} in the next user message]`,
    );
  const text = lines.join("\n");
  if (isError) return `Error: ${text || "(the tool returned no content)"}`;
  return text || "(no content)";
}
