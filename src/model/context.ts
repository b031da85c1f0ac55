// The ONE model-context builder: conversation → provider-neutral messages.
// Every adapter (offline and Anthropic) consumes its output, so nothing reaches a model except
// through here. A tool result can only be `ModelSinkEntry[]` (router-branded assistant outputs)
// or a `HostReceipt`; user, programmatic and App outputs do not type-check as input, and result
// `_meta` is not part of any of them.
import type { ContentBlock } from "../protocol/index.js";
import type { HostReceipt, ModelSinkEntry } from "../host/types.js";
import { isReceipt, type ConversationItem, type ModelToolResult } from "./conversation.js";

export type ModelTextBlock = { type: "text"; text: string };
export type ModelImageBlock = { type: "image"; mimeType: string; data: string };
export type ModelContentBlock = ModelTextBlock | ModelImageBlock;
export type ModelToolUseBlock = { type: "tool_use"; id: string; name: string; input: Record<string, unknown> };
export type ModelToolResultBlock = {
  type: "tool_result";
  toolUseId: string;
  isError: boolean;
  content: ModelContentBlock[];
};

export type ModelMessage =
  | { role: "user"; content: (ModelTextBlock | ModelToolResultBlock)[] }
  | { role: "assistant"; content: (ModelTextBlock | ModelToolUseBlock)[] };

/** What a provider can take in a tool result. */
export interface ModelCapabilities {
  /** Image MIME types the provider accepts as image blocks. */
  imageMimeTypes: readonly string[];
}

export const ANTHROPIC_CAPABILITIES: ModelCapabilities = {
  imageMimeTypes: ["image/png", "image/jpeg", "image/gif", "image/webp"],
};

/** Turns one tool result (model sink or receipt) into provider-neutral blocks. */
export function toolResultBlocks(result: ModelToolResult, caps: ModelCapabilities): ModelContentBlock[] {
  if (isReceipt(result)) return receiptBlocks(result);
  const blocks: ModelContentBlock[] = [];
  for (const output of result as readonly ModelSinkEntry[]) {
    if (output.format === "structured") {
      blocks.push({ type: "text", text: compactJson(output.structuredContent) });
    } else {
      for (const block of output.content) blocks.push(contentBlock(block, caps));
    }
  }
  return blocks;
}

function receiptBlocks(receipt: HostReceipt): ModelContentBlock[] {
  return [{ type: "text", text: receipt.text }];
}

function contentBlock(block: ContentBlock, caps: ModelCapabilities): ModelContentBlock {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text };
    case "image": {
      const mime = baseMime(block.mimeType);
      if (caps.imageMimeTypes.includes(mime)) return { type: "image", mimeType: mime, data: block.data };
      return omitted(block.mimeType, "image");
    }
    case "audio":
      return omitted(block.mimeType, "audio");
    case "resource_link": {
      const label = block.title ?? block.name;
      const extra = [block.mimeType, block.description].filter(Boolean).join(", ");
      return { type: "text", text: `[resource link: ${label} <${block.uri}>${extra ? ` (${extra})` : ""}]` };
    }
    case "resource": {
      const r = block.resource;
      if (typeof r.text === "string") return { type: "text", text: r.text };
      return omitted(`${String(r.mimeType ?? "application/octet-stream")} <${r.uri}>`, "resource");
    }
  }
}

function omitted(mimeType: string, what: "image" | "audio" | "resource"): ModelTextBlock {
  const cannot = what === "image" ? `${mimeType} images` : what === "audio" ? "audio" : "binary resources";
  return { type: "text", text: `[${mimeType} ${what} omitted: this model cannot take ${cannot}]` };
}

function baseMime(mime: string): string {
  return mime.split(";")[0].trim().toLowerCase();
}

export function compactJson(value: unknown): string {
  return JSON.stringify(value) ?? "null";
}

/**
 * Builds the provider-neutral messages. Consecutive items of the same role are merged (a
 * failed turn may leave a user prompt without an answer; providers want alternating roles).
 */
export function buildContext(items: readonly ConversationItem[], caps: ModelCapabilities): ModelMessage[] {
  const messages: ModelMessage[] = [];
  const push = (msg: ModelMessage) => {
    const last = messages[messages.length - 1];
    if (last && last.role === msg.role) (last.content as unknown[]).push(...msg.content);
    else messages.push(msg);
  };
  for (const item of items) {
    if (item.role === "user") {
      push({ role: "user", content: [{ type: "text", text: item.text }] });
    } else if (item.role === "assistant") {
      const content: (ModelTextBlock | ModelToolUseBlock)[] = [];
      if (item.text) content.push({ type: "text", text: item.text });
      for (const c of item.toolCalls) content.push({ type: "tool_use", id: c.id, name: c.name, input: c.args });
      if (content.length) push({ role: "assistant", content });
    } else {
      push({
        role: "user",
        content: [
          { type: "tool_result", toolUseId: item.callId, isError: item.isError, content: toolResultBlocks(item.result, caps) },
        ],
      });
    }
  }
  return messages;
}
