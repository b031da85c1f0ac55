// Static-ish resources served by resources/list and resources/read (e.g. an MCP App's HTML).
export interface ResourceDefinition {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType: string;
  /** Text contents (read on every resources/read). */
  read: () => string | Promise<string>;
  _meta?: Record<string, unknown>;
}

export function defineResource(def: ResourceDefinition): ResourceDefinition {
  if (!/^[a-z][a-z0-9+.-]*:/i.test(def.uri)) throw new Error(`resource ${JSON.stringify(def.uri)}: uri needs a scheme`);
  return def;
}

export function listEntry(r: ResourceDefinition): Record<string, unknown> {
  const e: Record<string, unknown> = { uri: r.uri, name: r.name, mimeType: r.mimeType };
  if (r.title !== undefined) e.title = r.title;
  if (r.description !== undefined) e.description = r.description;
  if (r._meta !== undefined) e._meta = r._meta;
  return e;
}
