// Era-aware tools/list: each entry parsed and checked on its own, so one bad declaration names
// itself (server + tool + reason) while the other tools stay usable.
import type { Rule } from "../../protocol/rules.js";
import {
  checkDeclaration,
  DEFAULT_MAX_JSON_DEPTH,
  exceedsJsonDepth,
  tooDeepDetail,
  LegacyToolSchema,
  ListToolsResultLooseSchema,
  paramHeaderPlan,
  VariantToolSchema,
  schemaCompileIssue,
  variantSchemaIssue,
  type Era,
  type JsonSchema,
  type ToolResultVariant,
} from "../../protocol/index.js";
import type { Connection } from "../connection/connection.js";
import { serverRunsTasks } from "../call/tasks.js";
import type { DeclinedVariant, ToolEntry } from "../types.js";
import { hostError, type HostError } from "../host-error.js";
import { firstIssueText } from "../../protocol/issue-text.js";
import { isObject } from "../../protocol/is-object.js";

/**
 * A rejected tool: which rule its declaration broke (a declaration rule, or `malformed-tool`,
 * `missing-output-variants`, `duplicate-tool`), and its line `server S, tool T: detail`.
 */
export type ToolError = HostError & { message: string };

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
  maxJsonDepth = DEFAULT_MAX_JSON_DEPTH,
  /** The server runs tools/call as a task (tasks.ts): a tool that requires one is usable. */
  runsTasks = false,
): ToolEntry | ToolError {
  const name = toolName(raw);
  const reject = (rule: Rule, detail: string): ToolError => hostError(server, name, rule, detail);
  // Before zod and Ajv walk it, and before its inputSchema can reach a model request (whose
  // JSON.stringify would overflow on every turn of the session).
  if (exceedsJsonDepth(raw, maxJsonDepth))
    return reject("too-deep", `${tooDeepDetail("the declaration", maxJsonDepth)}; not offered`);
  let entry: ToolEntry;
  if (era === "2026-12-01") {
    if (typeof raw === "object" && raw !== null && !("outputVariants" in raw)) {
      return reject(
        "missing-output-variants",
        "no outputVariants under protocol 2026-12-01 (invalid; not read with legacy semantics)",
      );
    }
    const parsed = VariantToolSchema.safeParse(raw);
    if (!parsed.success) return reject("malformed-tool", `malformed tool: ${firstIssueText(parsed.error)}`);
    const declared = parsed.data.outputVariants as ToolResultVariant[];
    // A schema that does not compile is not a broken declaration for the client: it declines
    // that variant (never requests it) and the tool stays usable with the others. Compiling is
    // the costly part of a listing (milliseconds per schema: 5,000 tools took ≈20 s), so it is
    // left to settleSchemas, run when the tool is first called or shown with its findings.
    const issues = checkDeclaration(declared, { negotiatedExtensions: negotiated, compile: false });
    if (issues.length > 0) return reject(issues[0].rule, issues.map((i) => `${i.message} [${i.rule}]`).join("; "));
    entry = { ...base(server, parsed.data, era), variants: declared };
  } else {
    const parsed = LegacyToolSchema.safeParse(raw);
    if (!parsed.success) return reject("malformed-tool", `malformed tool: ${firstIssueText(parsed.error)}`);
    // Legacy inference: content maps to assistant/content; outputSchema stays the legacy contract.
    entry = { ...base(server, parsed.data, era), variants: [{ audience: "assistant", format: "content" }] };
    const outputSchema = parsed.data.outputSchema as JsonSchema | undefined;
    if (outputSchema) entry.legacyOutputSchema = outputSchema;
  }
  const task = runsTasks ? undefined : taskRequirement(raw);
  if (task) entry.unavailable = { rule: "task-required", detail: task };
  return entry;
}

interface Settled {
  variants: ToolResultVariant[];
  declined?: DeclinedVariant[];
  warnings?: ToolEntry["warnings"];
}
// Per listed variants array (or legacy outputSchema): the entry copies qualifyNames makes share it.
const settledBy = new WeakMap<object, Settled>();

/**
 * The entry with its schemas compiled: a structured variant whose schema does not compile is
 * declined (never requested), an outputSchema that does not compile is a warning (structured-
 * Content passes unvalidated). Compiled once per listing; later calls cost a WeakMap lookup.
 */
export function settleSchemas(entry: ToolEntry): ToolEntry {
  let hit = settledEntries.get(entry);
  if (hit === undefined) settledEntries.set(entry, (hit = settle(entry)));
  return hit;
}
// The same settled object per entry: its schemas compile once.
const settledEntries = new WeakMap<ToolEntry, ToolEntry>();

function settle(entry: ToolEntry): ToolEntry {
  const key: object | undefined = entry.era === "2026-12-01" ? entry.variants : entry.legacyOutputSchema;
  if (key === undefined || entry.declined !== undefined || entry.warnings !== undefined) return entry;
  let s = settledBy.get(key);
  if (s === undefined) {
    s = { variants: entry.variants };
    if (entry.era === "2026-12-01") {
      const variants: ToolResultVariant[] = [];
      const declined: DeclinedVariant[] = [];
      for (const v of entry.variants) {
        const why = variantSchemaIssue(v);
        if (why === undefined) variants.push(v);
        else
          declined.push({
            ...v,
            rule: "uncompilable-variant-schema",
            detail: `schema does not compile: ${why}; not requested`,
          });
      }
      if (declined.length > 0) s = { variants, declined };
    } else {
      const why = schemaCompileIssue(entry.legacyOutputSchema as JsonSchema);
      if (why !== undefined) {
        const detail = `outputSchema does not compile: ${why}; structuredContent is passed on unvalidated`;
        s.warnings = [{ server: entry.server, tool: entry.name, rule: "uncompilable-output-schema", detail }];
      }
    }
    settledBy.set(key, s);
  }
  if (s.declined === undefined && s.warnings === undefined) return entry;
  return { ...entry, ...s };
}

