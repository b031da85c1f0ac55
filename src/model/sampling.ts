// A server's sampling request answered by the active model: its own model request (the server's
// messages and system prompt, no tools), never part of the conversation. The offline model
// answers deterministically from the messages it was given.
import type { SampleRequest } from "../host/input-provider.js";
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
    return `Offline sample (${req.messages.length} message${req.messages.length === 1 ? "" : "s"}): the last ${last.role} said "${said}".`.slice(0, max);
  }
  const messages: ModelMessage[] = req.messages.map((m) => ({ role: m.role, content: [{ type: "text", text: m.text }] }) as ModelMessage);
  let text = "";
  for await (const e of adapter.respond({ system: req.systemPrompt ?? "", messages, tools: [], signal })) {
    if (e.type === "text") text += e.text;
    if (text.length >= max) break;
  }
  return text.slice(0, max);
}
