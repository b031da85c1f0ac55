// Static-ish resources served by resources/list and resources/read (e.g. an MCP App's HTML).

/** SEP-2549's caching hint on a 2026-07-28 CacheableResult. */
export interface CacheHint {
  /** How long (ms) a client MAY treat the result as fresh; 0 = immediately stale. */
  ttlMs: number;
  /** "private": cached only within the same authorization context. */
  cacheScope: "public" | "private";
}

export function checkCacheHint(hint: CacheHint, what: string): CacheHint {
  if (!Number.isSafeInteger(hint.ttlMs) || hint.ttlMs < 0) throw new Error(`${what}: ttlMs must be a non-negative integer`);
  if (hint.cacheScope !== "public" && hint.cacheScope !== "private") throw new Error(`${what}: cacheScope must be "public" or "private"`);
  return { ttlMs: hint.ttlMs, cacheScope: hint.cacheScope };
}
export interface ResourceDefinition {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType: string;
  /** Text contents (read on every resources/read). */
  read: () => string | Promise<string>;
  _meta?: Record<string, unknown>;
  /** The caching hint of its resources/read result (default: the server's). */
  cache?: CacheHint;
}

export function defineResource(def: ResourceDefinition): ResourceDefinition {
  if (!/^[a-z][a-z0-9+.-]*:/i.test(def.uri)) throw new Error(`resource ${JSON.stringify(def.uri)}: uri needs a scheme`);
  if (def.cache) checkCacheHint(def.cache, `resource ${JSON.stringify(def.uri)}`);
  return def;
}

export function listEntry(r: ResourceDefinition): Record<string, unknown> {
  const e: Record<string, unknown> = { uri: r.uri, name: r.name, mimeType: r.mimeType };
  if (r.title !== undefined) e.title = r.title;
  if (r.description !== undefined) e.description = r.description;
  if (r._meta !== undefined) e._meta = r._meta;
  return e;
}
