// refresh_dashboard: an App-only tool (MCP Apps `_meta.ui.visibility: ["app"]`) that still
// declares the core assistant/content fallback; its View data goes to io.modelcontextprotocol/ui.
import { UI_EXTENSION } from "../../protocol/index.js";
import { defineResource, defineTool } from "../../server/index.js";
import { loadDataset } from "../customers.js";

export const DASHBOARD_URI = "ui://dashboard/index.html";
export const APP_MIME = "text/html;profile=mcp-app";

interface Snapshot {
  datasetVersion: string;
  refreshedAt: string;
  customers: number;
  byRegion: Record<string, number>;
  byPlan: Record<string, number>;
}

export const dashboardSchema = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties: {
    datasetVersion: { type: "string" },
    refreshedAt: { type: "string" },
    customers: { type: "integer" },
    byRegion: { type: "object", additionalProperties: { type: "integer" } },
    byPlan: { type: "object", additionalProperties: { type: "integer" } },
  },
  required: ["datasetVersion"],
};

function count(values: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return out;
}

export const refreshDashboardTool = defineTool<Record<string, never>, Snapshot>({
  name: "refresh_dashboard",
  title: "Refresh dashboard",
  description: "Refreshes the customer dashboard App View (App-only).",
  inputSchema: { type: "object", additionalProperties: false },
  annotations: { readOnlyHint: true },
  _meta: { ui: { resourceUri: DASHBOARD_URI, visibility: ["app"] } },
  outputVariants: [
    {
      audience: "assistant",
      format: "content",
      project: (s) => [{ type: "text", text: `Dashboard refreshed: dataset ${s.datasetVersion}, ${s.customers} customers.` }],
    },
    { audience: UI_EXTENSION, format: "structured", schema: dashboardSchema, project: (s) => ({ ...s }) },
  ],
  run() {
    const d = loadDataset();
    return {
      datasetVersion: d.datasetVersion,
      refreshedAt: new Date().toISOString(),
      customers: d.customers.length,
      byRegion: count(d.customers.map((c) => c.region)),
      byPlan: count(d.customers.map((c) => c.plan)),
    };
  },
});

const HTML = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Customer dashboard</title>
<style>body{font:14px system-ui;margin:1rem}td,th{padding:.2rem .6rem;text-align:left}</style></head>
<body>
<h1>Customer dashboard</h1>
<p id="version">Waiting for data…</p>
<table id="regions"></table>
<script>
// Receives the io.modelcontextprotocol/ui output of refresh_dashboard from the host.
window.addEventListener("message", (e) => {
  const data = e.data && e.data.params && (e.data.params.structuredContent || e.data.params);
  if (!data || !data.datasetVersion) return;
  document.getElementById("version").textContent = "Dataset " + data.datasetVersion + ", " + (data.customers ?? "?") + " customers";
  const rows = Object.entries(data.byRegion || {}).map(([r, n]) => "<tr><th>" + r + "</th><td>" + n + "</td></tr>");
  document.getElementById("regions").innerHTML = rows.join("");
});
</script>
</body>
</html>
`;

export const dashboardResource = defineResource({
  uri: DASHBOARD_URI,
  name: "dashboard",
  title: "Customer dashboard",
  description: "The App View of refresh_dashboard",
  mimeType: APP_MIME,
  read: () => HTML,
});
