// One user turn: model ↔ tools until the model answers (or the round bound is hit).
// Used by one-shot mode, the TUI and benchmarks. However a turn ends (a failed, declined,
// cancelled or thrown call, a refused request, an abort mid-round), the conversation keeps every
// completed step and stays valid for the provider, so the next prompt works:
// - every tool_use gets a tool_result (an error result when the call did not give one);
// - content the provider refused (HTTP 400/413: an image it cannot decode, a request too large)
//   is replaced, for the model only, by a one-line note, and the request is retried once.
import { compactIfNear, compactionLine, DEFAULT_COMPACT_AT } from "./compact.js";
import { estimateTextTokens } from "./tokens.js";
import type { CallOutcome, HostReceipt, Mode, ToolEntry, ToolExecutor } from "../host/types.js";
import { ModelError, type ModelAdapter, type ModelToolSpec, type RefusedContent } from "./adapter.js";
import { boundInstructions, boundTools } from "./bounds.js";
import { buildContext, rawToolResultBlocks, withheldFromModel, type ModelCapabilities } from "./context.js";
import {
  WHOLE_RESULT,
  type Conversation,
  type UserAttachment,
  type ModelToolResult,
  type ToolCallRequest,
  type ToolResultItem,
} from "./conversation.js";
import { failureText, thrownOutcome } from "./failure.js";
import { planOf } from "../host/call/plan.js";
import { buildToolNameMap } from "./tool-names.js";
import { offeredToModel } from "../host/catalog/app-only.js";
import type { HostTool, HostToolRun } from "./host-tool.js";
import { addUsage, NO_USAGE, type TokenUsage } from "./usage.js";
import { resultBudget } from "./result-budget.js";
import { readResultTool } from "./read-result.js";
import {
  AUTO_SHARE,
  definitionTokens,
  SEARCH_TOOLS,
  searchWanted,
  ToolSearch,
  type ToolSearchSetting,
} from "./tool-search.js";

export const DEFAULT_MAX_ROUNDS = 8;

export interface ToolCallRecord {
  call: ToolCallRequest;
  outcome?: CallOutcome;
  /** A host tool's run (run_code): what the model got and the whole record. */
  hostRun?: HostToolRun;
}

export interface TurnResult {
  ok: boolean;
  answer: string;
  toolCalls: ToolCallRecord[];
  modelRequests: number;
  error?: ModelError;
  /** True when the model still wanted tools after maxRounds rounds. */
  roundLimitHit?: boolean;
  /** The tokens of every request of the turn that reported them (a failed request reports none). */
  usage: TokenUsage;
}

export type TurnEvent =
  | { type: "text"; delta: string }
  | { type: "tool-call"; call: ToolCallRequest }
  | {
      type: "tool-outcome";
      call: ToolCallRequest;
      outcome: CallOutcome | undefined;
      forModel: ModelToolResult;
      hostRun?: HostToolRun;
    }
  | { type: "turn-end"; result: TurnResult }
  /** One model request's tokens, as soon as it is answered. */
  | { type: "usage"; usage: TokenUsage }
  | { type: "error"; error: ModelError }
  /** Tool search is on: the tools offered with definitions in the request about to go (`deferred`: all the servers' tools). */
  | { type: "tools-offered"; loaded: string[]; deferred: number }
  /** One line for the user: a bound cut what a server sends the model, or refused content was replaced. */
  | { type: "notice"; text: string }
  /**
   * What the model does not get of one call's result as it was sent, for that call's card: what
   * the model cannot take, a result cut to the budget, content the API refused (replaced by a note).
   */
  | { type: "call-note"; callId: string; text: string }
  /** The model request failed before anything streamed and goes again after `waitMs` (retry `attempt` of `of`). */
  | { type: "retry"; text: string; reason: string; waitMs: number; attempt: number; of: number };

