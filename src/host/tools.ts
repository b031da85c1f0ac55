// Era-aware tools/list: each entry parsed and checked on its own, so one bad declaration names
// itself (server + tool + reason) while the other tools stay usable.
import {
  checkDeclaration,
  compileSchema,
  LegacyToolSchema,
  ListToolsResultLooseSchema,
  paramHeaderPlan,
  VariantToolSchema,
  type Era,
  type JsonSchema,
  type ToolResultVariant,
} from "../protocol/index.js";
import type { Connection } from "./connection.js";
import type { ToolEntry } from "./types.js";

export interface ToolError {
  server: string;
  tool: string;
  message: string;
  /** The rule broken, when one is named (e.g. x-mcp-header-name). */
  rule?: string;
}

export interface ToolListing {
  tools: ToolEntry[];
  errors: ToolError[];
}

const MAX_PAGES = 100;

function toolName(raw: unknown): string {
  const n = (raw as { name?: unknown } | null)?.name;
  return typeof n === "string" ? n : "(unnamed)";
}

/** Converts one raw tools/list entry for an era; returns a ToolEntry or the reason it is rejected. */
export function toToolEntry(
  server: string,
  raw: unknown,
  era: Era,
  negotiated: ReadonlySet<string>,
): ToolEntry | ToolError {
  const name = toolName(raw);
  const reject = (message: string): ToolError => ({ server, tool: name, message: `server ${server}, tool ${name}: ${message}` });
  if (era === "2026-12-01") {
    if (typeof raw === "object" && raw !== null && !("outputVariants" in raw)) {
      return reject("no outputVariants under protocol 2026-12-01 (invalid; not read with legacy semantics)");
    }
    const parsed = VariantToolSchema.safeParse(raw);
    if (!parsed.success) return reject(`malformed tool: ${issueText(parsed.error)}`);
    const variants = parsed.data.outputVariants as ToolResultVariant[];
    const issues = checkDeclaration(variants, { negotiatedExtensions: negotiated });
    if (issues.length > 0) return reject(issues.map((i) => `${i.message} [${i.rule}]`).join("; "));
    return { ...base(server, parsed.data, era), variants };
  }
  const parsed = LegacyToolSchema.safeParse(raw);
  if (!parsed.success) return reject(`malformed tool: ${issueText(parsed.error)}`);
  const outputSchema = parsed.data.outputSchema as JsonSchema | undefined;
  if (outputSchema) {
    try {
      compileSchema(outputSchema);
    } catch (e) {
      return reject(`outputSchema does not compile: ${(e as Error).message}`);
    }
  }
  // Legacy inference: content maps to assistant/content; outputSchema stays the legacy contract.
  const entry: ToolEntry = { ...base(server, parsed.data, era), variants: [{ audience: "assistant", format: "content" }] };
  if (outputSchema) entry.legacyOutputSchema = outputSchema;
  return entry;
}

function base(server: string, t: Record<string, unknown>, era: Era): Omit<ToolEntry, "variants"> {
  const e: Omit<ToolEntry, "variants"> = {
    server,
    name: t.name as string,
    qualifiedName: t.name as string,
    inputSchema: t.inputSchema as ToolEntry["inputSchema"],
    era,
  };
  if (typeof t.title === "string") e.title = t.title;
  if (typeof t.description === "string") e.description = t.description;
  if (t.annotations) e.annotations = t.annotations as ToolEntry["annotations"];
  if (t._meta) e._meta = t._meta as Record<string, unknown>;
  return e;
}

function issueText(error: { issues: { path: PropertyKey[]; message: string }[] }): string {
  const i = error.issues[0];
  const path = i.path.map(String).join(".");
  return path ? `${path}: ${i.message}` : i.message;
}

/** Lists a server's tools with the given client extensions advertised. */
export async function listTools(conn: Connection, extensions: Record<string, Record<string, unknown>>): Promise<ToolListing> {
  const tools: ToolEntry[] = [];
  const errors: ToolError[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const raw = await conn.request("tools/list", cursor ? { cursor } : {}, { extensions });
    const parsed = ListToolsResultLooseSchema.safeParse(raw);
    if (!parsed.success) throw new Error(`server ${conn.name}: malformed tools/list result`);
    const negotiated = conn.negotiated(extensions);
    // Over modern Streamable HTTP a tool's x-mcp-header annotations must be valid (the host mirrors
    // them into Mcp-Param headers); stdio may ignore them.
    const mirrors = conn.config.kind === "http" && conn.era !== undefined && conn.era !== "legacy";
    for (const t of parsed.data.tools) {
      const entry = toToolEntry(conn.name, t, conn.era ?? "legacy", negotiated);
      const headers = mirrors && !("message" in entry) ? paramHeaderPlan(entry.inputSchema) : undefined;
      if ("message" in entry) errors.push(entry);
      else if (headers && !headers.ok) {
        errors.push({ server: conn.name, tool: entry.name, rule: headers.rule, message: `server ${conn.name}, tool ${entry.name}: ${headers.detail} [${headers.rule}]` });
      }
      else if (tools.some((x) => x.name === entry.name)) {
        errors.push({ server: conn.name, tool: entry.name, message: `server ${conn.name}, tool ${entry.name}: listed twice` });
      } else tools.push(entry);
    }
    cursor = parsed.data.nextCursor;
    if (!cursor) break;
  }
  return { tools, errors };
}

/** Keeps names unique across servers: a name offered by several servers becomes `server__name`. */
export function qualifyNames(lists: ToolEntry[][]): ToolEntry[] {
  const count = new Map<string, number>();
  for (const list of lists) for (const t of list) count.set(t.name, (count.get(t.name) ?? 0) + 1);
  return lists.flat().map((t) => ({ ...t, qualifiedName: (count.get(t.name) ?? 0) > 1 ? `${t.server}__${t.name}` : t.name }));
}

export { isAppOnly } from "./app-only.js";
