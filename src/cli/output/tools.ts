// `tools` output: each server's era, each tool's declared variants and schemas, and everything
// the host did not take as declared: rejected tools, declined variants, warnings, unavailable
// tools, each with its rule. The --json document keeps what the server sent (inputSchema,
// annotations, _meta, execution) as it sent it, so a script can build arguments from it; only
// the human view is sanitized.
import { selectorKey, type JsonSchema } from "../../protocol/index.js";
import type { ServerStatus } from "../../host/host.js";
import { isAppOnly } from "../../host/catalog/tools.js";
import type { DeclinedVariant, HostWarning, ToolEntry } from "../../host/types.js";
import { sanitizeInline, sanitizeName, truncateChars } from "../../protocol/sanitize.js";
import { isObject } from "../../protocol/is-object.js";

export interface ToolDocument {
  name: string;
  qualifiedName: string;
  title?: string;
  description?: string;
  appOnly: boolean;
  /** false when the host will not call it (`unavailable` says why). */
  usable: boolean;
  inputSchema: ToolEntry["inputSchema"];
  annotations?: ToolEntry["annotations"];
  _meta?: Record<string, unknown>;
  execution?: Record<string, unknown>;
  /** The variants the host may request. */
  variants: ToolEntry["variants"];
  declined?: DeclinedVariant[];
  legacyOutputSchema?: JsonSchema;
  warnings?: HostWarning[];
  unavailable?: { rule: string; detail: string };
}

export interface ToolsDocument {
  servers: {
    name: string;
    state: string;
    era: string | null;
    protocolVersion: string | null;
    error?: string;
    tools: ToolDocument[];
    rejected: { tool: string; rule: string; detail: string; message: string }[];
  }[];
}

function toolDocument(t: ToolEntry): ToolDocument {
  const d: ToolDocument = {
    name: t.name,
    qualifiedName: t.qualifiedName,
    appOnly: isAppOnly(t),
    usable: t.unavailable === undefined,
    inputSchema: t.inputSchema,
    variants: t.variants,
  };
  if (t.title) d.title = t.title;
  if (t.description) d.description = t.description;
  if (t.annotations) d.annotations = t.annotations;
  if (t._meta) d._meta = t._meta;
  if (t.execution) d.execution = t.execution;
  if (t.declined) d.declined = t.declined;
  if (t.legacyOutputSchema) d.legacyOutputSchema = t.legacyOutputSchema;
  if (t.warnings) d.warnings = t.warnings;
  if (t.unavailable) d.unavailable = t.unavailable;
  return d;
}

export function toolsDocument(servers: ServerStatus[], tools: ToolEntry[]): ToolsDocument {
  return {
    servers: servers.map((s) => ({
      name: s.name,
      state: s.state,
      era: s.era ?? null,
      protocolVersion: s.protocolVersion ?? null,
      ...(s.error ? { error: s.error } : {}),
      tools: tools.filter((t) => t.server === s.name).map(toolDocument),
      rejected: s.toolErrors.map((e) => ({ tool: e.tool, rule: e.rule, detail: e.detail, message: e.message })),
    })),
  };
}

/** Servers that listed tools of which the host can call none (rejected, or all unavailable). */
export function serversWithoutUsableTools(doc: ToolsDocument): string[] {
  return doc.servers
    .filter((s) => s.tools.length + s.rejected.length > 0 && !s.tools.some((t) => t.usable))
    .map((s) => s.name);
}

function schemaLabel(schema: JsonSchema | undefined): string {
  if (!schema) return "no schema";
  const title = typeof schema.title === "string" ? ` "${sanitizeInline(schema.title)}"` : "";
  const type = typeof schema.type === "string" ? schema.type : "schema";
  const props =
    typeof schema.properties === "object" && schema.properties
      ? Object.keys(schema.properties).map((k) => sanitizeName(k, 24))
      : [];
  return `${type}${title}${props.length ? ` {${props.slice(0, 6).join(", ")}${props.length > 6 ? ", …" : ""}}` : ""}`;
}

/** The arguments a tool takes, `name` required and `name?` optional (at most 8 named). */
function argsLabel(schema: unknown): string {
  const o = typeof schema === "object" && schema !== null ? (schema as Record<string, unknown>) : {};
  const props = typeof o.properties === "object" && o.properties !== null ? Object.keys(o.properties) : [];
  if (!props.length) return "none";
  const required = new Set(Array.isArray(o.required) ? o.required.filter((r) => typeof r === "string") : []);
  const names = props.slice(0, 8).map((k) => `${sanitizeName(k, 24)}${required.has(k) ? "" : "?"}`);
  return `${names.join(", ")}${props.length > 8 ? `, … (${props.length} in all)` : ""}`;
}

export function renderTools(doc: ToolsDocument): string {
  const out: string[] = [];
  for (const s of doc.servers) {
    const era = s.protocolVersion
      ? `protocol ${s.protocolVersion}${s.era === "legacy" ? " (initialize era)" : ""}`
      : s.state;
    const usable = s.tools.filter((t) => t.usable).length;
    const notUsable = s.tools.length - usable;
    const counts = `${usable} tool${usable === 1 ? "" : "s"}${notUsable ? `, ${notUsable} unavailable` : ""}${s.rejected.length ? `, ${s.rejected.length} rejected` : ""}`;
    out.push(`${sanitizeName(s.name)} · ${era} · ${counts}`);
    if (s.error) out.push(`  ✗ ${sanitizeInline(s.error)}`);
    for (const t of s.tools) {
      const name =
        t.qualifiedName === t.name
          ? sanitizeName(t.name)
          : `${sanitizeName(t.qualifiedName)} (${sanitizeName(t.name)})`;
      out.push(`  ${name}${t.appOnly ? "  [App-only]" : ""}`);
      const about = t.description?.split("\n").find((l) => l.trim());
      if (about) out.push(`    ${truncateChars(sanitizeInline(about.trim()), 110)}`);
      out.push(`    args: ${argsLabel(t.inputSchema)}`);
      if (t.unavailable)
        out.push(`    ✗ unavailable [${sanitizeName(t.unavailable.rule)}]: ${sanitizeInline(t.unavailable.detail)}`);
      for (const v of t.variants) {
        // errorSchema: the opt-in prototype of SEP-3279 open question 2 (read, shown, not enforced).
        const errorSchema = (v as { errorSchema?: unknown }).errorSchema;
        const schema =
          v.format === "structured"
            ? `  ${schemaLabel(v.schema)}${isObject(errorSchema) ? `  error: ${schemaLabel(errorSchema as JsonSchema)}` : ""}`
            : "";
        out.push(`    ${sanitizeInline(selectorKey(v))}${schema}`);
      }
      for (const d of t.declined ?? [])
        out.push(
          `    ✗ ${sanitizeInline(selectorKey(d))} declined [${sanitizeName(d.rule)}]: ${sanitizeInline(d.detail)}`,
        );
      if (s.era !== "2026-12-01")
        out.push(
          `    (inferred from the legacy shape)${t.legacyOutputSchema ? `  outputSchema: ${schemaLabel(t.legacyOutputSchema)}` : ""}`,
        );
      for (const w of t.warnings ?? []) out.push(`    ⚠ [${sanitizeName(w.rule)}] ${sanitizeInline(w.detail)}`);
    }
    for (const r of s.rejected)
      out.push(`  ✗ ${sanitizeName(r.tool)} rejected [${sanitizeName(r.rule)}]: ${sanitizeInline(r.message)}`);
  }
  return out.join("\n") + "\n";
}
