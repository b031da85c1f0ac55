// A server's sampling request answered by the active model: its own model request (the server's
// messages and system prompt, no tools), never part of the conversation. The offline model
// answers deterministically from the messages it was given. maxTokens, temperature and
// stopSequences go to the adapter (Anthropic honours all three); the answer is also cut at the
// first stop sequence and at the token bound here, so the offline model keeps them too.
import type { SampleRequest } from "../host/input/input-provider.js";
import type { ModelAdapter } from "./adapter.js";
import type { ModelMessage } from "./context.js";

/** Characters per token, a generous bound for the answer's size. */
const CHARS_PER_TOKEN = 4;

/** The model's own name for a sampling result's `model` ("anthropic:claude-x" → "claude-x"). */
export function sampledModelName(adapter: ModelAdapter): string {
  const colon = adapter.id.indexOf(":");
  return colon < 0 ? adapter.id : adapter.id.slice(colon + 1);
}

export async function sampleWith(adapter: ModelAdapter, req: SampleRequest, signal?: AbortSignal): Promise<string> {
  const max = req.maxTokens * CHARS_PER_TOKEN;
  if (adapter.id === "offline") {
    const last = req.messages[req.messages.length - 1];
    const said = last.text.replace(/\s+/g, " ").trim().slice(0, 200);
    return cutAtStop(
      `Offline sample (${req.messages.length} message${req.messages.length === 1 ? "" : "s"}): the last ${last.role} said "${said}".`,
      req.stopSequences,
    ).slice(0, max);
  }
  const messages: ModelMessage[] = req.messages.map(
    (m) => ({ role: m.role, content: [{ type: "text", text: m.text }] }) as ModelMessage,
  );
  const sampling = {
    maxTokens: req.maxTokens,
    ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
    ...(req.stopSequences ? { stopSequences: req.stopSequences } : {}),
  };
  let text = "";
  for await (const e of adapter.respond({ system: req.systemPrompt ?? "", messages, tools: [], signal, sampling })) {
    if (e.type === "text") text += e.text;
    if (text.length >= max) break;
  }
  return cutAtStop(text, req.stopSequences).slice(0, max);
}

/** The text before the first stop sequence (the sequence itself left out, as providers do). */
export function cutAtStop(text: string, stops: readonly string[] | undefined): string {
  let end = text.length;
  for (const s of stops ?? []) {
    const at = text.indexOf(s);
    if (at >= 0 && at < end) end = at;
  }
  return text.slice(0, end);
}
