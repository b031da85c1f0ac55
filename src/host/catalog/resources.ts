// Resources: resources/list and resources/templates/list (paginated, bounded), resources/read
// (text and blob contents), for every era: Connection.request adds the modern `_meta` envelope.
// Everything a server lists or sends is untrusted: counted, measured and checked field by field;
// a bad entry is one error that names itself, the rest stay usable. Strings are kept raw (bounded
// in length) and sanitized where they are drawn.
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { exceedsJsonDepth, tooDeepDetail } from "../../protocol/json-depth.js";
import { isObject } from "../../protocol/is-object.js";
import type { Limits } from "../config/config.js";
import { ConnectionError, type Connection } from "../connection/connection.js";
import { withInputRounds } from "../call/input-required.js";
import { oneLine } from "../connection/probe-outcome.js";

/** Pages one listing may take, and entries one server may list (the rest is left out, with a notice). */
export const MAX_LIST_PAGES = 50;
export const MAX_RESOURCES = 10_000;
/** Contents one read may return. */
export const MAX_CONTENTS = 256;
/** Longest URI / name / title kept; a longer one rejects its entry. Descriptions are cut. */
const MAX_URI = 4096;
const MAX_NAME = 512;
const MAX_DESCRIPTION = 4096;

/** One resource a server lists. */
export interface ResourceEntry {
  server: string;
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
}

/** One resource template a server lists (RFC 6570 `uriTemplate`). */
export interface TemplateEntry {
  server: string;
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/** What went wrong, as data: the server, the resource (when one is meant), the rule and the detail. */
export interface ResourceError {
  server: string;
  /** The URI read, or "" for a listing. */
  uri: string;
  rule: string;
  detail: string;
  /** `server S, resource U: detail` (or `server S: detail` for a listing). */
  message: string;
}

export function resourceError(server: string, uri: string, rule: string, detail: string): ResourceError {
  const who = server ? `server ${server}${uri ? `, resource ${uri}` : ""}: ` : "";
  return { server, uri, rule, detail, message: `${who}${detail}` };
}

export interface ResourceListing {
  server: string;
  /** False when the server does not advertise the resources capability (nothing was asked). */
  offered: boolean;
  resources: ResourceEntry[];
  templates: TemplateEntry[];
  errors: ResourceError[];
}

/** `_meta` is kept as sent (depth-checked): an MCP Apps View's `ui` entry (csp, permissions) is read from it. */
export type ResourceContents = (
  | { uri: string; mimeType?: string; text: string }
  | { uri: string; mimeType?: string; blob: string }
) & { _meta?: Json };

export type ReadOutcome =
  | { ok: true; server: string; uri: string; contents: ResourceContents[] }
  | { ok: false; error: ResourceError };

type Json = Record<string, unknown>;

const str = (v: unknown, max: number): string | undefined => (typeof v === "string" && v.length <= max ? v : undefined);
const cut = (v: unknown, max: number): string | undefined =>
  typeof v === "string" ? (v.length > max ? `${v.slice(0, max)}…` : v) : undefined;

function optionals<T extends object>(e: T, raw: Json): T {
  const title = str(raw.title, MAX_NAME);
  const description = cut(raw.description, MAX_DESCRIPTION);
  const mimeType = str(raw.mimeType, 255);
  if (title !== undefined) Object.assign(e, { title });
  if (description !== undefined) Object.assign(e, { description });
  if (mimeType !== undefined) Object.assign(e, { mimeType });
  return e;
}

function toResource(server: string, raw: unknown): ResourceEntry | string {
  if (!isObject(raw)) return "a resource that is not an object";
  const uri = str(raw.uri, MAX_URI);
  const name = str(raw.name, MAX_NAME);
  if (uri === undefined || uri === "") return "a resource without a usable uri";
  if (name === undefined) return `resource ${uri.slice(0, 200)}: no usable name`;
  const e = optionals<ResourceEntry>({ server, uri, name }, raw);
  if (typeof raw.size === "number" && Number.isFinite(raw.size) && raw.size >= 0) e.size = raw.size;
  return e;
}

function toTemplate(server: string, raw: unknown): TemplateEntry | string {
  if (!isObject(raw)) return "a resource template that is not an object";
  const uriTemplate = str(raw.uriTemplate, MAX_URI);
  const name = str(raw.name, MAX_NAME);
  if (uriTemplate === undefined || uriTemplate === "") return "a resource template without a usable uriTemplate";
  if (name === undefined) return `resource template ${uriTemplate.slice(0, 200)}: no usable name`;
  return optionals<TemplateEntry>({ server, uriTemplate, name }, raw);
}

/** The rule and detail of a failed request (a JSON-RPC error, a dropped connection, a timeout). */
function failure(e: unknown): { rule: string; detail: string } {
  if (e instanceof ConnectionError) return { rule: e.rule, detail: e.detail };
  if (e instanceof McpError)
    return {
      rule: e.code === -32601 ? "method-not-found" : "rpc-error",
      detail: `error ${e.code}: ${oneLine(e.message.replace(/^(?:MCP error -?\d+:\s*)+/, ""))}`,
    };
  return { rule: "request-failed", detail: oneLine(e) };
}

/** All pages of one list method, bounded in pages and entries; `key` names the result's array. */
async function listAll<T>(
  conn: Connection,
  method: string,
  key: string,
  convert: (raw: unknown) => T | string,
  limits: Limits,
  errors: ResourceError[],
): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | undefined;
  const seen = new Set<string>();
  for (let page = 0; ; page++) {
    if (page === MAX_LIST_PAGES) {
      errors.push(
        resourceError(
          conn.name,
          "",
          "too-many-pages",
          `${method}: more than ${MAX_LIST_PAGES} pages; the rest is left out`,
        ),
      );
      break;
    }
    const raw = await conn.request(method, cursor ? { cursor } : {});
    if (exceedsJsonDepth(raw, limits.maxJsonDepth))
      throw new ListError("too-deep", `${method}: ${tooDeepDetail("the result", limits.maxJsonDepth)}`);
    const items = raw[key];
    if (!Array.isArray(items)) throw new ListError("malformed-result", `${method}: no ${key} array in the result`);
    for (const item of items) {
      if (out.length === MAX_RESOURCES) {
        errors.push(
          resourceError(
            conn.name,
            "",
            "too-many-resources",
            `${method}: more than ${MAX_RESOURCES} entries; the rest is left out`,
          ),
        );
        return out;
      }
      const entry = convert(item);
      if (typeof entry === "string")
        errors.push(resourceError(conn.name, "", "malformed-resource", `${method}: ${entry}; left out`));
      else out.push(entry);
    }
    const next = raw.nextCursor;
    if (typeof next !== "string" || next === "") break;
    // A cursor seen before would loop forever.
    if (seen.has(next)) {
      errors.push(resourceError(conn.name, "", "cursor-loop", `${method}: nextCursor repeats; stopped`));
      break;
    }
    seen.add(next);
    cursor = next;
  }
  return out;
}