export interface RunTurnOptions {
  adapter: ModelAdapter;
  executor: ToolExecutor;
  conversation: Conversation;
  prompt: string;
  /** Resources the user attached to this prompt (the only way a resource's text reaches the model). */
  attachments?: readonly UserAttachment[];
  mode: Mode;
  signal?: AbortSignal;
  events?: (e: TurnEvent) => void;
  maxRounds?: number;
  /** Tools the host offers beside the servers' (code mode: run_code); their names win a clash. */
  hostTools?: readonly HostTool[];
  /** Tool search (config `toolSearch`, `/tools search`): default "auto". */
  toolSearch?: ToolSearchSetting;
  /** Tools always offered with their definitions under tool search (as `/tools` names them, or the model does). */
  pinnedTools?: readonly string[];
  /** The budget of one tool result for the model, in tokens (config limits.modelResultTokens; default from the window). */
  resultTokens?: number;
  /** Compact the older turns at this share of the window (config limits.compactAt; default 0.85); false: never. */
  compactAt?: number | false;
}

/** The system prompt (each server's instructions bounded) and a notice per server whose instructions were cut. */
export function systemPrompt(executor: ToolExecutor, notices?: string[]): string {
  const parts = [
    "You are the assistant in mcp-prism, a terminal chat host for MCP servers. Use the tools when they help; tool results may come as host receipts when the data went to the user or to program logic instead of you.",
  ];
  for (const i of executor.instructions()) {
    if (!i.text.trim()) continue;
    const b = boundInstructions(i.server, i.text);
    if (b.notice) notices?.push(b.notice);
    parts.push(`Instructions from MCP server "${i.server}":\n${b.text}`);
  }
  return parts.join("\n\n");
}

/**
 * What the model gets for one call: the model sink, else the host's receipt. Never other sinks;
 * about a failure, only what failure.ts writes from structured fields.
 */
export function modelResultFor(outcome: CallOutcome): { isError: boolean; result: ModelToolResult } {
  if (!outcome.ok) return { isError: true, result: receipt(failureText(outcome.plan, outcome.error)) };
  if (outcome.routed.model.length) return { isError: outcome.isError, result: outcome.routed.model };
  return { isError: outcome.isError, result: outcome.receipt ?? receipt("The tool returned nothing for the model.") };
}

function receipt(text: string): HostReceipt {
  return { kind: "receipt", text };
}

