// refresh_dashboard: an App-only tool (MCP Apps `_meta.ui.visibility: ["app"]`) that still
// declares the core assistant/content fallback; its View data goes to io.modelcontextprotocol/ui.
import { existsSync, readFileSync } from "node:fs";
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
      project: (s) => [
        { type: "text", text: `Dashboard refreshed: dataset ${s.datasetVersion}, ${s.customers} customers.` },
      ],
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

/** The App's script, bundled at build time (scripts/bundle.js): from src|dist/demo/tools, or from dist/bundle. */
const APP_SCRIPTS = ["../../../dist/view-assets/dashboard-app.js", "../view-assets/dashboard-app.js"].map(
  (p) => new URL(p, import.meta.url),
);

function html(): string {
  let script: string;
  try {
    // A "</script" inside the bundle would end the inline script early.
    const found = APP_SCRIPTS.find((u) => existsSync(u));
    if (!found) throw new Error("not built");
    script = readFileSync(found, "utf8").replaceAll("</script", "<\\/script");
  } catch {
    script = `document.getElementById("version").textContent = "The dashboard App is not built (npm run build)";`;
  }
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Customer dashboard</title>
<style>
body{font:14px system-ui,sans-serif;margin:1rem;color:#1b1f24;background:#fff}
[data-theme=dark] body{color:#e6e6e6;background:#15171a}
td,th{padding:.2rem .6rem;text-align:left}ul{display:flex;gap:.5rem;list-style:none;padding:0;flex-wrap:wrap}
li{border:1px solid #8888;border-radius:1rem;padding:.1rem .6rem}button{font:inherit}
</style></head>
<body>
<h1>Customer dashboard</h1>
<p id="version">Waiting for data…</p>
<p id="refreshed"></p>
<section id="summary" hidden>
<h2>Customers by region</h2>
<table id="regions"></table>
<h2>Plans</h2>
<ul id="plans"></ul>
</section>
<section id="search" hidden>
<h2>Customers</h2>
<table id="rows"></table>
<h2>Facets</h2>
<ul id="facets"></ul>
</section>
<button id="refresh" type="button">Refresh</button> <span id="calls"></span>
<script type="module">${script}</script>
</body>
</html>
`;
}

export const dashboardResource = defineResource({
  uri: DASHBOARD_URI,
  name: "dashboard",
  title: "Customer dashboard",
  description: "The App View of refresh_dashboard",
  mimeType: APP_MIME,
  read: () => html(),
});
