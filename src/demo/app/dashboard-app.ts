// The demo dashboard as a real MCP App (browser; bundled by scripts/bundle.js into
// dist/view-assets/dashboard-app.js and inlined into ui://dashboard/index.html by the demo server).
// It speaks ui/initialize through the App SDK, draws the io.modelcontextprotocol/ui structured
// output (the regions as rows, the plans as facets) and calls refresh_dashboard back.
import { App } from "@modelcontextprotocol/ext-apps";

interface Snapshot {
  datasetVersion?: string;
  refreshedAt?: string;
  customers?: number;
  byRegion?: Record<string, number>;
  byPlan?: Record<string, number>;
}

const $ = (id: string) => document.getElementById(id) as HTMLElement;
const app = new App({ name: "mcp-prism demo dashboard", version: "1.0.0" }, {}, { autoResize: true });

/** The View's data: the reduced result's structuredContent, or (projection "output") the output object's. */
function snapshotOf(result: { structuredContent?: unknown }): Snapshot | undefined {
  const s = result.structuredContent;
  return s && typeof s === "object" && !Array.isArray(s) ? (s as Snapshot) : undefined;
}

function cell(tag: "th" | "td", text: string): HTMLElement {
  const el = document.createElement(tag);
  el.textContent = text;
  return el;
}

function draw(s: Snapshot): void {
  $("version").textContent = `Dataset ${s.datasetVersion ?? "?"}, ${s.customers ?? "?"} customers`;
  $("refreshed").textContent = s.refreshedAt ? `refreshed ${s.refreshedAt}` : "";
  const rows = $("regions");
  rows.replaceChildren(...Object.entries(s.byRegion ?? {}).map(([region, n]) => {
    const tr = document.createElement("tr");
    tr.append(cell("th", region), cell("td", String(n)));
    return tr;
  }));
  $("plans").replaceChildren(...Object.entries(s.byPlan ?? {}).map(([plan, n]) => {
    const li = document.createElement("li");
    li.textContent = `${plan}: ${n}`;
    return li;
  }));
}

app.ontoolresult = (result) => {
  const s = snapshotOf(result as { structuredContent?: unknown });
  if (s) draw(s);
  else $("version").textContent = "No dashboard data in the result";
};
app.ontoolcancelled = (p) => {
  $("version").textContent = `Cancelled: ${p.reason ?? ""}`;
};
app.onhostcontextchanged = (ctx) => {
  if (ctx.theme) document.documentElement.dataset.theme = ctx.theme;
};

$("refresh").addEventListener("click", async () => {
  const button = $("refresh") as HTMLButtonElement;
  button.disabled = true;
  try {
    const result = await app.callServerTool({ name: "refresh_dashboard", arguments: {} });
    const s = snapshotOf(result);
    if (s) draw(s);
    $("calls").textContent = `refreshed from the View (${result.isError ? "error" : "ok"})`;
  } catch (e) {
    $("calls").textContent = `refresh failed: ${(e as Error).message}`;
  } finally {
    button.disabled = false;
  }
});

await app.connect();
const ctx = app.getHostContext();
if (ctx?.theme) document.documentElement.dataset.theme = ctx.theme;
