// `tools` output: each server's era, each tool's declared variants and schemas, rejected tools.
import { selectorKey, type JsonSchema } from "../../protocol/index.js";
import type { ServerStatus } from "../../host/host.js";
import { isAppOnly } from "../../host/tools.js";
import type { ToolEntry } from "../../host/types.js";
import { sanitizeInline, sanitizeName } from "../../ui/sanitize.js";

export interface ToolsDocument {
  servers: {
    name: string;
    state: string;
    era: string | null;
    protocolVersion: string | null;
    error?: string;
    tools: { name: string; qualifiedName: string; title?: string; appOnly: boolean; variants: ToolEntry["variants"]; legacyOutputSchema?: JsonSchema }[];
    rejected: { tool: string; message: string }[];
  }[];
}

export function toolsDocument(servers: ServerStatus[], tools: ToolEntry[]): ToolsDocument {
  return {
    servers: servers.map((s) => ({
      name: s.name,
      state: s.state,
      era: s.era ?? null,
      protocolVersion: s.protocolVersion ?? null,
      ...(s.error ? { error: s.error } : {}),
      tools: tools
        .filter((t) => t.server === s.name)
        .map((t) => ({
          name: t.name,
          qualifiedName: t.qualifiedName,
          ...(t.title ? { title: t.title } : {}),
          appOnly: isAppOnly(t),
          variants: t.variants,
          ...(t.legacyOutputSchema ? { legacyOutputSchema: t.legacyOutputSchema } : {}),
        })),
      rejected: s.toolErrors.map((e) => ({ tool: e.tool, ...(e.rule ? { rule: e.rule } : {}), message: e.message })),
    })),
  };
}

function schemaLabel(schema: JsonSchema | undefined): string {
  if (!schema) return "no schema";
  const title = typeof schema.title === "string" ? ` "${sanitizeInline(schema.title)}"` : "";
  const type = typeof schema.type === "string" ? schema.type : "schema";
  const props = typeof schema.properties === "object" && schema.properties ? Object.keys(schema.properties).map((k) => sanitizeName(k, 24)) : [];
  return `${type}${title}${props.length ? ` {${props.slice(0, 6).join(", ")}${props.length > 6 ? ", …" : ""}}` : ""}`;
}

export function renderTools(doc: ToolsDocument): string {
  const out: string[] = [];
  for (const s of doc.servers) {
    const era = s.protocolVersion ? `protocol ${s.protocolVersion}${s.era === "legacy" ? " (initialize era)" : ""}` : s.state;
    out.push(`${sanitizeName(s.name)} · ${era} · ${s.tools.length} tool${s.tools.length === 1 ? "" : "s"}`);
    if (s.error) out.push(`  ✗ ${sanitizeInline(s.error)}`);
    for (const t of s.tools) {
      const name = t.qualifiedName === t.name ? sanitizeName(t.name) : `${sanitizeName(t.qualifiedName)} (${sanitizeName(t.name)})`;
      out.push(`  ${name}${t.appOnly ? "  [App-only]" : ""}`);
      for (const v of t.variants) {
        const schema = v.format === "structured" ? `  ${schemaLabel(v.schema)}` : "";
        out.push(`    ${sanitizeInline(selectorKey(v))}${schema}`);
      }
      if (s.era !== "2026-12-01") out.push(`    (inferred from the legacy shape)${t.legacyOutputSchema ? `  outputSchema: ${schemaLabel(t.legacyOutputSchema)}` : ""}`);
    }
    for (const r of s.rejected) out.push(`  ✗ ${sanitizeName(r.tool)} rejected: ${sanitizeInline(r.message)}`);
  }
  return out.join("\n") + "\n";
}
