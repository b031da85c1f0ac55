// The one measure of what reached a sink, used by the tool card, `call` (and --json), `compare`,
// the panes and the receipts: `bytes` is the payload (UTF-8 text, structured content as JSON,
// decoded media), never the JSON wrapping of the outputs; tokens are estimated from the text only.
import type { ToolResultOutput } from "../../protocol/index.js";
import type { HostReceipt, Routed, SinkName } from "../types.js";

export interface Share {
  /** The size: textBytes + mediaBytes. */
  bytes: number;
  /** Bytes of text and JSON (media payloads excluded). */
  textBytes: number;
  /** Decoded bytes of images, audio and binary resources. */
  mediaBytes: number;
  /** Estimated tokens: textBytes / 4, rounded up. */
  tokens: number;
  images: number;
  audio: number;
  /** Number of outputs. */
  outputs: number;
}

const bytes = (s: string) => Buffer.byteLength(s, "utf8");

/** Bytes of a value serialized as JSON (what it costs on the wire and in a sink); throws as JSON.stringify does. */
export function jsonBytes(x: unknown): number {
  const s = JSON.stringify(x);
  return s === undefined ? 0 : bytes(s);
}

/** Decoded size of base64 data, from its length. */
export function base64Bytes(data: string): number {
  return Math.max(0, Math.floor((data.length * 3) / 4) - (data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0));
}

export function measureOutputs(outputs: readonly ToolResultOutput[], meta?: Record<string, unknown>): Share {
  const share: Share = {
    bytes: 0,
    textBytes: 0,
    mediaBytes: 0,
    tokens: 0,
    images: 0,
    audio: 0,
    outputs: outputs.length,
  };
  if (meta && Object.keys(meta).length) share.textBytes += jsonBytes(meta);
  for (const o of outputs) {
    if (o.format === "structured") {
      share.textBytes += bytes(JSON.stringify(o.structuredContent) ?? "");
      continue;
    }
    for (const b of o.content) {
      if (b.type === "text") share.textBytes += bytes(b.text);
      else if (b.type === "image" || b.type === "audio") {
        if (b.type === "image") share.images++;
        else share.audio++;
        share.mediaBytes += base64Bytes(b.data);
      } else if (b.type === "resource" && "text" in b.resource) share.textBytes += bytes(String(b.resource.text));
      else if (b.type === "resource" && "blob" in b.resource) share.mediaBytes += base64Bytes(String(b.resource.blob));
      else share.textBytes += bytes(JSON.stringify(b));
    }
  }
  share.tokens = Math.ceil(share.textBytes / 4);
  share.bytes = share.textBytes + share.mediaBytes;
  return share;
}

export function measureSinks(routed: Routed): Record<SinkName, Share> {
  return {
    model: measureOutputs(routed.model),
    user: measureOutputs(routed.user),
    programmatic: measureOutputs(routed.programmatic),
    app: measureOutputs(routed.app, routed.appMeta),
  };
}

export function measureReceipt(receipt: HostReceipt): Share {
  const textBytes = bytes(receipt.text);
  return {
    bytes: textBytes,
    textBytes,
    mediaBytes: 0,
    tokens: Math.ceil(textBytes / 4),
    images: 0,
    audio: 0,
    outputs: 0,
  };
}

/** A size for people and the model's receipts: 212 B · 48 kB · 3.1 kB · 1.2 MB (1 kB = 1024 B). */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const kb = n / 1024;
  if (kb < 1024) return `${kb < 10 ? kb.toFixed(1).replace(/\.0$/, "") : Math.round(kb)} kB`;
  const mb = kb / 1024;
  return `${mb < 10 ? mb.toFixed(1).replace(/\.0$/, "") : Math.round(mb)} MB`;
}
