// The offline model: deterministic, honest, nothing to install.
// It sees exactly what any provider would see — the messages context.ts built — and nothing
// else: its answer after a tool call is composed only from those tool_result blocks, so the
// reply shows the user what reached the model.
import {
  ANTHROPIC_CAPABILITIES,
  type ModelContentBlock,
  type ModelMessage,
  type ModelToolResultBlock,
} from "./context.js";
import {
  ModelError,
  type ModelAdapter,
  type ModelRequest,
  type ModelStreamEvent,
  type ModelToolSpec,
} from "./adapter.js";
import { extractArgs, missingRequired, pickTool } from "./offline-args.js";
import { isReceiptText } from "../host/result/receipt-text.js";
import { estimateTokens, IMAGE_TOKENS_ESTIMATE, NO_USAGE, type TokenUsage } from "./usage.js";

export interface OfflineOptions {
  /** Delay between streamed chunks (ms); 0 still yields to the event loop. */
  chunkDelayMs?: number;
}

export class OfflineModel implements ModelAdapter {
  readonly id = "offline";
  // Same limits as Anthropic, so the offline model shows what a real one would get.
  readonly capabilities = ANTHROPIC_CAPABILITIES;
  private readonly delay: number;

  constructor(opts: OfflineOptions = {}) {
    this.delay = opts.chunkDelayMs ?? 8;
  }

  async *respond(req: ModelRequest): AsyncIterable<ModelStreamEvent> {
    const decision = decide(req.messages, req.tools);
    if (decision.text) {
      for (const chunk of chunks(decision.text)) {
        if (req.signal?.aborted) throw new ModelError("aborted", "cancelled");
        await new Promise((r) => setTimeout(r, this.delay));
        yield { type: "text", text: chunk };
      }
    }
    if (decision.toolUse) yield { type: "tool_use", ...decision.toolUse };
    yield { type: "usage", usage: estimateUsage(req, decision) };
  }
}

/** What a provider would roughly count for this request and reply: characters / 4, images at their largest. */
export function estimateUsage(req: ModelRequest, decision: Decision): TokenUsage {
  let chars = req.system.length + JSON.stringify(req.tools).length;
  let images = 0;
  const block = (b: ModelContentBlock) => (b.type === "text" ? (chars += b.text.length) : images++);
  for (const m of req.messages)
    for (const b of m.content) {
      if (b.type === "tool_result") b.content.forEach(block);
      else if (b.type === "tool_use") chars += b.name.length + JSON.stringify(b.input).length;
      else block(b);
    }
  const out =
    (decision.text?.length ?? 0) +
    (decision.toolUse ? decision.toolUse.name.length + JSON.stringify(decision.toolUse.input).length : 0);
  return {
    ...NO_USAGE,
    input: estimateTokens(chars) + images * IMAGE_TOKENS_ESTIMATE,
    output: estimateTokens(out),
    estimated: true,
  };
}

type Decision = { text?: string; toolUse?: { id: string; name: string; input: Record<string, unknown> } };

function decide(messages: readonly ModelMessage[], tools: readonly ModelToolSpec[]): Decision {
  const last = messages[messages.length - 1];
  if (!last || last.role !== "user") return { text: "I have nothing to answer." };
  const results = last.content.filter((b): b is ModelToolResultBlock => b.type === "tool_result");
  // A result followed by the person's new text (a cancelled call's, merged into this message) is
  // old news: the new prompt is what to answer.
  const answered = last.content.length > 0 && last.content[last.content.length - 1].type === "text";
  if (results.length && !answered) {
    // Tool search: after search_tools answered, the tools it loaded are offered now; decide again on the prompt.
    if (results.every((r) => toolNameFor(r.toolUseId, messages) === SEARCH_TOOLS)) {
      const again = decideOnPrompt(
        lastPrompt(messages),
        tools.filter((t) => t.name !== SEARCH_TOOLS),
        messages,
        false,
      );
      if (again.toolUse) return again;
    }
    return { text: describeResults(results, messages) };
  }
  // The newest prompt only (an unanswered earlier prompt may be merged into the same message).
  const texts = last.content.filter((b) => b.type === "text");
  const prompt = (texts[texts.length - 1]?.text ?? "").trim();
  // Resources the user attached: said first, so the reply shows what reached the model.
  const attached = texts.filter((b) => b.attached).map((b) => `${b.attached!.uri} (${b.text.length} characters)`);
  if (attached.length) {
    const d = decideOnPrompt(prompt, tools, messages);
    return { ...d, text: `I was given the attached ${attached.join(", ")}. ${d.text ?? ""}`.trim() };
  }
  return decideOnPrompt(prompt, tools, messages);
}