export async function runTurn(opts: RunTurnOptions): Promise<TurnResult> {
  const { adapter, executor, conversation, mode, signal } = opts;
  const emit = opts.events ?? (() => {});
  const maxRounds = opts.maxRounds ?? DEFAULT_MAX_ROUNDS;
  // The executor already leaves out App-only and unavailable tools; filtering again keeps a careless executor honest.
  const names = buildToolNameMap(executor.modelTools().filter(offeredToModel));
  const notices: string[] = [];
  const bounded = boundTools(names.tools);
  const hostTools = new Map((opts.hostTools ?? []).map((t) => [t.name, t]));
  const covered = (name: string) => {
    const entry = names.resolve(name);
    return entry !== undefined && [...hostTools.values()].some((h) => h.covers?.(entry) === true);
  };
  const spec = (t: HostTool): ModelToolSpec => ({
    name: t.name,
    description: t.description,
    inputSchema: t.inputSchema,
  });
  const serverTools = bounded.tools.filter((t) => !hostTools.has(t.name) && !covered(t.name));
  const search = toolSearchFor(opts, serverTools, names, hostTools);
  const withSearch = search ? new Map([...hostTools, [search.tool.name, search.tool]]) : hostTools;
  const hostSpecs = [...withSearch.values()].map(spec);
  let tools: ModelToolSpec[] = [...serverTools, ...hostSpecs];
  if (search) notices.push(search.notice);
  // read_result is offered from the request whose context holds a result cut by the budget on.
  const budget = resultBudget(adapter.capabilities, opts.resultTokens);
  const reader = readResultTool(conversation, adapter.capabilities, budget);
  let offered = withSearch;
  notices.push(...bounded.notices);
  const system = systemPrompt(executor, notices);
  for (const n of notices) {
    if (conversation.noticed.has(n)) continue;
    conversation.noticed.add(n);
    emit({ type: "notice", text: n });
  }
  const toolCalls: ToolCallRecord[] = [];
  let modelRequests = 0;
  let answer = "";
  let usage = NO_USAGE;

  const finish = (partial: Omit<TurnResult, "usage">): TurnResult => {
    const result: TurnResult = { ...partial, usage };
    if (result.error) emit({ type: "error", error: result.error });
    emit({ type: "turn-end", result });
    return result;
  };

  /** One model request; a request refused for its content is retried once with that content replaced. */
  const ask = async (): Promise<{ text: string; calls: ToolCallRequest[] } | ModelError> => {
    for (let attempt = 0; ; attempt++) {
      const built = conversation.items.length;
      let cut = false;
      const messages = buildContext(conversation.items, adapter.capabilities, {
        resultTokens: budget,
        onCut: (callId, tokens) => {
          cut = true;
          const n = `cut:${callId}`;
          if (conversation.noticed.has(n)) return;
          conversation.noticed.add(n);
          emit({
            type: "notice",
            text: `the result of ${toolName(conversation, callId)} is ≈${tokens.toLocaleString("en-US")} tokens, over the ${budget.toLocaleString("en-US")}-token budget for one result: the model gets its head and pages the rest with read_result (you see it whole; the transcript keeps it)`,
          });
          emit({
            type: "call-note",
            callId,
            text: `cut for the model: ≈${tokens.toLocaleString("en-US")} tokens, over the ${budget.toLocaleString("en-US")}-token budget for one result; it gets the head and pages the rest with read_result`,
          });
        },
      });
      if (search) {
        tools = [...search.index.offered(conversation.items), ...hostSpecs];
        emit({ type: "tools-offered", loaded: tools.map((t) => t.name), deferred: serverTools.length });
      }
      const withReader = cut && !withSearch.has(reader.name);
      offered = withReader ? new Map([...withSearch, [reader.name, reader]]) : withSearch;
      const requestTools = withReader ? [...tools.filter((t) => t.name !== reader.name), spec(reader)] : tools;
      let text = "";
      let streamed = false;
      const calls: ToolCallRequest[] = [];
      modelRequests++;
      try {
        if (signal?.aborted) throw new ModelError("aborted", "cancelled");
        for await (const ev of adapter.respond({ system, messages, tools: requestTools, signal })) {
          if (ev.type === "notice") {
            emit({ type: "notice", text: ev.text });
            continue;
          }
          if (ev.type === "retry") {
            emit(ev);
            continue;
          }
          streamed = true;
          conversation.accepted = Math.max(conversation.accepted, built);
          if (ev.type === "text") {
            text += ev.text;
            emit({ type: "text", delta: ev.text });
          } else if (ev.type === "usage") {
            usage = addUsage(usage, ev.usage);
            emit({ type: "usage", usage: ev.usage });
          } else {
            const entry = names.resolve(ev.name);
            calls.push({
              id: ev.id,
              name: ev.name,
              server: entry?.server ?? "",
              tool: entry?.name ?? ev.name,
              args: ev.input,
            });
          }
        }
        conversation.accepted = Math.max(conversation.accepted, built);
        return { text, calls };
      } catch (e) {
        const err = asModelError(e, signal);
        if (attempt > 0 || streamed || !err.refused || signal?.aborted) return err;
        const replaced = replaceRefused(conversation, err.refused, adapter.capabilities, (callId, text) =>
          emit({ type: "call-note", callId, text }),
        );
        if (!replaced) return err;
        emit({
          type: "notice",
          text: `${err.message}: ${replaced}, replaced by a note for the model; retrying once (the transcript keeps the original)`,
        });
      }
    }
  };

  // Near the window, the older turns become a summary first (compact.ts): the request stays inside it.
  if (opts.compactAt !== false) {
    try {
      const c = await compactIfNear(conversation, adapter, opts.compactAt ?? DEFAULT_COMPACT_AT, {
        signal,
        resultTokens: budget,
        extraTokens:
          estimateTextTokens(opts.prompt) + estimateTextTokens(system) + estimateTextTokens(JSON.stringify(tools)),
      });
      if (c) emit({ type: "notice", text: compactionLine(c, adapter.capabilities.contextWindow) });
    } catch (e) {
      if (signal?.aborted)
        return finish({
          ok: false,
          answer: "",
          toolCalls: [],
          modelRequests: 0,
          error: new ModelError("aborted", "cancelled"),
        });
      emit({
        type: "notice",
        text: `the conversation could not be compacted (${asModelError(e, signal).message}); the request goes as it is`,
      });
    }
  }
  conversation.append(
    opts.attachments?.length
      ? { role: "user", text: opts.prompt, attachments: opts.attachments }
      : { role: "user", text: opts.prompt },
  );
  for (let round = 0; round < maxRounds; round++) {
    const reply = await ask();
    // A failed request's partial reply is dropped: the conversation ends where the last complete step did.
    if (reply instanceof ModelError) return finish({ ok: false, answer, toolCalls, modelRequests, error: reply });
    const { text, calls } = reply;
    answer = text;
    conversation.append({ role: "assistant", text, toolCalls: calls });
    if (!calls.length) return finish({ ok: true, answer, toolCalls, modelRequests });
    await runCalls(calls, {
      names,
      hostTools: offered,
      executor,
      conversation,
      mode,
      signal,
      emit,
      toolCalls,
      caps: adapter.capabilities,
    });
    if (signal?.aborted)
      return finish({ ok: false, answer, toolCalls, modelRequests, error: new ModelError("aborted", "cancelled") });
  }
  return finish({
    ok: true,
    answer: `${answer}${answer ? "\n" : ""}(Stopped after ${maxRounds} tool rounds without a final answer.)`,
    toolCalls,
    modelRequests,
    roundLimitHit: true,
  });
}

