// Opaque cursors for the paginated list methods (resources/list, resources/templates/list,
// prompts/list): base64url of {"o": offset}. A cursor this server did not issue is -32602.
import { invalidParams } from "./errors.js";

export const DEFAULT_PAGE_SIZE = 100;

function readCursor(cursor: unknown): number {
  if (cursor === undefined) return 0;
  if (typeof cursor !== "string" || cursor.length > 200)
    throw invalidParams("Invalid cursor: not one this server issued");
  try {
    const v = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as { o?: unknown };
    if (Number.isSafeInteger(v.o) && (v.o as number) >= 0) return v.o as number;
  } catch {
    // falls through to the error below
  }
  throw invalidParams("Invalid cursor: not one this server issued");
}

/** One page of `items` from `cursor` (the request's params.cursor), with the next cursor when more remain. */
export function paginate<T>(
  items: readonly T[],
  cursor: unknown,
  pageSize: number,
): { page: T[]; nextCursor?: string } {
  const offset = readCursor(cursor);
  const page = items.slice(offset, offset + pageSize);
  const next = offset + page.length;
  return next < items.length
    ? { page, nextCursor: Buffer.from(JSON.stringify({ o: next })).toString("base64url") }
    : { page };
}