function decideOnPrompt(
  prompt: string,
  offered: readonly ModelToolSpec[],
  messages: readonly ModelMessage[],
  maySearch = true,
): Decision {
  const id = `offline_${countToolUses(messages) + 1}`;
  // Tool search: the tools not offered yet are found through search_tools (by the tool's name, or the prompt's words).
  const searchable = maySearch && offered.some((t) => t.name === SEARCH_TOOLS);
  const tools = offered.filter((t) => t.name !== SEARCH_TOOLS);
  const search = (query: string): Decision => ({
    text: `Searching the tools for "${query}".`,
    toolUse: { id, name: SEARCH_TOOLS, input: { query } },
  });

  // Code mode: the offline model writes no code, but runs a fenced js block the prompt carries.
  const script = fencedScript(prompt);
  if (script !== undefined && tools.some((t) => t.name === RUN_CODE_TOOL)) {
    return {
      text: `Running the script through ${RUN_CODE_TOOL}.`,
      toolUse: { id, name: RUN_CODE_TOOL, input: { code: script } },
    };
  }

  const explicit = prompt.match(/^\s*call\s+([^\s{]+)\s*(\{[\s\S]*\})?\s*$/i);
  if (explicit) {
    const tool =
      tools.find((t) => t.name === explicit[1]) ??
      tools.find((t) => t.name.toLowerCase() === explicit[1].toLowerCase());
    const typed = tool ? undefined : declaredIn(tools).find((t) => t.name === explicit[1]);
    if (typed) return onlyInRunCode(typed.name);
    if (!tool && searchable) return search(explicit[1]);
    if (!tool) return { text: `There is no tool called ${explicit[1]}. ${listTools(tools)}` };
    let input: unknown = {};
    if (explicit[2]) {
      try {
        input = JSON.parse(explicit[2]);
      } catch (e) {
        return { text: `I could not read the arguments for ${tool.name}: ${(e as Error).message}.` };
      }
    }
    if (!input || typeof input !== "object" || Array.isArray(input))
      return { text: `The arguments for ${tool.name} must be a JSON object.` };
    return { text: `Calling ${tool.name}.`, toolUse: { id, name: tool.name, input: input as Record<string, unknown> } };
  }

  // run_code runs only a script the prompt carries (above). The tools its declarations type are
  // not listed on their own (code mode): when one of them fits best, say how to reach it.
  const declared = declaredIn(tools);
  const tool = pickTool(prompt, [...tools.filter((t) => t.name !== RUN_CODE_TOOL), ...declared]);
  if (tool && declared.includes(tool)) return onlyInRunCode(tool.name);
  if (!tool && searchable && prompt) return search(prompt.slice(0, 200));
  if (!tool) return { text: `I (the offline model) could not match that to a tool. ${listTools(tools)}` };
  const input = extractArgs(prompt, tool);
  // A call without what the tool requires would only fail (or do the wrong thing): say what is missing.
  const missing = missingRequired(tool, input);
  if (missing.length)
    return {
      text: `${tool.name} needs ${missing.map((m) => `\`${m}\``).join(" and ")}, which I (the offline model) could not find in your prompt. Name ${missing.length === 1 ? "it" : "them"} (a path, a quoted value), or call it yourself: /call ${tool.name} {${missing.map((m) => `"${m}": …`).join(", ")}}`,
    };
  return { text: `Calling ${tool.name} with ${JSON.stringify(input)}.`, toolUse: { id, name: tool.name, input } };
}

/** The host's tool search (tool-search.ts). */
const SEARCH_TOOLS = "search_tools";

/** The user's newest prompt: the last text of the last user message that has one. */
function lastPrompt(messages: readonly ModelMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role !== "user") continue;
    const texts = m.content.filter((b) => b.type === "text");
    if (texts.length) return (texts[texts.length - 1] as { text: string }).text.trim();
  }
  return "";
}

/** The host's code-mode tool (src/code/run-code.ts names it the same). */
const RUN_CODE_TOOL = "run_code";

function onlyInRunCode(name: string): Decision {
  return {
    text: `${name} is one of ${RUN_CODE_TOOL}'s typed tools (code mode lists it only there). I (the offline model) write no code: put a \`\`\`js block in your prompt and I run it through ${RUN_CODE_TOOL}, e.g. \`return await tools.${name}({ ... })\`.`,
  };
}