class ListError extends Error {
  constructor(
    readonly rule: string,
    readonly detail: string,
  ) {
    super(detail);
  }
}

/** One server's resources and templates; never throws (a failure is an error in the listing). */
export async function listResources(conn: Connection, limits: Limits): Promise<ResourceListing> {
  const listing: ResourceListing = { server: conn.name, offered: false, resources: [], templates: [], errors: [] };
  try {
    await conn.ensureConnected();
  } catch (e) {
    const f = failure(e);
    listing.errors.push(resourceError(conn.name, "", f.rule, f.detail));
    return listing;
  }
  if (!isObject(conn.serverCapabilities.resources)) return listing;
  listing.offered = true;
  const each = async (run: () => Promise<void>, method: string, optional: boolean) => {
    try {
      await run();
    } catch (e) {
      const f = e instanceof ListError ? { rule: e.rule, detail: e.detail } : failure(e);
      // Templates are optional: a server may list resources and not implement templates/list.
      if (optional && f.rule === "method-not-found") return;
      listing.errors.push(
        resourceError(conn.name, "", f.rule, e instanceof ListError ? f.detail : `${method}: ${f.detail}`),
      );
    }
  };
  await each(
    async () =>
      void (listing.resources = await listAll(
        conn,
        "resources/list",
        "resources",
        (r) => toResource(conn.name, r),
        limits,
        listing.errors,
      )),
    "resources/list",
    false,
  );
  await each(
    async () =>
      void (listing.templates = await listAll(
        conn,
        "resources/templates/list",
        "resourceTemplates",
        (r) => toTemplate(conn.name, r),
        limits,
        listing.errors,
      )),
    "resources/templates/list",
    true,
  );
  return listing;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The contents of a resources/read result, or why they are refused. */
export function contentsOf(raw: Json, limits: Limits): ResourceContents[] | { rule: string; detail: string } {
  if (exceedsJsonDepth(raw, limits.maxJsonDepth))
    return { rule: "too-deep", detail: tooDeepDetail("the result", limits.maxJsonDepth) };
  const list = raw.contents;
  if (!Array.isArray(list)) return { rule: "malformed-result", detail: "no contents array in the result" };
  if (list.length > MAX_CONTENTS)
    return { rule: "too-many-contents", detail: `${list.length} contents (at most ${MAX_CONTENTS})` };
  const out: ResourceContents[] = [];
  for (const [i, c] of list.entries()) {
    if (!isObject(c)) return { rule: "malformed-result", detail: `contents[${i}] is not an object` };
    const uri = str(c.uri, MAX_URI);
    if (uri === undefined) return { rule: "malformed-result", detail: `contents[${i}] has no usable uri` };
    const mimeType = str(c.mimeType, 255);
    const base: { uri: string; mimeType?: string; _meta?: Json } = mimeType === undefined ? { uri } : { uri, mimeType };
    if (isObject(c._meta)) base._meta = c._meta;
    if (typeof c.text === "string") out.push({ ...base, text: c.text });
    else if (typeof c.blob === "string") {
      if (c.blob.length % 4 !== 0 || !BASE64.test(c.blob))
        return { rule: "malformed-blob", detail: `contents[${i}].blob is not base64` };
      out.push({ ...base, blob: c.blob });
    } else return { rule: "malformed-result", detail: `contents[${i}] has neither text nor blob` };
  }
  return out;
}

/** Reads one resource from one server (modern eras: input_required rounds answered as a tool call's are). */
export async function readFrom(conn: Connection, uri: string, limits: Limits): Promise<ReadOutcome> {
  const fail = (rule: string, detail: string): ReadOutcome => ({
    ok: false,
    error: resourceError(conn.name, uri, rule, detail),
  });
  try {
    const got = await withInputRounds(
      (retry) => conn.request("resources/read", { uri, ...retry }),
      () => conn.era === "legacy",
      conn.inputAsker(),
    );
    if (!got.ok) return fail(got.rule, got.detail);
    const contents = contentsOf(got.raw, limits);
    if (!Array.isArray(contents)) return fail(contents.rule, contents.detail);
    return { ok: true, server: conn.name, uri, contents };
  } catch (e) {
    const f = failure(e);
    return fail(f.rule, f.detail);
  }
}

/** True when `uri` is one the RFC 6570 template could expand to (simple and reserved expansions). */
export function matchesTemplate(template: string, uri: string): boolean {
  let pattern = "";
  let last = 0;
  for (const m of template.matchAll(/\{([+#./;?&]?)[^}]*\}/g)) {
    pattern += template.slice(last, m.index).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    // `{x}` stops at a slash; `{+x}` / `{#x}` may span several segments.
    pattern += m[1] === "+" || m[1] === "#" ? ".*" : "[^/]*";
    last = (m.index ?? 0) + m[0].length;
  }
  pattern += template.slice(last).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`^${pattern}$`, "s").test(uri);
}

/**
 * Which server a URI is read from when none is named: the one server offering resources, else the
 * one that lists it (or a template matching it). Undefined with the reason when none or several do.
 */
export async function serverFor(conns: Connection[], uri: string, limits: Limits): Promise<Connection | ResourceError> {
  const listings = await Promise.all(conns.map((c) => listResources(c, limits)));
  const offering = listings.filter((l) => l.offered);
  if (offering.length === 0) return resourceError("", uri, "no-resources", "no connected server offers resources");
  const byName = (l: ResourceListing) => conns.find((c) => c.name === l.server) as Connection;
  if (offering.length === 1) return byName(offering[0]);
  const listed = offering.filter((l) => l.resources.some((r) => r.uri === uri));
  const templated = listed.length
    ? listed
    : offering.filter((l) => l.templates.some((t) => matchesTemplate(t.uriTemplate, uri)));
  if (templated.length === 1) return byName(templated[0]);
  const names = (templated.length ? templated : offering).map((l) => l.server).join(", ");
  return resourceError(
    "",
    uri,
    "ambiguous-resource",
    `${templated.length ? "several servers offer" : "no server lists"} ${uri} (${names}): name one with --server`,
  );
}
