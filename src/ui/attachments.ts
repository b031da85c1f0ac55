// `@URI` in a prompt attaches that resource: it is read before the turn and enters the model's
// context as the user's own context block on the user's turn (src/model/context.ts). Only text
// contents attach, bounded in count and size; a reference that cannot be read stops the turn
// with one line (the user asked for it: the prompt is not sent without it).
import { formatBytes } from "../host/result/measure.js";
import type { UserAttachment } from "../model/conversation.js";
import { sanitizeInline, truncateChars } from "../protocol/sanitize.js";
import type { CommandHost } from "./commands/types.js";

export const MAX_ATTACHMENTS = 8;
/** Characters one attachment, and all of a prompt's together, may give the model. */
export const MAX_ATTACHED_CHARS = 200_000;
export const MAX_ATTACHED_TOTAL = 400_000;

/** The URIs a prompt attaches: `@` at the start of a word, then a URI (it has a scheme). */
export function attachmentRefs(prompt: string): string[] {
  const refs: string[] = [];
  for (const m of prompt.matchAll(/(?:^|\s)@([A-Za-z][A-Za-z0-9+.-]*:\S+)/g)) if (!refs.includes(m[1])) refs.push(m[1]);
  return refs;
}

export type Attached = { ok: true; attachments: UserAttachment[]; lines: string[] } | { ok: false; error: string };

const inline = (s: string) => truncateChars(sanitizeInline(s), 200);

/** Reads every resource a prompt attaches; the attachments with one line each for the user's turn, or why not. */
export async function readAttachments(prompt: string, host: CommandHost): Promise<Attached> {
  const refs = attachmentRefs(prompt);
  if (refs.length === 0) return { ok: true, attachments: [], lines: [] };
  if (!host.readResource)
    return { ok: false, error: "this host does not offer resources: nothing can be attached; not sent" };
  if (refs.length > MAX_ATTACHMENTS)
    return { ok: false, error: `${refs.length} resources attached (at most ${MAX_ATTACHMENTS}); not sent` };
  const attachments: UserAttachment[] = [];
  const lines: string[] = [];
  let total = 0;
  for (const uri of refs) {
    const read = await host.readResource(uri);
    if (!read.ok) return { ok: false, error: `@${inline(uri)}: ${inline(read.error.message)}; not sent` };
    void host.subscribe?.(read.server, read.uri).catch(() => {}); // a change is then a one-line notice
    const texts = read.contents.filter((c): c is Extract<typeof c, { text: string }> => "text" in c);
    if (texts.length === 0)
      return {
        ok: false,
        error: `@${inline(uri)}: no text to attach (${read.contents.length ? "binary contents: /read shows them" : "no contents"}); not sent`,
      };
    for (const c of texts) {
      if (c.text.length > MAX_ATTACHED_CHARS)
        return {
          ok: false,
          error: `@${inline(c.uri)}: ${c.text.length} characters (at most ${MAX_ATTACHED_CHARS} attach); not sent`,
        };
      total += c.text.length;
      if (total > MAX_ATTACHED_TOTAL)
        return {
          ok: false,
          error: `the attached resources hold more than ${MAX_ATTACHED_TOTAL} characters together; not sent`,
        };
      attachments.push(
        c.mimeType === undefined
          ? { server: read.server, uri: c.uri, text: c.text }
          : { server: read.server, uri: c.uri, mimeType: c.mimeType, text: c.text },
      );
      lines.push(`attached ${inline(read.server)} · ${inline(c.uri)} (${formatBytes(Buffer.byteLength(c.text))})`);
    }
  }
  return { ok: true, attachments, lines };
}