interface CallContext {
  names: ReturnType<typeof buildToolNameMap>;
  hostTools: ReadonlyMap<string, HostTool>;
  executor: ToolExecutor;
  conversation: Conversation;
  mode: Mode;
  signal?: AbortSignal;
  emit: (e: TurnEvent) => void;
  toolCalls: ToolCallRecord[];
  /** The active model's: what of a result it cannot take is said on the call's card. */
  caps: ModelCapabilities;
}

/** Runs one round's calls in order; every call ends with a tool result, whatever happens. */
async function runCalls(calls: ToolCallRequest[], c: CallContext): Promise<void> {
  const answered = new Set<string>();
  const answer = (call: ToolCallRequest, forModel: { isError: boolean; result: ModelToolResult }) => {
    answered.add(call.id);
    c.conversation.append({ role: "tool", callId: call.id, ...forModel });
  };
  try {
    for (const call of calls) {
      if (c.signal?.aborted) {
        answer(call, { isError: true, result: receipt(failureText(call, { rule: "cancelled" })) });
        continue;
      }
      c.emit({ type: "tool-call", call });
      const hostTool = c.hostTools.get(call.name);
      if (hostTool) {
        const hostRun = await runHostTool(hostTool, call, c.signal);
        const forModel = { isError: hostRun.isError, result: receipt(hostRun.text) };
        c.toolCalls.push({ call, hostRun });
        answer(call, forModel);
        c.emit({ type: "tool-outcome", call, outcome: undefined, forModel: forModel.result, hostRun });
        continue;
      }
      const entry = c.names.resolve(call.name);
      let outcome: CallOutcome | undefined;
      let forModel: { isError: boolean; result: ModelToolResult };
      if (!entry) {
        forModel = {
          isError: true,
          result: receipt(`There is no tool named ${JSON.stringify(call.name.slice(0, 100))}.`),
        };
      } else {
        try {
          outcome = await c.executor.call(entry.qualifiedName, call.args, {
            mode: c.mode,
            signal: c.signal,
            target: { server: entry.server, tool: entry.name },
          });
        } catch (e) {
          // A host bug must not leave the tool_use unanswered (every later request would fail).
          outcome = thrownOutcome(planFor(entry, call, c.mode), e);
        }
        forModel = modelResultFor(outcome);
      }
      c.toolCalls.push({ call, outcome });
      answer(call, forModel);
      c.emit({ type: "tool-outcome", call, outcome, forModel: forModel.result });
      for (const text of withheldFromModel(forModel.result, c.caps))
        c.emit({ type: "call-note", callId: call.id, text });
    }
  } finally {
    for (const call of calls)
      if (!answered.has(call.id))
        answer(call, { isError: true, result: receipt(failureText(call, { rule: "not-run" })) });
  }
}

/** A host tool's run; one that throws is an error result like any failed call. */
async function runHostTool(tool: HostTool, call: ToolCallRequest, signal?: AbortSignal): Promise<HostToolRun> {
  try {
    return await tool.run(call.args, { signal });
  } catch (e) {
    const why = String((e as Error)?.message ?? e)
      .split("\n")[0]
      .slice(0, 200);
    return { isError: true, text: `The host failed running ${tool.name} (${why}).` };
  }
}