/** settleSchemas for many entries, yielding to the event loop between slices (keys and spinner stay live). */
export async function settleAllSchemas(entries: readonly ToolEntry[]): Promise<ToolEntry[]> {
  const out: ToolEntry[] = [];
  let slice = performance.now();
  for (const e of entries) {
    out.push(settleSchemas(e));
    if (performance.now() - slice > 8) {
      await new Promise<void>((r) => setImmediate(r));
      slice = performance.now();
    }
  }
  return out;
}

/** Why a tool cannot be called on a server that does not run tasks, if it cannot. */
function taskRequirement(raw: unknown): string | undefined {
  const execution = (raw as { execution?: unknown }).execution;
  const support =
    typeof execution === "object" && execution !== null
      ? (execution as { taskSupport?: unknown }).taskSupport
      : undefined;
  return support === "required"
    ? 'execution.taskSupport is "required": it runs only as a task, and the server does not offer tasks for tools/call'
    : undefined;
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
  if (isObject(t.execution)) e.execution = t.execution;
  return e;
}

/** Lists a server's tools with the given client extensions advertised. */
export async function listTools(
  conn: Connection,
  extensions: Record<string, Record<string, unknown>>,
  maxJsonDepth = DEFAULT_MAX_JSON_DEPTH,
): Promise<ToolListing> {
  const tools: ToolEntry[] = [];
  const names = new Set<string>();
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
    const runsTasks = serverRunsTasks(conn);
    let slice = performance.now();
    for (const t of parsed.data.tools) {
      // A listing of thousands of tools is read in slices: keys and the spinner stay live.
      if (performance.now() - slice > 8) {
        await new Promise<void>((r) => setImmediate(r));
        slice = performance.now();
      }
      const entry = toToolEntry(conn.name, t, conn.era ?? "legacy", negotiated, maxJsonDepth, runsTasks);
      const headers = mirrors && !("message" in entry) ? paramHeaderPlan(entry.inputSchema) : undefined;
      if ("message" in entry) errors.push(entry);
      else if (headers && !headers.ok) {
        errors.push(hostError(conn.name, entry.name, headers.rule, headers.detail));
      } else if (names.has(entry.name)) {
        errors.push(hostError(conn.name, entry.name, "duplicate-tool", "listed twice"));
      } else {
        names.add(entry.name);
        tools.push(entry);
      }
    }
    cursor = parsed.data.nextCursor;
    if (!cursor) break;
  }
  return { tools, errors };
}

/**
 * Names unique across servers by construction, so no server can take a name that means another
 * server's tool. A tool keeps its own name only when no other server offers it and it does not
 * look qualified (`S__…` for any configured server S: that prefix is the host's to give); every
 * other tool becomes `server__name`. Server names may themselves contain `__`, so two qualified
 * names can still meet (`a` + `b__x`, `a__b` + `x`): every holder of a name that is still shared
 * gets a suffix from a hash of its own (server, name), never first-come-first-served, then a
 * counter as the last resort. The result is checked to be unique.
 */
export function qualifyNames(lists: ToolEntry[][], servers: readonly string[] = []): ToolEntry[] {
  const all = lists.flat();
  const count = new Map<string, number>();
  for (const t of all) count.set(t.name, (count.get(t.name) ?? 0) + 1);
  const prefixes = [...new Set([...servers, ...all.map((t) => t.server)])].map((s) => `${s}__`);
  const looksQualified = (name: string) => prefixes.some((p) => name.startsWith(p));
  const named = all.map((t) => ({
    t,
    name: count.get(t.name) === 1 && !looksQualified(t.name) ? t.name : `${t.server}__${t.name}`,
  }));
  const holders = new Map<string, number>();
  for (const n of named) holders.set(n.name, (holders.get(n.name) ?? 0) + 1);
  const used = new Set<string>();
  for (const n of named) if (holders.get(n.name) === 1) used.add(n.name);
  for (const n of named) {
    if (holders.get(n.name) === 1) continue;
    let name = `${n.name}~${fnv1a(`${n.t.server}\0${n.t.name}`)}`;
    for (let i = 2; used.has(name); i++) name = `${n.name}~${fnv1a(`${n.t.server}\0${n.t.name}`)}~${i}`;
    used.add(name);
    n.name = name;
  }
  if (used.size !== named.length) throw new Error("qualifyNames: qualified tool names are not unique");
  return named.map(({ t, name }) => (t.qualifiedName === name ? t : { ...t, qualifiedName: name }));
}

/** 32-bit FNV-1a as 8 hex digits: a stable, order-independent disambiguator (not a security hash). */
function fnv1a(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, "0");
}

export { isAppOnly } from "./app-only.js";
