// The host's receipt: what the model reads when its sink is empty (e.g. code mode). It is written
// by the host from sizes and declared schema titles only; it never carries server data.
import { sameSelector, selectorKey, type ToolResultVariant } from "../../protocol/index.js";
import { formatBytes } from "./measure.js";
import type { HostReceipt, Routed, SinkBytes } from "../types.js";

const SINK_LABEL = { user: "the user", programmatic: "program logic", app: "the App view" } as const;

function schemaTitle(variants: readonly ToolResultVariant[], audience: string): string | undefined {
  const v = variants.find((x) => sameSelector(x, { audience, format: "structured" }));
  const title = v && v.format === "structured" ? v.schema?.title : undefined;
  if (typeof title !== "string") return undefined;
  // Strip controls and bound the length: the title is server-controlled.
  return title.replace(/[\u0000-\u001f\u007f-\u009f]/g, "").slice(0, 60);
}

export function writeReceipt(
  tool: string,
  routed: Routed,
  bytes: SinkBytes,
  variants: readonly ToolResultVariant[],
  isError: boolean,
): HostReceipt {
  // One short line (it is what the model reads instead of the data, so every byte counts):
  // what went where, its size and (programmatic) the schema title; never server data.
  const parts: string[] = [];
  for (const sink of ["programmatic", "user", "app"] as const) {
    const entries = routed[sink];
    if (entries.length === 0) continue;
    const kinds = entries.map((e) => selectorKey(e)).join(", ");
    const title = sink === "programmatic" ? schemaTitle(variants, "programmatic") : undefined;
    parts.push(`${kinds} ${formatBytes(bytes[sink])}${title ? ` (${title})` : ""} went to ${SINK_LABEL[sink]}`);
  }
  const head = `${tool}${isError ? " (error)" : ""}`;
  return {
    kind: "receipt",
    text: parts.length ? `${head}: ${parts.join("; ")}, not to you.` : `${head}: produced no output.`,
  };
}

export { isReceiptText } from "./receipt-text.js";
