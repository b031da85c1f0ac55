// The View host page (browser; bundled by scripts/bundle.js into dist/view-assets/host-page.js).
// One section per View of the session, in order. Each View is the real MCP Apps AppBridge over a
// PostMessageTransport to a sandbox proxy iframe on the other loopback origin, which holds the App's
// HTML in its own sandboxed inner iframe. The page gets its Views from the local View host (SSE)
// and hands every request a View makes to it (POST rpc): the host decides, the page only relays.
import { AppBridge, PostMessageTransport, type McpUiHostContext } from "@modelcontextprotocol/ext-apps/app-bridge";

interface ViewDoc {
  id: string;
  server: string;
  tool: string;
  html: string;
  proxyUrl: string;
  allow: string;
  declared: { csp?: Record<string, string[]>; permissions?: Record<string, Record<string, never>> };
  input: Record<string, unknown>;
}
type Event =
  | { type: "view"; view: ViewDoc }
  | { type: "result"; id: string; payload: Record<string, unknown> }
  | { type: "cancelled"; id: string; reason: string }
  | { type: "teardown"; id: string };

interface Live {
  doc: ViewDoc;
  bridge: AppBridge;
  frame: HTMLIFrameElement;
  section: HTMLElement;
  initialized: boolean;
  result?: Record<string, unknown>;
  cancelled?: string;
}

const base = location.pathname.replace(/[^/]*$/, "");
const views = new Map<string, Live>();
const list = document.getElementById("views") as HTMLElement;
const status = document.getElementById("status") as HTMLElement;
const dark = window.matchMedia("(prefers-color-scheme: dark)");

async function rpc(view: string, method: string, params: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${base}rpc`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ view, method, params: params ?? {} }),
  });
  const body = (await res.json()) as { result?: Record<string, unknown>; error?: { code: number; message: string } };
  if (body.error) throw Object.assign(new Error(body.error.message), { code: body.error.code });
  return body.result ?? {};
}

function context(l: { doc: ViewDoc; frame?: HTMLIFrameElement }): McpUiHostContext {
  return {
    theme: dark.matches ? "dark" : "light",
    displayMode: "inline",
    availableDisplayModes: ["inline"],
    platform: "desktop",
    locale: navigator.language,
    containerDimensions: { width: l.frame?.clientWidth || list.clientWidth || 800, maxHeight: 2000 },
    toolInfo: { tool: { name: l.doc.tool, inputSchema: { type: "object" } } },
  };
}

function note(id: string, method: string, params: unknown): void {
  rpc(id, method, params).catch(() => {});
}

async function addView(doc: ViewDoc): Promise<void> {
  const section = document.createElement("section");
  section.dataset.view = doc.id;
  const h = document.createElement("h2");
  h.textContent = `${doc.server} · ${doc.tool}`;
  const frame = document.createElement("iframe");
  frame.setAttribute("sandbox", "allow-scripts allow-same-origin allow-forms");
  if (doc.allow) frame.setAttribute("allow", doc.allow);
  frame.title = `${doc.tool} View`;
  section.append(h, frame);
  list.append(section);
  const caps = {
    openLinks: {},
    serverTools: {},
    serverResources: {},
    logging: {},
    updateModelContext: { text: {}, structuredContent: {} },
    message: { text: {} },
    sandbox: { csp: doc.declared.csp, permissions: doc.declared.permissions },
  };
  const bridge = new AppBridge(null, { name: "mcp-prism", version: "0.1.0" }, caps, { hostContext: context({ doc }) });
  const live: Live = { doc, bridge, frame, section, initialized: false };
  views.set(doc.id, live);
  const ask = (method: string) => (params: unknown) => rpc(doc.id, method, params) as Promise<never>;
  bridge.oncalltool = ask("tools/call");
  bridge.onreadresource = ask("resources/read");
  bridge.onmessage = ask("ui/message");
  bridge.onupdatemodelcontext = ask("ui/update-model-context");
  bridge.onopenlink = ask("ui/open-link");
  bridge.onloggingmessage = (p) => note(doc.id, "notifications/message", p);
  bridge.onsizechange = (p) => {
    if (typeof p.height === "number" && p.height > 0) frame.style.height = `${Math.min(Math.ceil(p.height), 4000)}px`;
    note(doc.id, "ui/notifications/size-changed", p);
  };
  bridge.onrequestteardown = () => note(doc.id, "ui/notifications/request-teardown", {});
  bridge.onsandboxready = () => {
    void bridge.sendSandboxResourceReady({
      html: doc.html,
      sandbox: "allow-scripts allow-forms",
      csp: doc.declared.csp,
      permissions: doc.declared.permissions,
    });
  };
  // Nothing is sent to the View before it says it is initialized; then input, then the result.
  bridge.oninitialized = () => {
    live.initialized = true;
    note(doc.id, "ui/notifications/initialized", {});
    void bridge.sendToolInput({ arguments: doc.input });
    flush(live);
  };
  // Connected before the proxy loads, so its sandbox-proxy-ready is not missed.
  await bridge.connect(new PostMessageTransport(frame.contentWindow as Window, frame.contentWindow as Window));
  frame.src = doc.proxyUrl;
  status.textContent = `${views.size} View${views.size === 1 ? "" : "s"}`;
}

function flush(l: Live): void {
  if (!l.initialized) return;
  if (l.result) {
    const r = l.result;
    l.result = undefined;
    void l.bridge.sendToolResult(r as never);
  } else if (l.cancelled !== undefined) {
    void l.bridge.sendToolCancelled({ reason: l.cancelled });
    l.cancelled = undefined;
  }
}

async function teardown(id: string): Promise<void> {
  const l = views.get(id);
  if (!l) return;
  views.delete(id);
  const bounded = new Promise((r) => setTimeout(r, 2000));
  if (l.initialized) await Promise.race([l.bridge.teardownResource({}).catch(() => {}), bounded]);
  await l.bridge.close().catch(() => {});
  l.section.remove();
  note(id, "teardown-done", {});
}

const events = new EventSource(`${base}events`);
events.onmessage = (m) => {
  const e = JSON.parse(m.data as string) as Event;
  if (e.type === "view") void addView(e.view);
  else if (e.type === "teardown") void teardown(e.id);
  else {
    const l = views.get(e.id);
    if (!l) return;
    if (e.type === "result") l.result = e.payload;
    else l.cancelled = e.reason;
    flush(l);
  }
};
const changed = () => {
  for (const l of views.values()) if (l.initialized) void l.bridge.sendHostContextChange(context(l));
};
dark.addEventListener("change", changed);
window.addEventListener("resize", changed);
