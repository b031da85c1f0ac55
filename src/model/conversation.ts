// The provider-neutral conversation: what was said and what the model got back from tools.
// It deliberately holds ONLY what may reach the model: a tool result item carries the model
// sink (router-branded assistant outputs) or the host's receipt, never the full CallOutcome.
// The UI keeps outcomes beside it, keyed by call id (see the turn events).
import type { HostReceipt, ModelSinkEntry } from "../host/types.js";

/** What a tool call gave the model: the routed model sink, or the host's receipt. */
export type ModelToolResult = readonly ModelSinkEntry[] | HostReceipt;

/** A resource the user attached to a prompt (`@URI`): the user's own context, on the user's turn. */
export interface UserAttachment {
  server: string;
  uri: string;
  mimeType?: string;
  text: string;
}

export interface UserItem {
  role: "user";
  text: string;
  /** Resources the user attached, given to the model before the prompt's text. */
  attachments?: readonly UserAttachment[];
}

export interface ToolCallRequest {
  /** Provider call id (e.g. Anthropic's `toolu_...`). */
  id: string;
  /** The name the model used (see tool-names.ts). */
  name: string;
  /** Where it maps back to. */
  server: string;
  tool: string;
  args: Record<string, unknown>;
}

export interface AssistantItem {
  role: "assistant";
  text: string;
  toolCalls: ToolCallRequest[];
}

export interface ToolResultItem {
  role: "tool";
  callId: string;
  isError: boolean;
  result: ModelToolResult;
  /**
   * Notes that stand, for the model, for blocks of `result` the provider refused (an image it
   * could not decode…): block index (context.ts rawToolResultBlocks) → note, or WHOLE_RESULT.
   * The result itself (and the transcript) keeps the original.
   */
  replaced?: Map<number, string>;
}

/** The key of ToolResultItem.replaced that replaces the whole result by one note. */
export const WHOLE_RESULT = -1;

export type ConversationItem = UserItem | AssistantItem | ToolResultItem;

/** What changed in a conversation (the app records each change in the session transcript). */
export type ConversationChange =
  | { type: "append"; item: ConversationItem }
  | { type: "replaced"; item: ToolResultItem }
  | { type: "rollback"; length: number }
  /** The first `removed` items were replaced by `items` (a summary: compact.ts). */
  | { type: "compacted"; removed: number; items: ConversationItem[] };

/** A conversation is an append-only list; a failed turn rolls back to its start (see turn.ts). */
export class Conversation {
  readonly items: ConversationItem[] = [];
  /** How many items the provider has taken in a request (later ones are not known to be acceptable). */
  accepted = 0;
  /** Notices already given in this conversation (a bound cut is told once, not every turn). */
  readonly noticed = new Set<string>();

  private readonly observers = new Set<(c: ConversationChange) => void>();

  /** A conversation that goes on from `items` (a resumed session's, read back from its transcript). */
  static from(items: readonly ConversationItem[]): Conversation {
    const c = new Conversation();
    c.items.push(...items);
    return c;
  }

  /** Calls `fn` on every change from now on. */
  observe(fn: (c: ConversationChange) => void): () => void {
    this.observers.add(fn);
    return () => this.observers.delete(fn);
  }
  private tell(c: ConversationChange): void {
    for (const fn of this.observers) fn(c);
  }

  append(item: ConversationItem): void {
    this.items.push(item);
    this.tell({ type: "append", item });
  }
  /** Says that `item.replaced` changed (turn.ts, after the provider refused some of its content). */
  replaced(item: ToolResultItem): void {
    this.tell({ type: "replaced", item });
  }
  /** Replaces the first `removed` items by `items` (compaction; the transcript keeps the originals). */
  compact(removed: number, items: ConversationItem[]): void {
    this.items.splice(0, removed, ...items);
    // What the provider took before is not what it will get now: nothing counts as taken.
    this.accepted = 0;
    this.tell({ type: "compacted", removed, items });
  }
  /** Index to roll back to if a turn fails half-way. */
  mark(): number {
    return this.items.length;
  }
  rollback(mark: number): void {
    this.items.length = Math.min(mark, this.items.length);
    this.accepted = Math.min(this.accepted, this.items.length);
    this.tell({ type: "rollback", length: this.items.length });
  }
}

export function isReceipt(r: ModelToolResult): r is HostReceipt {
  return !Array.isArray(r) && (r as HostReceipt).kind === "receipt";
}