function planFor(entry: ToolEntry, call: ToolCallRequest, mode: Mode) {
  return planOf(entry, call.args, mode);
}

/**
 * Replaces, for the model, what the provider may have refused among the tool results it has not
 * taken yet: their images when it refused an image, else (or when no image is left) each whole
 * result. Returns what was replaced, in words, or undefined when nothing was left to replace.
 */
function replaceRefused(
  conversation: Conversation,
  refused: RefusedContent,
  caps: ModelCapabilities,
  note: (callId: string, text: string) => void,
): string | undefined {
  const fresh = conversation.items.slice(conversation.accepted).filter((i): i is ToolResultItem => i.role === "tool");
  const why = refused.detail ? ` (${refused.detail.slice(0, 120)})` : "";
  const toolOf = (id: string) => toolName(conversation, id);
  const from = new Set<string>();
  let images = 0;
  if (refused.what === "image") {
    for (const item of fresh) {
      if (item.replaced?.has(WHOLE_RESULT)) continue;
      let own = 0;
      rawToolResultBlocks(item.result, caps).forEach((b, i) => {
        if (b.type !== "image" || item.replaced?.has(i)) return;
        (item.replaced ??= new Map()).set(
          i,
          `[${b.mimeType} image not sent: the model API refused the images of this request${why}]`,
        );
        own++;
        from.add(toolOf(item.callId));
      });
      images += own;
      if (own)
        note(
          item.callId,
          own > 1
            ? `${own} images not sent: the model API refused them${why}`
            : `the image not sent: the model API refused it${why}`,
        );
      if (item.replaced?.size) conversation.replaced(item);
    }
    if (images) return `${images} image${images > 1 ? "s" : ""} from ${[...from].join(", ")}`;
  }
  let results = 0;
  for (const item of fresh) {
    if (item.replaced?.has(WHOLE_RESULT)) continue;
    (item.replaced ??= new Map()).set(
      WHOLE_RESULT,
      `[result not sent: the model API refused the request that carried it${why}]`,
    );
    conversation.replaced(item);
    note(item.callId, `result not sent: the model API refused the request that carried it${why}; the model got a note`);
    results++;
    from.add(toolOf(item.callId));
  }
  return results ? `the result${results > 1 ? "s" : ""} of ${[...from].join(", ")}` : undefined;
}

/** Tool search for this turn, when its setting and the definitions' size call for it. */
function toolSearchFor(
  opts: RunTurnOptions,
  serverTools: ModelToolSpec[],
  names: ReturnType<typeof buildToolNameMap>,
  hostTools: ReadonlyMap<string, HostTool>,
) {
  if (hostTools.has(SEARCH_TOOLS) || !searchWanted(opts.toolSearch ?? "auto", serverTools, opts.adapter.capabilities))
    return undefined;
  const wanted = new Set(opts.pinnedTools ?? []);
  const pinned = serverTools
    .filter((t) => wanted.has(t.name) || wanted.has(names.resolve(t.name)?.qualifiedName ?? ""))
    .map((t) => t.name);
  const index = new ToolSearch(serverTools, (n) => names.resolve(n)?.server ?? "", pinned);
  const tokens = definitionTokens(serverTools).toLocaleString("en-US");
  const why =
    opts.toolSearch === "on"
      ? "on"
      : `on: the tools' definitions (≈${tokens} tokens) are over ${AUTO_SHARE * 100}% of the model's window`;
  const notice = `tool search ${why}; the model gets the ${serverTools.length} tools through search_tools and those it used or found lately (/tools search off sends them all)`;
  return { index, tool: index.hostTool(), notice };
}

/** "server/tool" of the call with this id, for a notice. */
function toolName(conversation: Conversation, id: string): string {
  for (const i of conversation.items)
    if (i.role === "assistant")
      for (const c of i.toolCalls) if (c.id === id) return c.server ? `${c.server}/${c.tool}` : c.tool;
  return "a tool";
}

function asModelError(e: unknown, signal?: AbortSignal): ModelError {
  if (e instanceof ModelError) return e;
  if (signal?.aborted) return new ModelError("aborted", "cancelled");
  return new ModelError("api", `model error: ${(e as Error)?.message ?? String(e)}`);
}
