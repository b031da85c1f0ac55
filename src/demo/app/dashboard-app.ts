// The demo dashboard as a real MCP App (browser; bundled by scripts/bundle.js into
// dist/view-assets/dashboard-app.js and inlined into ui://dashboard/index.html by the demo server).
// It speaks ui/initialize through the App SDK, draws the io.modelcontextprotocol/ui structured
// output (the regions as rows, the plans as facets) and calls refresh_dashboard back. A region's
// "Ask" tells the model what the user picked (ui/update-model-context) and asks, as the user, about
// it (ui/message): the host shows the message in the terminal and sends it only if the user says yes.
import { App } from "@modelcontextprotocol/ext-apps";

/** search_customers' ui/structured output. */
interface Rows {
  columns: string[];
  rows: Record<string, unknown>[];
  facets?: Record<string, string[]>;
  total?: number;
}

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
function snapshotOf(result: { structuredContent?: unknown }): (Snapshot & Partial<Rows>) | undefined {
  const s = result.structuredContent;
  return s && typeof s === "object" && !Array.isArray(s) ? (s as Snapshot) : undefined;
}

function cell(tag: "th" | "td", text: string): HTMLElement {
  const el = document.createElement(tag);
  el.textContent = text;
  return el;
}

/** search_customers: the rows under their columns, and the facets as chips. */
function drawRows(s: Rows): void {
  $("version").textContent = `${s.total ?? s.rows.length} customers match (${s.rows.length} shown)`;
  $("summary").hidden = true;
  $("search").hidden = false;
  const head = document.createElement("tr");
  head.append(...s.columns.map((c) => cell("th", c)));
  const body = s.rows.map((r) => {
    const tr = document.createElement("tr");
    tr.append(...s.columns.map((c) => cell("td", String(r[c] ?? ""))));
    return tr;
  });
  $("rows").replaceChildren(head, ...body);
  $("facets").replaceChildren(
    ...Object.entries(s.facets ?? {}).map(([name, values]) => {
      const li = document.createElement("li");
      li.textContent = `${name}: ${values.join(", ")}`;
      return li;
    }),
  );
}

function draw(s: Snapshot & Partial<Rows>): void {
  if (Array.isArray(s.rows) && Array.isArray(s.columns)) return drawRows(s as Rows);
  $("summary").hidden = false;
  $("search").hidden = true;
  $("version").textContent = `Dataset ${s.datasetVersion ?? "?"}, ${s.customers ?? "?"} customers`;
  $("refreshed").textContent = s.refreshedAt ? `refreshed ${s.refreshedAt}` : "";
  const rows = $("regions");
  rows.replaceChildren(
    ...Object.entries(s.byRegion ?? {}).map(([region, n]) => {
      const tr = document.createElement("tr");
      const ask = document.createElement("button");
      ask.type = "button";
      ask.textContent = "Ask";
      ask.title = `Ask the model about ${region}`;
      ask.dataset.region = region;
      ask.addEventListener("click", () => void askAbout(region, n));
      const td = document.createElement("td");
      td.append(ask);
      tr.append(cell("th", region), cell("td", String(n)), td);
      return tr;
    }),
  );
  $("plans").replaceChildren(
    ...Object.entries(s.byPlan ?? {}).map(([plan, n]) => {
      const li = document.createElement("li");
      li.textContent = `${plan}: ${n}`;
      return li;
    }),
  );
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

/** ui/update-model-context, then ui/message: what the user picked, then the question in their name. */
async function askAbout(region: string, n: number): Promise<void> {
  try {
    await app.updateModelContext({
      content: [{ type: "text", text: `In the dashboard the user picked region ${region} (${n} customers).` }],
    });
    const r = await app.sendMessage({
      role: "user",
      content: [{ type: "text", text: `Tell me about the ${n} customers in ${region}.` }],
    });
    $("calls").textContent = r.isError
      ? `message about ${region} declined`
      : `message about ${region} sent as your turn`;
  } catch (e) {
    $("calls").textContent = `message failed: ${(e as Error).message}`;
  }
}

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
