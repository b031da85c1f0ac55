// Human-readable previews of routed outputs. Every server-controlled string goes through the
// terminal sanitizer before it is printed.
import type { ToolResultOutput } from "../../protocol/index.js";
import { base64Bytes, formatBytes } from "../../host/result/measure.js";
import { sanitizeInline, sanitizeJson, sanitizeText } from "../../protocol/sanitize.js";
import { DEFAULT_PAGE_SIZE, renderTable, totalRows } from "../../ui/table.js";

const MAX_LINES = 12;

function clip(text: string, maxLines = MAX_LINES): string[] {
  const lines = text.split("\n");
  return lines.length > maxLines ? [...lines.slice(0, maxLines), `… (${lines.length - maxLines} more lines)`] : lines;
}

/** Preview lines for one output (unindented). */
export function previewOutput(
  o: ToolResultOutput,
  opts: { table?: boolean; width?: number; rows?: number } = {},
): string[] {
  if (o.format === "structured") {
    if (opts.table) {
      try {
        const rows = opts.rows ?? DEFAULT_PAGE_SIZE;
        const total = totalRows(o.structuredContent);
        const text = renderTable(o.structuredContent, {
          width: opts.width ?? 100,
          pageSize: rows,
          moreHint: `--rows ${total} shows them all, --json prints every row`,
          serverHint: "--json shows it; call again with it as the cursor argument",
        });
        // The table is whole (its notes included): clipping it would hide rows --rows asked for.
        return text.split("\n");
      } catch {
        // not tabular: fall through to JSON
      }
    }
    return clip(sanitizeJson(o.structuredContent));
  }
  const lines: string[] = [];
  for (const b of o.content) {
    if (b.type === "text") lines.push(...clip(sanitizeText(b.text)));
    else if (b.type === "image" || b.type === "audio") {
      lines.push(`[${b.type} ${sanitizeInline(b.mimeType)}, ${formatBytes(base64Bytes(b.data))}]`);
    } else if (b.type === "resource_link") lines.push(`[link ${sanitizeInline(b.name)} ${sanitizeInline(b.uri)}]`);
    else lines.push(`[resource ${sanitizeInline(b.resource.uri)}]`);
  }
  return lines;
}
