// The resource catalog behind resources/list, resources/templates/list, resources/read and
// completion/complete for ref/resource: fixed resources first, then each template's listed ones.
import { RpcError, internalError, invalidParams } from "./errors.js";
import { paginate } from "./pagination.js";
import {
  listEntry,
  type CacheHint,
  type CompiledTemplate,
  type ResourceBody,
  type ResourceDefinition,
} from "./resource.js";

type Json = Record<string, unknown>;

export class ResourceCatalog {
  private readonly fixed = new Map<string, ResourceDefinition>();

  constructor(
    resources: readonly ResourceDefinition[],
    readonly templates: readonly CompiledTemplate[],
    private readonly pageSize: number,
  ) {
    for (const r of resources) {
      if (this.fixed.has(r.uri)) throw new Error(`resource ${JSON.stringify(r.uri)} is registered twice`);
      this.fixed.set(r.uri, r);
    }
    const names = new Set<string>();
    for (const t of templates) {
      if (names.has(t.uriTemplate))
        throw new Error(`resource template ${JSON.stringify(t.uriTemplate)} is registered twice`);
      names.add(t.uriTemplate);
    }
  }

  /** Adds (or replaces) a fixed resource. */
  set(r: ResourceDefinition): void {
    this.fixed.set(r.uri, r);
  }

  delete(uri: string): boolean {
    return this.fixed.delete(uri);
  }

  get empty(): boolean {
    return this.fixed.size === 0 && this.templates.length === 0;
  }

  get completes(): boolean {
    return this.templates.some((t) => t.complete && Object.keys(t.complete).length > 0);
  }

  list(cursor: unknown): Json {
    const all: Json[] = [...this.fixed.values()].map(listEntry);
    for (const t of this.templates) {
      for (const r of t.list?.() ?? [])
        all.push({ ...r, ...(r.mimeType === undefined && t.mimeType ? { mimeType: t.mimeType } : {}) });
    }
    const { page, nextCursor } = paginate(all, cursor, this.pageSize);
    return nextCursor ? { resources: page, nextCursor } : { resources: page };
  }

  listTemplates(cursor: unknown): Json {
    const all = this.templates.map((t) => {
      const e: Json = { uriTemplate: t.uriTemplate, name: t.name };
      if (t.title !== undefined) e.title = t.title;
      if (t.description !== undefined) e.description = t.description;
      if (t.mimeType !== undefined) e.mimeType = t.mimeType;
      return e;
    });
    const { page, nextCursor } = paginate(all, cursor, this.pageSize);
    return nextCursor ? { resourceTemplates: page, nextCursor } : { resourceTemplates: page };
  }

  /** resources/read: `{contents}` and the resource's own cache hint; an unknown URI is `notFoundCode`. */
  async read(p: Json, notFoundCode: number): Promise<{ body: Json; cache?: CacheHint }> {
    if (typeof p.uri !== "string") throw invalidParams("resources/read needs params.uri");
    const uri = p.uri;
    const notFound = () => new RpcError(notFoundCode, `Resource not found: ${uri}`, { uri });
    const r = this.fixed.get(uri);
    if (r) {
      const content = contents(uri, r.mimeType, await r.read());
      if (r._meta) content._meta = r._meta;
      return { body: { contents: [content] }, cache: r.cache };
    }
    for (const t of this.templates) {
      const vars = t.match(uri);
      if (!vars) continue;
      const body = await t.read(vars, uri);
      if (body === undefined) throw notFound();
      return { body: { contents: [contents(uri, t.mimeType, body)] }, cache: t.cache };
    }
    throw notFound();
  }

  template(uriTemplate: string): CompiledTemplate | undefined {
    return this.templates.find((t) => t.uriTemplate === uriTemplate);
  }
}

function contents(uri: string, mimeType: string | undefined, body: ResourceBody): Json {
  const out: Json = { uri };
  if (mimeType !== undefined) out.mimeType = mimeType;
  if (typeof body === "string") out.text = body;
  else if ("text" in body && typeof body.text === "string") out.text = body.text;
  else if ("blob" in body)
    out.blob = typeof body.blob === "string" ? body.blob : Buffer.from(body.blob).toString("base64");
  else throw internalError(`server bug: resource ${uri} read neither text nor blob; nothing was sent`);
  return out;
}
