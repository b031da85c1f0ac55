// Resources served by resources/list and resources/read: fixed ones (e.g. an MCP App's HTML) and
// resource templates (RFC 6570 level-1 `{var}` URIs, e.g. customers://{id}) with completion.

/** SEP-2549's caching hint on a 2026-07-28 CacheableResult. */
export interface CacheHint {
  /** How long (ms) a client MAY treat the result as fresh; 0 = immediately stale. */
  ttlMs: number;
  /** "private": cached only within the same authorization context. */
  cacheScope: "public" | "private";
}

export function checkCacheHint(hint: CacheHint, what: string): CacheHint {
  if (!Number.isSafeInteger(hint.ttlMs) || hint.ttlMs < 0)
    throw new Error(`${what}: ttlMs must be a non-negative integer`);
  if (hint.cacheScope !== "public" && hint.cacheScope !== "private")
    throw new Error(`${what}: cacheScope must be "public" or "private"`);
  return { ttlMs: hint.ttlMs, cacheScope: hint.cacheScope };
}

/** What a read returns: text (a string, or {text}) or binary ({blob}: base64, or bytes). */
export type ResourceBody = string | { text: string } | { blob: string | Uint8Array };

export interface ResourceDefinition {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType: string;
  /** The contents (read on every resources/read). */
  read: () => ResourceBody | Promise<ResourceBody>;
  _meta?: Record<string, unknown>;
  /** The caching hint of its resources/read result (default: the server's). */
  cache?: CacheHint;
}

/** Suggests values for one template variable or prompt argument from what was typed so far. */
export type Completer = (value: string, context: Record<string, string>) => string[] | Promise<string[]>;

/** A concrete resource a template lists in resources/list. */
export interface ListedResource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

export interface ResourceTemplateDefinition {
  /** Level-1 RFC 6570: literal text and `{name}` variables, each matching one path segment. */
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  /** The concrete resources to show in resources/list (default: none; the template is enough). */
  list?: () => ListedResource[];
  /** The contents for the matched variables; undefined when nothing exists there (resource not found). */
  read: (vars: Record<string, string>, uri: string) => ResourceBody | undefined | Promise<ResourceBody | undefined>;
  /** completion/complete for a variable (ref/resource with this uriTemplate). */
  complete?: Record<string, Completer>;
  cache?: CacheHint;
}

export interface CompiledTemplate extends ResourceTemplateDefinition {
  variables: string[];
  /** The variables of a URI this template produces, or undefined. */
  match(uri: string): Record<string, string> | undefined;
}

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

export function defineResource(def: ResourceDefinition): ResourceDefinition {
  if (!SCHEME.test(def.uri)) throw new Error(`resource ${JSON.stringify(def.uri)}: uri needs a scheme`);
  if (def.cache) checkCacheHint(def.cache, `resource ${JSON.stringify(def.uri)}`);
  return def;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export function defineResourceTemplate(def: ResourceTemplateDefinition): CompiledTemplate {
  const what = `resource template ${JSON.stringify(def.uriTemplate)}`;
  if (!SCHEME.test(def.uriTemplate)) throw new Error(`${what}: uriTemplate needs a scheme`);
  if (def.cache) checkCacheHint(def.cache, what);
  const variables: string[] = [];
  let pattern = "";
  let last = 0;
  for (const m of def.uriTemplate.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)) {
    pattern += escapeRe(def.uriTemplate.slice(last, m.index)) + "([^/?#]+)";
    variables.push(m[1]);
    last = m.index! + m[0].length;
  }
  const rest = def.uriTemplate.slice(last);
  if (variables.length === 0 || /[{}]/.test(rest))
    throw new Error(`${what}: needs level-1 {name} variables and nothing else in braces`);
  if (new Set(variables).size !== variables.length) throw new Error(`${what}: a variable appears twice`);
  for (const name of Object.keys(def.complete ?? {})) {
    if (!variables.includes(name))
      throw new Error(`${what}: completion for ${JSON.stringify(name)}, which is not one of its variables`);
  }
  const re = new RegExp(`^${pattern}${escapeRe(rest)}$`);
  return {
    ...def,
    variables,
    match(uri) {
      const m = re.exec(uri);
      if (!m) return undefined;
      const vars: Record<string, string> = {};
      try {
        variables.forEach((v, i) => (vars[v] = decodeURIComponent(m[i + 1])));
      } catch {
        return undefined; // a malformed percent-escape names nothing
      }
      return vars;
    },
  };
}

export function listEntry(r: ResourceDefinition): Record<string, unknown> {
  const e: Record<string, unknown> = { uri: r.uri, name: r.name, mimeType: r.mimeType };
  if (r.title !== undefined) e.title = r.title;
  if (r.description !== undefined) e.description = r.description;
  if (r._meta !== undefined) e._meta = r._meta;
  return e;
}