/** The members run_code's description declares (`  /** doc *\/ name(args: …`), as tools to score words against. */
function declaredIn(tools: readonly ModelToolSpec[]): ModelToolSpec[] {
  const description = tools.find((t) => t.name === RUN_CODE_TOOL)?.description ?? "";
  const out: ModelToolSpec[] = [];
  for (const m of description.matchAll(/^ {2}(?:\/\*\*(.*?)\*\/\s*)?([A-Za-z_$][\w$]*)\(args:/gm))
    out.push({ name: m[2], description: m[1]?.trim() ?? "", inputSchema: { type: "object" } });
  return out;
}

/** The first ```js / ```javascript (or bare) fenced block's text, if any. */
export function fencedScript(prompt: string): string | undefined {
  const m = prompt.match(/```(?:js|javascript)?[ \t]*\r?\n([\s\S]*?)\r?\n?```/);
  return m ? m[1] : undefined;
}

function listTools(tools: readonly ModelToolSpec[]): string {
  if (!tools.length) return "No tools are available.";
  return `Available tools: ${tools.map((t) => t.name).join(", ")}. Try "call TOOL {json}".`;
}

function countToolUses(messages: readonly ModelMessage[]): number {
  let n = 0;
  for (const m of messages) if (m.role === "assistant") n += m.content.filter((b) => b.type === "tool_use").length;
  return n;
}

function toolNameFor(id: string, messages: readonly ModelMessage[]): string {
  for (const m of messages)
    if (m.role === "assistant") for (const b of m.content) if (b.type === "tool_use" && b.id === id) return b.name;
  return "the tool";
}

/** The answer: only the blocks that reached this model, told plainly. */
function describeResults(results: ModelToolResultBlock[], messages: readonly ModelMessage[]): string {
  return results.map((r) => describeOne(r, toolNameFor(r.toolUseId, messages))).join("\n");
}

function describeOne(result: ModelToolResultBlock, name: string): string {
  const texts = result.content
    .filter((b): b is Extract<ModelContentBlock, { type: "text" }> => b.type === "text")
    .map((b) => b.text);
  const images = result.content.filter((b) => b.type === "image");
  // A receipt is the host's, not the tool's: none of the output reached this model, and the
  // receipt says where it went. Nothing else is claimed (no "image data" sentence).
  if (texts.length === 1 && images.length === 0 && isReceiptText(texts[0])) {
    return `None of ${name}'s output reached me. The host's receipt says: ${texts[0]}`;
  }
  const body = texts.length ? texts.join("\n") : "(no text)";
  const lead = result.isError ? `${name} reported an error to me: ${body}` : `${name} returned to me: ${body}`;
  if (images.length) {
    const types = [...new Set(images.map((i) => (i as { mimeType: string }).mimeType))].join(", ");
    return `${lead}\nI received ${images.length} image${images.length > 1 ? "s" : ""} (${types}).`;
  }
  const notes: string[] = [];
  if (texts.some((t) => /\bimages?\b/i.test(t))) notes.push("I received no image data.");
  // The tool's words about what was displayed are its claim: this model saw only the text.
  if (texts.some((t) => /\b(displayed|shown|showed|interactive table)\b/i.test(t)))
    notes.push(`What ${name} says was shown or displayed, I did not see: only its text reached me.`);
  return [lead, ...notes].join("\n");
}

/** Splits text into small word groups, as a streaming model would send them. */
function chunks(text: string): string[] {
  const parts = text.match(/\S+\s*/g) ?? [text];
  const out: string[] = [];
  const lead = text.match(/^\s*/)?.[0] ?? "";
  for (let i = 0; i < parts.length; i += 3) out.push((i === 0 ? lead : "") + parts.slice(i, i + 3).join(""));
  return out;
}
