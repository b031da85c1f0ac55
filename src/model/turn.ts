// One user turn: model ↔ tools until the model answers (or the round bound is hit).
// Used by one-shot mode, the TUI and benchmarks. On any error the conversation keeps every
// completed step and stays well-formed, so the next prompt works.
import type { CallOutcome, HostReceipt, Mode, ToolExecutor } from "../host/types.js";
import { ModelError, type ModelAdapter, type ModelToolSpec } from "./adapter.js";
import { buildContext } from "./context.js";
import type { Conversation, ModelToolResult, ToolCallRequest } from "./conversation.js";
import { buildToolNameMap } from "./tool-names.js";
import { offeredToModel } from "../host/app-only.js";

export const DEFAULT_MAX_ROUNDS = 8;

export interface ToolCallRecord {
  call: ToolCallRequest;
  outcome?: CallOutcome;
}

export interface TurnResult {
  ok: boolean;
  answer: string;
  toolCalls: ToolCallRecord[];
  modelRequests: number;
  error?: ModelError;
  /** True when the model still wanted tools after maxRounds rounds. */
  roundLimitHit?: boolean;
}

export type TurnEvent =
  | { type: "text"; delta: string }
  | { type: "tool-call"; call: ToolCallRequest }
  | { type: "tool-outcome"; call: ToolCallRequest; outcome: CallOutcome | undefined; forModel: ModelToolResult }
  | { type: "turn-end"; result: TurnResult }
  | { type: "error"; error: ModelError };

export interface RunTurnOptions {
  adapter: ModelAdapter;
  executor: ToolExecutor;
  conversation: Conversation;
  prompt: string;
  mode: Mode;
  signal?: AbortSignal;
  events?: (e: TurnEvent) => void;
  maxRounds?: number;
}

export function systemPrompt(executor: ToolExecutor): string {
  const parts = [
    "You are the assistant in mcp-prism, a terminal chat host for MCP servers. Use the tools when they help; tool results may come as host receipts when the data went to the user or to program logic instead of you.",
  ];
  for (const i of executor.instructions()) if (i.text.trim()) parts.push(`Instructions from MCP server "${i.server}":\n${i.text.trim()}`);
  return parts.join("\n\n");
}

/** What the model gets for one call: the model sink, else the host's receipt. Never other sinks. */
export function modelResultFor(outcome: CallOutcome): { isError: boolean; result: ModelToolResult } {
  if (!outcome.ok) return { isError: true, result: receipt(`The call failed (${outcome.error.rule}): ${outcome.error.message}`) };
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
  const tools: ModelToolSpec[] = names.tools.map((t) => ({
    name: t.name,
    description: t.entry.description ?? t.entry.title,
    inputSchema: t.entry.inputSchema,
  }));
  const system = systemPrompt(executor);
  const toolCalls: ToolCallRecord[] = [];
  let modelRequests = 0;
  let answer = "";

  const finish = (result: TurnResult): TurnResult => {
    if (result.error) emit({ type: "error", error: result.error });
    emit({ type: "turn-end", result });
    return result;
  };

  conversation.append({ role: "user", text: opts.prompt });
  for (let round = 0; round < maxRounds; round++) {
    const messages = buildContext(conversation.items, adapter.capabilities);
    let text = "";
    const calls: ToolCallRequest[] = [];
    modelRequests++;
    try {
      if (signal?.aborted) throw new ModelError("aborted", "cancelled");
      for await (const ev of adapter.respond({ system, messages, tools, signal })) {
        if (ev.type === "text") {
          text += ev.text;
          emit({ type: "text", delta: ev.text });
        } else {
          const entry = names.resolve(ev.name);
          calls.push({ id: ev.id, name: ev.name, server: entry?.server ?? "", tool: entry?.name ?? ev.name, args: ev.input });
        }
      }
    } catch (e) {
      // The partial reply is dropped: the conversation ends where the last complete step did.
      return finish({ ok: false, answer, toolCalls, modelRequests, error: asModelError(e, signal) });
    }
    answer = text;
    conversation.append({ role: "assistant", text, toolCalls: calls });
    if (!calls.length) return finish({ ok: true, answer, toolCalls, modelRequests });

    for (const call of calls) {
      // Every tool_use gets a result (cancelled ones a receipt), so the conversation stays valid.
      if (signal?.aborted) {
        conversation.append({ role: "tool", callId: call.id, isError: true, result: receipt("Not run: the user cancelled the turn.") });
        continue;
      }
      emit({ type: "tool-call", call });
      const entry = names.resolve(call.name);
      let outcome: CallOutcome | undefined;
      let forModel: { isError: boolean; result: ModelToolResult };
      if (!entry) {
        forModel = { isError: true, result: receipt(`There is no tool named ${JSON.stringify(call.name)}.`) };
      } else {
        outcome = await executor.call(entry.qualifiedName, call.args, { mode, signal, target: { server: entry.server, tool: entry.name } });
        forModel = modelResultFor(outcome);
      }
      toolCalls.push({ call, outcome });
      conversation.append({ role: "tool", callId: call.id, ...forModel });
      emit({ type: "tool-outcome", call, outcome, forModel: forModel.result });
    }
    if (signal?.aborted) return finish({ ok: false, answer, toolCalls, modelRequests, error: new ModelError("aborted", "cancelled") });
  }
  return finish({
    ok: true,
    answer: `${answer}${answer ? "\n" : ""}(Stopped after ${maxRounds} tool rounds without a final answer.)`,
    toolCalls,
    modelRequests,
    roundLimitHit: true,
  });
}

function asModelError(e: unknown, signal?: AbortSignal): ModelError {
  if (e instanceof ModelError) return e;
  if (signal?.aborted) return new ModelError("aborted", "cancelled");
  return new ModelError("api", `model error: ${(e as Error)?.message ?? String(e)}`);
}
