// How a read resource is shown in the conversation (/read, /open): in the user's place only —
// never in the model's context. Each content becomes a numbered output (/save-output N saves it
// whole); a text is drawn up to a bound, a blob is one line.
import { formatBytes } from "../../host/result/measure.js";
import type { ReadOutcome, ResourceContents } from "../../host/catalog/resources.js";
import { sanitizeInline, sanitizeText, truncateChars } from "../../protocol/sanitize.js";
import { CommandError, type CommandContext } from "./types.js";

/** Lines and characters of a text resource drawn; the rest is saved with /save-output. */
export const SHOWN_LINES = 200;
export const SHOWN_CHARS = 32_000;

const inline = (s: string, max = 200) => truncateChars(sanitizeInline(s), max);

function blobBytes(blob: string): number {
  return Math.floor((blob.length * 3) / 4) - (blob.endsWith("==") ? 2 : blob.endsWith("=") ? 1 : 0);
}

/** The drawn part of a text: at most SHOWN_LINES lines and SHOWN_CHARS characters, and what was left out. */
export function shownText(text: string): { shown: string; more?: string } {
  const cut = text.length > SHOWN_CHARS ? text.slice(0, SHOWN_CHARS) : text;
  const lines = cut.split("\n");
  const kept = lines.slice(0, SHOWN_LINES).join("\n");
  if (kept.length === text.length) return { shown: text };
  const total = text.split("\n").length;
  return {
    shown: kept,
    more: `… ${formatBytes(Buffer.byteLength(text.slice(kept.length)))} more (${total} lines in all)`,
  };
}

/**
 * Draws a successful read's contents as one block; a failed read is a CommandError (one red line).
 * Each content gets a new output number, unless it is an output already (`numbered`: /open of an embedded resource).
 */
export function showRead(read: ReadOutcome, ctx: CommandContext, tool: string, numbered?: number): void {
  if (!read.ok) throw new CommandError(read.error.message);
  // Where the server offers it, a change of what the user looked at is told (one line).
  void ctx.host.subscribe?.(read.server, read.uri).catch(() => {});
  if (read.contents.length === 0) {
    ctx.store.notice(`${inline(read.server)} · ${inline(read.uri)}: no contents`);
    return;
  }
  const images: { n: number; data: string; mimeType: string }[] = [];
  const parts = read.contents.map((c: ResourceContents) => {
    const mime = c.mimeType ? inline(c.mimeType, 80) : undefined;
    if ("blob" in c) {
      const n =
        numbered ??
        ctx.store.addSaveable({
          tool,
          server: read.server,
          type: "resource",
          mimeType: c.mimeType,
          uri: c.uri,
          data: c.blob,
        });
      if (c.mimeType && DRAWN.has(c.mimeType.toLowerCase()))
        images.push({ n, data: c.blob, mimeType: c.mimeType.toLowerCase() });
      return `[${n}] ${inline(c.uri)} · ${mime ?? "binary"}, ${formatBytes(blobBytes(c.blob))} — /save-output ${n} saves it`;
    }
    const n =
      numbered ??
      ctx.store.addSaveable({
        tool,
        server: read.server,
        type: "resource",
        mimeType: c.mimeType,
        uri: c.uri,
        text: c.text,
      });
    const { shown, more } = shownText(c.text);
    const head = `[${n}] ${inline(c.uri)}${mime ? ` · ${mime}` : ""}, ${formatBytes(Buffer.byteLength(c.text))}`;
    return [head, sanitizeText(shown), ...(more ? [`${more} — /save-output ${n} saves it all`] : [])].join("\n");
  });
  ctx.store.notice(`${inline(read.server)} · ${inline(read.uri)}\n${parts.join("\n")}`);
  // Image blobs are drawn below, as a tool's user images are (the terminal image path).
  for (const img of images)
    ctx.store.append({
      kind: "image",
      block: { type: "image", data: img.data, mimeType: img.mimeType },
      saveId: img.n,
    });
}

/** The image types the terminal image path decodes. */
const DRAWN = new Set(["image/png", "image/jpeg", "image/gif"]);

/** The host's resources side, or a clear line when this host has none. */
export function resourceHost(ctx: CommandContext) {
  const { resources, readResource } = ctx.host;
  if (!resources || !readResource) throw new CommandError("this host does not offer resources");
  return { resources: resources.bind(ctx.host), readResource: readResource.bind(ctx.host) };
}
