// The text forms of `mcp-prism resources` and `mcp-prism read`. Every server string is sanitized
// by out() as a whole; names and URIs are also kept to one line here.
import type { ResourceContents, ResourceListing } from "../../host/catalog/resources.js";
import { formatBytes } from "../../host/result/measure.js";
import { sanitizeInline, truncateChars } from "../../protocol/sanitize.js";

const line = (s: string, max = 300) => truncateChars(sanitizeInline(s), max);

/** Per server: its resources (uri, name, MIME type, size) and templates, then its errors. */
export function renderResources(listings: ResourceListing[]): string {
  const out: string[] = [];
  for (const l of listings) {
    if (!l.offered) {
      out.push(`${line(l.server)} · no resources${l.errors.length ? "" : " offered"}`);
    } else {
      out.push(
        `${line(l.server)} · ${l.resources.length} resource${l.resources.length === 1 ? "" : "s"}, ${l.templates.length} template${l.templates.length === 1 ? "" : "s"}`,
      );
      for (const r of l.resources) {
        const extra = [r.mimeType, r.size !== undefined ? formatBytes(r.size) : undefined].filter(Boolean).join(", ");
        out.push(`  ${line(r.uri)}  ${line(r.title ?? r.name, 120)}${extra ? ` (${line(extra, 80)})` : ""}`);
      }
      for (const t of l.templates) out.push(`  ${line(t.uriTemplate)}  ${line(t.title ?? t.name, 120)} (template)`);
    }
    for (const e of l.errors) out.push(`  ✗ [${line(e.rule, 60)}] ${line(e.message)}`);
  }
  return out.join("\n") + "\n";
}

/** A blob's one line: what it is and how to save it. */
export function blobLine(c: Extract<ResourceContents, { blob: string }>): string {
  const bytes = Math.floor((c.blob.length * 3) / 4) - (c.blob.endsWith("==") ? 2 : c.blob.endsWith("=") ? 1 : 0);
  return `[blob ${line(c.mimeType ?? "application/octet-stream", 80)}, ${formatBytes(bytes)}: save it with --out FILE]`;
}

/** The contents read: text as it is (sanitized by out()), a blob as one line; a heading per content when there are several. */
export function renderContents(contents: ResourceContents[]): string {
  const parts = contents.map((c) => {
    const body = "text" in c ? c.text : blobLine(c);
    return contents.length > 1 ? `--- ${line(c.uri)}${c.mimeType ? ` (${line(c.mimeType, 80)})` : ""}\n${body}` : body;
  });
  const text = parts.join("\n");
  return text.endsWith("\n") ? text : `${text}\n`;
}

/** The bytes `--out` writes: a blob decoded, a text as UTF-8. */
export function contentBytes(c: ResourceContents): Buffer {
  return "blob" in c ? Buffer.from(c.blob, "base64") : Buffer.from(c.text, "utf8");
}
